/**
 * A bar of small print down a page's right side (beamer's sidebar themes: the talk's title and its
 * sections), apart from the body by a gap no run crosses. Its lines share baselines with the
 * body's, and joined to them they cut items and sentences in two: it is read apart, after the body.
 */
import type { Line, OrderedPage, TextItem } from "./model.js"

/** A bar stands in this share of the page's width at its right edge (at the left, a table's first column looks alike). */
const strip = 0.3
/** The gap between bar and body, in the page's largest size at least. */
const minGap = 1
/** A bar's print is at most this share of the body's largest (a slide's title; a picture's slide has little else). */
const maxSize = 0.8
/** A bar holds this many baselines of words at least: fewer is a note or a folio; bullets and line numbers have none. */
const minBaselines = 3
const words = /\p{L}.*\p{L}/u

const gaps = (items: ReadonlyArray<TextItem>): Array<readonly [number, number]> => {
  const spans = items.map((item) => [item.x, item.x + item.width] as const).sort((a, b) => a[0] - b[0])
  const found: Array<readonly [number, number]> = []
  let end = spans[0]?.[1] ?? 0
  for (const [x0, x1] of spans.slice(1)) {
    if (x0 > end) found.push([end, x0])
    end = Math.max(end, x1)
  }
  return found
}

/** A bar's baselines are mostly its own: a table's last column shares its rows' baselines. */
const maxShared = 0.5

const isBar = (bar: ReadonlyArray<TextItem>, body: ReadonlyArray<TextItem>): boolean => {
  const largest = body.reduce((max, item) => Math.max(max, item.size), 0)
  if (!bar.every((item) => item.size <= maxSize * largest)) return false
  const baselines = [...new Set(bar.filter((item) => words.test(item.text)).map((item) => Math.round(item.y)))]
  const shared = baselines.filter((y) => body.some((item) => Math.abs(item.y - y) < 1)).length
  return baselines.length >= minBaselines && shared <= maxShared * baselines.length
}

export const sideBar = (items: ReadonlyArray<TextItem>, width: number): ReadonlySet<TextItem> | undefined => {
  const text = items.filter((item) => item.text.trim() !== "")
  if (text.length < minBaselines * 2) return undefined
  const largest = text.reduce((max, item) => Math.max(max, item.size), 0)
  const wide = gaps(text).filter(([x0, x1]) => x1 - x0 >= minGap * largest)
  const right = wide.filter(([, x1]) => x1 >= width * (1 - strip)).pop()
  if (right === undefined) return undefined
  const bar = text.filter((item) => item.x >= right[1])
  return isBar(bar, text.filter((item) => item.x < right[0])) ? new Set(bar) : undefined
}

/** A bar's line recurs at its place on this share of the pages with a bar, and on this many at least. */
const minShare = 0.3
const minPages = 3

const barKeys = (line: Line): Array<string> => {
  const y = Math.round(line.y)
  return [y - 1, y, y + 1].map((at) => `${at}:${line.text.trim()}`)
}

/** Drops the side bars' lines repeated at one place across the pages (a deck's navigation), and returns them. */
export const dropRepeatedBars = (
  pages: ReadonlyArray<OrderedPage>
): { readonly pages: Array<OrderedPage>; readonly removed: Array<Line> } => {
  const barred = pages.filter((page) => page.bar !== undefined)
  if (barred.length < minPages) return { pages: [...pages], removed: [] }
  const counts = new Map<string, number>()
  for (const page of barred) {
    for (const key of new Set(page.bar!.flatMap(barKeys))) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const needed = Math.max(minPages, barred.length * minShare)
  const removed: Array<Line> = []
  const kept = pages.map((page) => {
    const repeated = new Set(
      (page.bar ?? []).filter((line) => barKeys(line).some((key) => (counts.get(key) ?? 0) >= needed))
    )
    if (repeated.size === 0) return page
    removed.push(...repeated)
    return { ...page, items: page.items.filter((item) => item._tag !== "Line" || !repeated.has(item.line)) }
  })
  return { pages: kept, removed }
}
