/**
 * A float (a figure's labels, a table, its caption) at a column's foot, under a paragraph that goes on
 * at the top of the next column: read after that paragraph, so that its two halves join.
 */
import { columnStarts, isFloatPart, paragraphEnd } from "./columnFloats.js"
import type { OrderedPage, PageItem } from "./model.js"
import { endsSentence, lowerStart } from "./text.js"

/** In font sizes: lines this much apart at most go on one caption; a running line reaches this near its column's edges. */
const captionGap = 1.6
const edgeSlack = 2
const floatGap = 2

type LineItem = PageItem & { _tag: "Line" }

const isBodyLine = (item: PageItem | undefined, body: number): item is LineItem =>
  item !== undefined && item._tag === "Line" && Math.abs(item.line.size - body) <= 0.5

/** The column's text edges: the body lines' leftmost start and rightmost end. */
const edges = (column: ReadonlyArray<PageItem>, body: number): { left: number; right: number } => {
  const lines = column.flatMap((item) => isBodyLine(item, body) ? [item.line] : [])
  return { left: Math.min(...lines.map((line) => line.x0)), right: Math.max(...lines.map((line) => line.x1)) }
}

/** Where a column's foot float starts: after its last running line, ending no sentence, over a caption. */
const footFloat = (column: ReadonlyArray<PageItem>, body: number): number | undefined => {
  const caption = column.findIndex((item) => item._tag === "Line" && isFloatPart(item, body))
  if (caption <= 0) return undefined
  for (let i = caption + 1; i < column.length; i++) {
    const item = column[i]!
    const before = column[i - 1]!
    if (item._tag !== "Line" || before._tag !== "Line") return undefined
    if (item.line.y - before.line.y > captionGap * Math.max(item.line.size, 1)) return undefined
  }
  const { left, right } = edges(column, body)
  let last = caption - 1
  const running = (item: PageItem): boolean =>
    isBodyLine(item, body) && Math.abs(item.line.x0 - left) <= edgeSlack * body &&
    item.line.x1 >= right - edgeSlack * body
  while (last >= 0 && !running(column[last]!)) last--
  if (last < 0 || last === caption - 1) return undefined
  const line = column[last] as LineItem
  // The float stands apart: a paragraph's short last line follows at its line spacing.
  const below = column[last + 1]!
  const top = below._tag === "Line" ? below.line.y : Infinity
  if (top - line.line.y < floatGap * line.line.size) return undefined
  return endsSentence(line.line.text) ? undefined : last + 1
}

/** Floats at a column's foot read after the paragraph the next column goes on with. */
export const floatsAfterBreak = (page: OrderedPage, body: number): OrderedPage => {
  const items = [...page.items]
  const starts = columnStarts(items)
  let moved = false
  for (let c = starts.length - 2; c >= 0; c--) {
    const start = starts[c]!
    const end = starts[c + 1]!
    const nextEnd = starts[c + 2] ?? items.length
    const column = items.slice(start, end)
    const next = items.slice(end, nextEnd)
    const head = next[0]
    if (!isBodyLine(head, body) || !lowerStart.test(head.line.text)) continue
    const { left, right } = edges(next, body)
    if (head.line.x0 - left > 0.5 * body) continue
    const float = footFloat(column, body)
    if (float === undefined) continue
    const last = paragraphEnd(next, 0, next.length, right)
    if (last === undefined) continue
    const floatItems = column.slice(float)
    items.splice(
      start,
      nextEnd - start,
      ...column.slice(0, float),
      ...next.slice(0, last + 1),
      ...floatItems,
      ...next.slice(last + 1)
    )
    moved = true
  }
  return moved ? { ...page, items } : page
}
