/** Where each page's text block starts: two-sided books set odd and even pages' text apart. */
import { heaviest } from "./lines.js"
import type { OrderedPage } from "./model.js"
import { pageLines } from "./model.js"

/** The left edge of a page's text: its body-size lines' leftmost start. */
const leftEdge = (page: OrderedPage, body: number): number | undefined => {
  let edge: number | undefined
  for (const line of pageLines(page)) {
    if (Math.abs(line.size - body) <= 1 && line.charWidth === undefined) edge = Math.min(edge ?? line.x0, line.x0)
  }
  return edge
}

/** The most common of the values rounded (the first counted on a tie); none of no values, where `heaviest` answers 0. */
const mode = (values: ReadonlyArray<number>): number | undefined => {
  if (values.length === 0) return undefined
  const counts = new Map<number, number>()
  for (const value of values) counts.set(Math.round(value), (counts.get(Math.round(value)) ?? 0) + 1)
  return heaviest(counts)
}

/**
 * Each page's text edge: the most common edge of the pages of its parity (a page of indented list
 * text alone does not start at the margin), its own where its parity has none.
 */
export const pageEdges = (pages: ReadonlyArray<OrderedPage>, body: number): ReadonlyMap<number, number> => {
  const own = new Map<number, number>()
  for (const page of pages) {
    const edge = leftEdge(page, body)
    if (edge !== undefined) own.set(page.page, edge)
  }
  const byParity = [0, 1].map((parity) => mode([...own].filter(([page]) => page % 2 === parity).map(([, x]) => x)))
  return new Map(pages.flatMap((page) => {
    const edge = byParity[page.page % 2] ?? own.get(page.page)
    return edge === undefined ? [] : [[page.page, edge] as const]
  }))
}
