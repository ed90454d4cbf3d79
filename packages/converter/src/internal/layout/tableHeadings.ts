/**
 * Headings over tables: a bold body-size line alone on its baseline, right above a table, titles it
 * (a word processor's "Examples for differences" over its grid), whatever the space around it.
 */
import { allBold } from "./headings.js"
import type { Line, OrderedPage } from "./model.js"
import { letterCount } from "./text.js"

const maxChars = 120
/** The table starts within this many font sizes under the line. */
const maxDrop = 4

const titleShape = (line: Line, body: number): boolean =>
  line.charWidth === undefined && Math.abs(line.size - body) <= 0.5 && line.text.length <= maxChars &&
  letterCount(line.text) >= 2 && allBold(line.text, line.marks ?? []) && !/[.:;,]$/.test(line.text) &&
  !/^[\u2022\u25E6\u25AA\u2013\u2014*+-]\s/.test(line.text)

/** Bold body-size lines standing directly over a table (alone on their baseline: not a header row's cells). */
export const tableHeadings = (pages: ReadonlyArray<OrderedPage>, body: number): Set<Line> => {
  const found = new Set<Line>()
  for (const page of pages) {
    const lines = page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
    page.items.forEach((item, i) => {
      const next = page.items[i + 1]
      if (item._tag !== "Line" || next?._tag !== "Table" || !titleShape(item.line, body)) return
      const line = item.line
      if (next.y < line.y || next.y - line.y > maxDrop * line.size) return
      if (lines.some((other) => other !== line && Math.abs(other.y - line.y) < 0.5 * line.size)) return
      found.add(line)
    })
  }
  return found
}
