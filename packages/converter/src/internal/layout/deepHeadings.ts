/**
 * Headings deeper than the outline goes (a LaTeX manual's bookmarks that stop at its subsections):
 * a line numbered one level under an outlined heading's number ("3.2.2" under "3.2"), alone between
 * wider gaps than its paragraph's leading.
 */
import type { OutlinedLine } from "./headings.js"
import type { Line, OrderedPage } from "./model.js"
import { pageLines } from "./model.js"

const leadingNumber = /^(\d+(?:\.\d+)*)\.?\s/u
const deepNumber = /^(\d+(?:\.\d+)+)\.?\s+\p{L}/u
/** A contents line's dot leader. */
const leader = /(?:\.\s*){4}/
const maxChars = 80
/** The gaps above and below, in leadings, that set a title apart from its paragraphs' lines. */
const minAbove = 1.5
const minBelow = 1.25

/** Lines numbered under an outlined heading's number and set apart, whose depth gives their level. */
export const deepHeadings = (
  pages: ReadonlyArray<OrderedPage>,
  outlined: ReadonlyMap<Line, OutlinedLine>,
  lineRatio: number
): Set<Line> => {
  const parents = new Set<string>()
  for (const [line, entry] of outlined) {
    const number = entry.first ? leadingNumber.exec(line.text)?.[1] : undefined
    if (number !== undefined) parents.add(number)
  }
  const found = new Set<Line>()
  if (parents.size === 0) return found
  const depth = Math.max(...[...parents].map((number) => number.split(".").length))
  for (const page of pages) {
    const lines = pageLines(page)
    lines.forEach((line, i) => {
      const text = line.text.trim()
      if (outlined.has(line) || text.length > maxChars || /[.:;,]$/.test(text) || leader.test(text)) return
      const number = deepNumber.exec(text)?.[1]
      // A number the outline's depth has is an entry it lists (one it could not match is inserted).
      if (number === undefined || number.split(".").length <= depth) return
      if (!parents.has(number.slice(0, number.lastIndexOf(".")))) return
      const leading = lineRatio * line.size
      const previous = lines[i - 1]
      const next = lines[i + 1]
      if (next === undefined || next.y - line.y < minBelow * leading) return
      if (previous !== undefined && line.y - previous.y < minAbove * leading) return
      found.add(line)
    })
  }
  return found
}
