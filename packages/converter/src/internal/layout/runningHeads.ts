/** Running heads and folios: lines that repeat in the top or bottom band of the pages. */
import type { Line, OrderedPage } from "./model.js"

const pageNumber = /^(page\s*)?[-–—([]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?(\s*(of|\/)\s*\d{1,4})?$/i
/** The top and bottom bands of a page where running heads and folios live. */
const band = 0.1

const marginKey = (line: Line, height: number): string | undefined => {
  const position = line.y < height * band ? "top" : line.y > height * (1 - band) ? "bottom" : undefined
  if (position === undefined) return undefined
  return `${position}:${line.text.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ")}`
}

/**
 * Drops lines in the top and bottom bands that repeat (digits ignored, so "Page 3" matches
 * "Page 4") on at least 3 pages and 30% of the pages, and bare page numbers there. The lines
 * removed are returned too, so a measurement can tell them from body text lost.
 */
export const removeRunningHeads = (
  pages: ReadonlyArray<OrderedPage>
): { readonly pages: Array<OrderedPage>; readonly removed: Array<Line> } => {
  const textPages = pages.filter((page) => page.items.length > 0).length
  if (textPages < 2) return { pages: [...pages], removed: [] }
  const counts = new Map<string, number>()
  for (const page of pages) {
    const keys = new Set<string>()
    for (const item of page.items) {
      if (item._tag !== "Line") continue
      const key = marginKey(item.line, page.height)
      if (key !== undefined) keys.add(key)
    }
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const threshold = Math.max(3, textPages * 0.3)
  const removed: Array<Line> = []
  const kept = pages.map((page) => ({
    ...page,
    items: page.items.filter((item) => {
      if (item._tag !== "Line") return true
      const key = marginKey(item.line, page.height)
      const keep = key === undefined ||
        (!pageNumber.test(item.line.text.trim()) && (counts.get(key) ?? 0) < threshold)
      if (!keep) removed.push(item.line)
      return keep
    })
  }))
  return { pages: kept, removed }
}
