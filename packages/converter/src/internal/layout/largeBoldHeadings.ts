/** A size a point above the text whose every line is bold, holding few characters, is a heading face. */
import { isHeadingCandidate } from "./headings.js"
import type { Mark } from "./model.js"
import { Style } from "./model.js"
import type { Line, OrderedPage } from "./model.js"
import { letterCount } from "./text.js"

/** Larger than the body by more than this, in points (sizes a rounding apart are the body's). */
const minGrowth = 0.5
/** A heading face holds at most this share of the document's characters. */
const maxShare = 0.1
/** Longer lines are a passage set in bold, not a title's line. */
const maxChars = 120

const boldText = (text: string, marks: ReadonlyArray<Mark>): boolean => {
  let end = 0
  for (const mark of marks) {
    if ((mark.style & (Style.strong | Style.code)) === 0 || text.slice(end, mark.start).trim() !== "") return false
    end = mark.end
  }
  return marks.some((mark) => (mark.style & Style.strong) !== 0) && text.slice(end).trim() === ""
}

/** The lines set in such a heading face, at depth 0 under the sized headings (as `smallHeadings`'s). */
export const largeBoldHeadings = (pages: ReadonlyArray<OrderedPage>, body: number): Map<Line, number> => {
  const bySize = new Map<number, Array<Line>>()
  let characters = 0
  for (const page of pages) {
    for (const item of page.items) {
      if (item._tag !== "Line") continue
      const line = item.line
      characters += line.text.length
      if (line.size <= body + minGrowth || isHeadingCandidate(line, body) || letterCount(line.text) === 0) continue
      const lines = bySize.get(line.size) ?? []
      lines.push(line)
      bySize.set(line.size, lines)
    }
  }
  const found = new Map<Line, number>()
  for (const lines of bySize.values()) {
    const share = lines.reduce((sum, line) => sum + line.text.length, 0) / Math.max(1, characters)
    const titles = lines.every((line) =>
      line.charWidth === undefined && line.text.length <= maxChars && boldText(line.text, line.marks ?? [])
    )
    if (lines.length < 2 || share > maxShare || !titles) continue
    // A bold label ending in a colon ("Affiliation:") is set in the face too, and is no title.
    for (const line of lines) if (!/[:;,]$/.test(line.text)) found.set(line, 0)
  }
  return found
}
