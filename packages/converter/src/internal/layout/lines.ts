/** Positioned text items -> lines: items on one baseline, cut where a gap is wider than a word space. */
import type { Line, TextItem } from "./model.js"
import { letterCount, normalizeText } from "./text.js"

interface Row {
  y: number
  size: number
  readonly items: Array<TextItem>
}

/** Gaps wider than this many font sizes separate columns or table cells, not words. */
const segmentGap = 1.2
/** Gaps wider than this many font sizes are word spaces. */
const spaceGap = 0.12

/** The key with the largest weight (0 when there is none): the most common font size. */
export const heaviest = (weights: ReadonlyMap<number, number>): number => {
  let best = 0
  let bestWeight = -1
  for (const [size, weight] of weights) {
    if (weight > bestWeight) {
      best = size
      bestWeight = weight
    }
  }
  return best
}

const dominantSize = (items: ReadonlyArray<TextItem>): number => {
  const weights = new Map<number, number>()
  for (const item of items) {
    const key = Math.round(item.size * 2) / 2
    weights.set(key, (weights.get(key) ?? 0) + item.text.length)
  }
  return heaviest(weights)
}

const makeLine = (items: ReadonlyArray<TextItem>): Line => {
  let rtlChars = 0
  let ltrChars = 0
  for (const item of items) {
    const letters = letterCount(item.text)
    if (item.rtl) rtlChars += letters
    else ltrChars += letters
  }
  const rtl = rtlChars > ltrChars
  // Items arrive in visual order; a right-to-left line is read from its right end.
  const ordered = rtl ? [...items].sort((a, b) => (b.x + b.width) - (a.x + a.width)) : items
  let text = ""
  let previous: TextItem | undefined
  for (const item of ordered) {
    if (previous !== undefined) {
      const gap = rtl ? previous.x - (item.x + item.width) : item.x - (previous.x + previous.width)
      const size = Math.max(previous.size, item.size)
      if (gap > spaceGap * size && !text.endsWith(" ") && !item.text.startsWith(" ")) text += " "
    }
    text += item.text
    previous = item
  }
  let x0 = Infinity
  let x1 = -Infinity
  for (const item of items) {
    x0 = Math.min(x0, item.x)
    x1 = Math.max(x1, item.x + item.width)
  }
  const size = dominantSize(items)
  const main = items.find((item) => Math.round(item.size * 2) / 2 === size) ?? items[0]!
  return { text: text.replace(/ {2,}/g, " ").trim(), x0, x1, y: main.y, size, rtl }
}

/** Items grouped by baseline: an item within half a font size of the row's baseline joins it. */
const groupRows = (input: ReadonlyArray<TextItem>): Array<Row> => {
  const items = input
    .map((item) => ({ ...item, text: normalizeText(item.text) }))
    .filter((item) => item.text.trim() !== "" && item.size > 0)
    .sort((a, b) => a.y - b.y)
  const rows: Array<Row> = []
  for (const item of items) {
    const last = rows[rows.length - 1]
    if (last !== undefined && Math.abs(item.y - last.y) <= 0.5 * Math.max(item.size, last.size)) {
      last.items.push(item)
      if (item.size > last.size) {
        last.size = item.size
        last.y = item.y
      }
    } else {
      rows.push({ y: item.y, size: item.size, items: [item] })
    }
  }
  return rows
}

/** One baseline cut into lines at gaps wider than `segmentGap` font sizes. */
const segmentRow = (row: Row): ReadonlyArray<Line> => {
  const sorted = row.items.sort((a, b) => a.x - b.x)
  const segments: Array<Line> = []
  let current: Array<TextItem> = []
  let end = -Infinity
  for (const item of sorted) {
    if (current.length > 0 && item.x - end > segmentGap * Math.max(item.size, current[0]!.size)) {
      segments.push(makeLine(current))
      current = []
      end = -Infinity
    }
    current.push(item)
    end = Math.max(end, item.x + item.width)
  }
  if (current.length > 0) segments.push(makeLine(current))
  // Pieces of a right-to-left baseline are read from the rightmost one.
  return segments.filter((segment) => segment.rtl).length * 2 > segments.length ? segments.reverse() : segments
}

/**
 * Groups items on a common baseline (superscripts included) and cuts each baseline where a gap
 * is wider than a word space, so two columns sharing baselines stay apart.
 */
export const buildRows = (input: ReadonlyArray<TextItem>): Array<ReadonlyArray<Line>> =>
  groupRows(input).map(segmentRow)
