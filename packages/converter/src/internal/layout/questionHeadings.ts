/** A FAQ's numbered questions in the text's face and size, told from numbered items by a heading's space around them. */
import type { Line, OrderedPage } from "./model.js"
import { pageLines } from "./model.js"

/** A number with no full stop or bracket after it, then a capital: "2 How do I". */
const numberedStart = /^\d{1,2}\s+\p{Lu}/u
/** How much farther than paragraphs, in body sizes, the question stands from the text above (and at most, below). */
const minExtra = 0.25
const maxExtra = 2
const maxChars = 160
/** A document has at least this many such questions (one alone is a numbered sentence). */
const minQuestions = 2

const plain = (line: Line, body: number): boolean =>
  line.charWidth === undefined && Math.abs(line.size - body) <= 0.5 && line.text.length <= maxChars

/** The line wrapping a question's title: at its size, right below it, set in past its number. */
const wrapOf = (line: Line, next: Line | undefined): Line | undefined =>
  next !== undefined && next.size === line.size && next.y > line.y && next.y - line.y < line.size * 1.6 &&
    next.x0 > line.x0 && next.x0 < line.x0 + 3 * line.size && /\?$/.test(next.text.trim())
    ? next
    : undefined

/** The question lines (a wrapped question's both) of a document without an outline. */
export const questionHeadings = (
  pages: ReadonlyArray<OrderedPage>,
  body: number,
  gap: number | undefined
): Set<Line> => {
  const found: Array<Array<Line>> = []
  if (gap === undefined) return new Set()
  const apart = gap + minExtra * body
  for (const page of pages) {
    const lines = pageLines(page)
    lines.forEach((line, i) => {
      if (!plain(line, body) || !numberedStart.test(line.text)) return
      const wrap = /\?$/.test(line.text.trim()) ? undefined : wrapOf(line, lines[i + 1])
      if (wrap === undefined && !/\?$/.test(line.text.trim())) return
      const end = wrap ?? line
      const previous = lines[i - 1]
      const next = lines[i + (wrap === undefined ? 1 : 2)]
      if (previous !== undefined && previous.y < line.y && line.y - previous.y < apart) return
      if (next === undefined || next.y <= end.y) return
      const below = next.y - end.y
      if (below < gap || below > gap + maxExtra * body) return
      found.push(wrap === undefined ? [line] : [line, wrap])
    })
  }
  return found.length >= minQuestions ? new Set(found.flat()) : new Set()
}
