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

/** In sizes: how far a paragraph's first line may be indented past the title above it (groff's `.PP`). */
const maxIndent = 4

/**
 * Whether the text under a title starts where it does: its first line, or, when that line is a
 * paragraph's indented first line, the paragraph's next line at the title's leading.
 */
const startsUnder = (line: Line, next: Line, after: Line | undefined, body: number, leading: number): boolean => {
  if (Math.abs(next.x0 - line.x0) <= 1.5 * body) return true
  return after !== undefined && next.x0 > line.x0 && next.x0 - line.x0 <= maxIndent * body &&
    Math.abs(after.x0 - line.x0) <= 0.5 * body && after.y > next.y && after.y - next.y <= 1.2 * leading
}

const startsBold = (line: Line): boolean =>
  (line.marks ?? []).some((mark) => mark.start === 0 && (mark.style & Style.strong) !== 0)

/** Bold body-size lines bound to the text below them, starting where it starts (or its paragraph's second line). */
export const boundHeadings = (pages: ReadonlyArray<OrderedPage>, body: number, lineRatio: number): Set<Line> => {
  const found = new Set<Line>()
  const leading = lineRatio * body
  for (const page of pages) {
    const lines = pageLines(page)
    lines.forEach((line, i) => {
      const previous = lines[i - 1]
      const next = lines[i + 1]
      if (next === undefined || line.text.length > maxChars) return
      if (!boldTitleLine(line, body) || startsBold(next) || !startsUnder(line, next, lines[i + 2], body, leading)) {
        return
      }
      const below = next.y - line.y
      if (below < minBelow * leading) return
      // At a page's top there is no space above to go by: an indented paragraph under it still marks a title.
      if (previous === undefined) {
        if (next.x0 - line.x0 > 1.5 * body && below <= 2 * leading) found.add(line)
        return
      }
      const above = line.y - previous.y
      if (above >= below + minBinding * body && above <= maxAbove * leading) found.add(line)
    })
  }
  return found
}
