/** A paper's byline (authors, affiliation) under its title, in its bold headings' size but not bold: text. */
import { allBold, isHeadingCandidate } from "./headings.js"
import type { Line, OrderedPage } from "./model.js"
import { pageLines } from "./model.js"

/** A size is its headings' when at least this many of its lines are bold, and more than are not. */
const minBold = 3

const isBold = (line: Line): boolean => allBold(line.text, line.marks ?? [])

/** The first page's lines right under its largest line, in a size bold headings are set in but not bold. */
export const bylines = (pages: ReadonlyArray<OrderedPage>, body: number): Set<Line> => {
  const found = new Set<Line>()
  const bold = new Map<number, number>()
  const plain = new Map<number, number>()
  for (const page of pages) {
    for (const line of pageLines(page)) {
      if (!isHeadingCandidate(line, body)) continue
      const counts = isBold(line) ? bold : plain
      counts.set(line.size, (counts.get(line.size) ?? 0) + 1)
    }
  }
  const boldSize = (size: number): boolean =>
    (bold.get(size) ?? 0) >= minBold && bold.get(size)! > (plain.get(size) ?? 0)
  const first = pages.find((page) => pageLines(page).length > 0)
  if (first === undefined) return found
  const lines = pageLines(first)
  const largest = Math.max(...lines.map((line) => line.size))
  const title = lines.findIndex((line) => line.size === largest)
  for (const line of lines.slice(title + 1)) {
    if (!isHeadingCandidate(line, body) || line.size >= largest || (isBold(line) && boldSize(line.size))) break
    if (boldSize(line.size)) found.add(line)
  }
  return found
}
