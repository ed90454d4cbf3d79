/**
 * Code blocks: consecutive lines set wholly in a fixed-pitch font. Each line keeps its
 * indentation (its offset from the block's leftmost line, in characters) and the blank lines
 * between them (vertical gaps, in line pitches); nothing is re-wrapped, joined or escaped.
 */
import type * as Document from "../../Document.js"
import type { Line } from "./model.js"

/** A gap over this many line pitches ends the block (the next listing, or text between). */
const maxGapPitches = 2.6

/** Terms of one definition, at most (a term and its alternative spellings). */
const maxTerms = 3
/** How far (font sizes) a definition is indented past its terms, at least. */
const minDefinitionIndent = 1.5

/**
 * A listing's quotes as typed: TeX engines set the ASCII quotes of a typewriter face as curly
 * ones in the text layer (DBLaTeX with XeTeX does), and `echo ”Hello!”` is not a command one can run.
 */
const straightQuotes = (text: string): string => text.replace(/[\u201C\u201D]/g, "\"").replace(/[\u2018\u2019]/g, "'")

export class CodeBuilder {
  private readonly lines: Array<Line> = []
  /** The smallest distance between two of its baselines: one line pitch. */
  private pitch: number | undefined

  constructor(line: Line) {
    this.lines.push(line)
  }

  /** Adds a code line when it goes on with this block (close enough below); false otherwise. */
  add(line: Line): boolean {
    const last = this.lines[this.lines.length - 1]!
    const dy = line.y - last.y
    if (dy <= 0.3 * line.size || dy > maxGapPitches * (this.pitch ?? line.size * 1.5)) return false
    this.pitch = Math.min(this.pitch ?? dy, dy)
    this.lines.push(line)
    return true
  }

  /**
   * The block's lines when they are the terms of a definition list and `next` starts the
   * definition: at most `maxTerms` lines flush at one margin, and `next`, set in the text face,
   * directly below and indented past them (texinfo's `@table @code`, DocBook's variable lists,
   * an option list). A listing is followed by text at its own margin or further left.
   */
  termsBefore(next: Line): ReadonlyArray<Line> | undefined {
    const first = this.lines[0]!
    const last = this.lines[this.lines.length - 1]!
    if (this.lines.length > maxTerms || next.charWidth !== undefined) return undefined
    if (this.lines.some((line) => Math.abs(line.x0 - first.x0) > 0.5 * line.size)) return undefined
    const dy = next.y - last.y
    if (dy <= 0 || dy > 2 * next.size || next.x0 < first.x0 + minDefinitionIndent * next.size) return undefined
    return this.lines
  }

  build(): Document.Code {
    const left = Math.min(...this.lines.map((line) => line.x0))
    const out: Array<string> = []
    let previous: Line | undefined
    for (const line of this.lines) {
      if (previous !== undefined) {
        const blank = Math.round((line.y - previous.y) / (this.pitch ?? line.y - previous.y)) - 1
        for (let i = 0; i < blank; i++) out.push("")
      }
      const width = line.charWidth ?? line.size * 0.6
      out.push(" ".repeat(Math.max(0, Math.round((line.x0 - left) / width))) + straightQuotes(line.text))
      previous = line
    }
    return { _tag: "Code", text: out.join("\n") }
  }
}
