/** A float (figure, table, caption) at a column's top, over a paragraph going on from before: read after it. */
import { capitalCaption } from "./floatBlocks.js"
import type { Line, OrderedPage, PageItem } from "./model.js"
import { isCaption } from "./notHeadings.js"
import { endsSentence, lowerStart, normalizeText } from "./text.js"

// In font sizes: a rise that starts the next column; the least space under a float, baseline to baseline.
const rise = 2
const floatGap = 2

const topOf = (item: PageItem): number =>
  item._tag === "Line" ? item.line.y : item._tag === "Table" || item._tag === "Contents" ? item.y : item.placed.y0

const sizeOf = (item: PageItem): number => item._tag === "Line" ? item.line.size : 0

/** A table's note: its label, then a sentence ("a Some tables require footnotes."). */
const tableNote = /^(?:[a-z]|\d{1,2}|[*\u2020\u2021\u00A7])\s+\p{Lu}/u

export const isFloatPart = (item: PageItem, body: number): boolean => {
  if (item._tag !== "Line") return true
  const text = normalizeText(item.line.text).trim()
  return isCaption(text) || capitalCaption.test(text) || (item.line.size < body - 0.5 && tableNote.test(text))
}

const isRunningText = (item: PageItem, body: number, left: number, right: number): boolean =>
  item._tag === "Line" && Math.abs(item.line.size - body) <= 0.5 && Math.abs(item.line.x0 - left) <= 0.5 * body &&
  item.line.x1 >= right - 2 * body

export const columnStarts = (items: ReadonlyArray<PageItem>): Array<number> => {
  const starts = items.length > 0 ? [0] : []
  for (let i = 1; i < items.length; i++) {
    const size = Math.max(sizeOf(items[i]!), sizeOf(items[i - 1]!), 1)
    if (topOf(items[i]!) < topOf(items[i - 1]!) - rise * size) starts.push(i)
  }
  return starts
}

/** The last line of the paragraph `from` starts; undefined when it goes on past `end`. */
export const paragraphEnd = (
  items: ReadonlyArray<PageItem>,
  from: number,
  end: number,
  right: number
): number | undefined => {
  for (let i = from; i < end; i++) {
    const item = items[i]!
    if (item._tag !== "Line") return i > from ? i - 1 : undefined
    const line = item.line
    if (!endsSentence(line.text)) continue
    const next = i + 1 < end ? items[i + 1]! : undefined
    if (next === undefined || next._tag !== "Line") return i
    const size = line.size
    const gap = next.line.y - line.y
    if (gap <= 0.5 * size) continue
    if (gap > floatGap * size * 0.8 || next.line.x0 > line.x0 + 0.5 * size || line.x1 < right - 2 * size) return i
  }
  return undefined
}

export const floatsAfterText = (page: OrderedPage, body: number): OrderedPage => {
  const items = [...page.items]
  const starts = columnStarts(items)
  let moved = false
  for (let c = starts.length - 1; c >= 0; c--) {
    const start = starts[c]!
    const end = starts[c + 1] ?? items.length
    const column = items.slice(start, end)
    const first = column.findIndex((item, i) => i > 0 && goesOn(column, i, body))
    if (first <= 0) continue
    const line = (column[first] as PageItem & { _tag: "Line" }).line
    const text = column.slice(first).flatMap((item) => isText(item, body, line) ? [item.line] : [])
    const left = Math.min(...text.map((other) => other.x0))
    const right = Math.max(...text.map((other) => other.x1))
    const above = column.slice(0, first)
    const over = above.every((item) => item._tag !== "Line" || (item.line.x1 > left && item.line.x0 < right))
    if (
      !over || !above.some((item) => isFloatPart(item, body)) ||
      above.some((item) => isRunningText(item, body, left, right))
    ) continue
    const last = paragraphEnd(column, first, column.length, right)
    if (last === undefined) continue
    items.splice(start, end - start, ...column.slice(first, last + 1), ...above, ...column.slice(last + 1))
    moved = true
  }
  return moved ? { ...page, items } : page
}

const isText = (item: PageItem, body: number, line: Line): item is PageItem & { _tag: "Line" } =>
  item._tag === "Line" && Math.abs(item.line.size - body) <= 0.5 && item.line.x1 > line.x0 &&
  item.line.x0 < line.x1

/** A command set in the sentence ("\\affil{n}. Two or more..."): it goes on as a lower-case word does. */
const commandStart = /^\\\p{Ll}/u

/** A line going on under a float: lower case, well below, at the left edge of the text under it (no table cell). */
const goesOn = (column: ReadonlyArray<PageItem>, i: number, body: number): boolean => {
  const item = column[i]!
  if (item._tag !== "Line") return false
  const line = item.line
  if (
    Math.abs(line.size - body) > 0.5 || !(lowerStart.test(line.text) || commandStart.test(line.text)) ||
    line.y - topOf(column[i - 1]!) < floatGap * line.size
  ) return false
  const left = Math.min(...column.slice(i).flatMap((other) => isText(other, body, line) ? [other.line.x0] : []))
  return line.x0 - left <= 0.5 * line.size
}
