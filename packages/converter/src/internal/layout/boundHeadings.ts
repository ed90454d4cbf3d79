/**
 * Bold body-size headings set as LaTeX sets its smaller sections (`\subsubsection`, a starred
 * `\section` in a small class): more space above than below, so the title binds to the text it heads,
 * and more below than the text's leading. A bold one-line paragraph has the same space on both sides.
 */
import type { Line, OrderedPage } from "./model.js"
import { pageLines, Style } from "./model.js"
import { boldTitleLine } from "./spacedHeadings.js"

const maxChars = 80
/** The least space below, in leadings; how much more space above than below, in sizes; the most above, in leadings. */
const minBelow = 1.25
const minBinding = 0.5
const maxAbove = 4

const startsBold = (line: Line): boolean =>
  (line.marks ?? []).some((mark) => mark.start === 0 && (mark.style & Style.strong) !== 0)

/** Bold body-size lines bound to the text below them, starting where it starts. */
export const boundHeadings = (pages: ReadonlyArray<OrderedPage>, body: number, lineRatio: number): Set<Line> => {
  const found = new Set<Line>()
  const leading = lineRatio * body
  for (const page of pages) {
    const lines = pageLines(page)
    lines.forEach((line, i) => {
      const previous = lines[i - 1]
      const next = lines[i + 1]
      if (previous === undefined || next === undefined || line.text.length > maxChars) return
      if (!boldTitleLine(line, body) || startsBold(next) || Math.abs(next.x0 - line.x0) > 1.5 * body) return
      const above = line.y - previous.y
      const below = next.y - line.y
      if (below >= minBelow * leading && above >= below + minBinding * body && above <= maxAbove * leading) {
        found.add(line)
      }
    })
  }
  return found
}
