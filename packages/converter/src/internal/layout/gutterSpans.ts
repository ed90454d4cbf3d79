/**
 * A display set across both columns in pieces none of which crosses the gutter (a wide equation):
 * found by a piece standing in the gutter, past where one column's lines start or end; read in place.
 */
import type { Placed } from "./columns.js"
import { heaviest } from "./lines.js"

/** Points (or a share of the font size) a justified line's protrusion reaches past its column's edge. */
const protrusion = 2
const protrusionShare = 0.3
const columnLine = 0.6
/** Baselines this many font sizes apart, at most, hold pieces of one display. */
const reach = 1.5
const minEdgeLines = 3

/** The most frequent of `xs` (rounded to a point), when at least `minEdgeLines` share it. */
const commonEdge = (xs: ReadonlyArray<number>): number | undefined => {
  const counts = new Map<number, number>()
  for (const x of xs) counts.set(Math.round(x), (counts.get(Math.round(x)) ?? 0) + 1)
  const best = heaviest(counts)
  return (counts.get(best) ?? 0) >= minEdgeLines ? best : undefined
}

/** The indexes of `items` in displays set across the gutter at `gutter`. */
export const gutterSpans = (items: ReadonlyArray<Placed>, gutter: number): Set<number> => {
  const lines = items.filter((p) => p.item._tag === "Line")
  const left = lines.filter((p) => p.x1 <= gutter + 1)
  const right = lines.filter((p) => p.x0 >= gutter - 1)
  const leftEnd = commonEdge(left.map((p) => p.x1))
  const rightStart = commonEdge(right.map((p) => p.x0))
  const spans = new Set<number>()
  if (leftEnd === undefined || rightStart === undefined) return spans
  const leftStart = Math.min(...left.map((p) => p.x0))
  const rightEnd = Math.max(...right.map((p) => p.x1))
  const isColumnLine = (p: Placed): boolean =>
    p.x1 - p.x0 >= columnLine * Math.min(leftEnd - leftStart, rightEnd - rightStart)
  const inGutter = (p: Placed): boolean => {
    const slack = Math.max(protrusion, protrusionShare * p.size)
    return p.item._tag === "Line" && !isColumnLine(p) &&
      (p.x0 >= gutter - 1 && p.x0 < rightStart - slack || p.x1 <= gutter + 1 && p.x1 > leftEnd + slack)
  }
  const near = (i: number, j: number) =>
    Math.abs(items[i]!.y - items[j]!.y) <= reach * Math.max(items[i]!.size, items[j]!.size, 1)
  items.forEach((seed, s) => {
    if (spans.has(s) || !inGutter(seed)) return
    // Space above and below it: a figure's labels beside a column's lines are no display.
    let first = s
    let last = s
    while (first > 0 && near(first - 1, first)) {
      if (isColumnLine(items[first - 1]!)) return
      first--
    }
    while (last < items.length - 1 && near(last + 1, last)) {
      if (isColumnLine(items[last + 1]!)) return
      last++
    }
    const block = items.slice(first, last + 1)
    if (block.some((p) => p.x1 <= gutter + 1) && block.some((p) => p.x0 >= gutter - 1)) {
      for (let i = first; i <= last; i++) spans.add(i)
    }
  })
  return spans
}
