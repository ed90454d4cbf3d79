/**
 * Code blocks: consecutive lines set wholly in a fixed-pitch font. Each line keeps its
 * indentation (its offset from the block's leftmost line, in characters) and the blank lines
 * between them (vertical gaps, in line pitches); nothing is re-wrapped, joined or escaped.
 */
import type * as Document from "../../Document.js"
import type { Line } from "./model.js"

/** A gap over this many line pitches ends the block (the next listing, or text between). */
const maxGapPitches = 2.6

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
      out.push(" ".repeat(Math.max(0, Math.round((line.x0 - left) / width))) + line.text)
      previous = line
    }
    return { _tag: "Code", text: out.join("\n") }
  }
}
