/** Code blocks: lines wholly in a fixed-pitch font, kept as printed with their indentation and blank lines. */
import type * as Document from "../../Document.js"
import { commentStart } from "./lines.js"
import type { Line } from "./model.js"

/** A gap over this many line pitches ends the block (the next listing, or text between). */
const maxGapPitches = 2.6

/** Terms of one definition, at most (a term and its alternative spellings). */
const maxTerms = 3
/** How far (font sizes) a definition is indented past its terms, at least; beside its term, at most. */
const minDefinitionIndent = 1.5
const maxBesideIndent = 6

/** A listing's quotes as typed: TeX sets a typewriter face's ASCII quotes as curly ones in the text layer. */
const straightQuotes = (text: string): string => text.replace(/[\u201C\u201D]/g, "\"").replace(/[\u2018\u2019]/g, "'")

export class CodeBuilder {
  private readonly lines: Array<Line> = []
  /** The smallest distance between two of its baselines: one line pitch. */
  private pitch: number | undefined

  constructor(line: Line) {
    this.lines.push(line)
  }

  add(line: Line): boolean {
    const last = this.lines[this.lines.length - 1]!
    const dy = line.y - last.y
    if (dy <= 0.3 * line.size || dy > maxGapPitches * (this.pitch ?? line.size * 1.5)) return false
    this.pitch = Math.min(this.pitch ?? dy, dy)
    this.lines.push(line)
    return true
  }

  /**
   * The block's lines when they are a definition list's terms (texinfo's `@table`): `next`, in the text face,
   * starts the definition indented just below them, or beside a single one that ends in no comment sign.
   */
  termsBefore(next: Line): ReadonlyArray<Line> | undefined {
    const first = this.lines[0]!
    const last = this.lines[this.lines.length - 1]!
    if (this.lines.length > maxTerms || next.charWidth !== undefined) return undefined
    if (this.lines.some((line) => Math.abs(line.x0 - first.x0) > 0.5 * line.size)) return undefined
    if (next.x0 < first.x0 + minDefinitionIndent * next.size) return undefined
    const dy = next.y - last.y
    if (Math.abs(dy) <= 0.5 * next.size) {
      const term = this.lines.length === 1 && next.x0 > last.x1 + next.size && !commentStart.test(last.text) &&
        next.x0 <= first.x0 + maxBesideIndent * next.size
      return term ? this.lines : undefined
    }
    return dy <= 0 || dy > 2 * next.size ? undefined : this.lines
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
