/**
 * Columns of a reference card: narrow columns of equal width with no ruling, each a tabulation of
 * commands beside their meaning. Read across, their baselines make one wide table of all columns, so
 * a page whose text leaves blank strips its whole height between such columns is read column by column.
 */
import type { TextItem } from "./model.js"
import type { SideBoxes } from "./sideBoxes.js"

/** Font sizes of blank between two columns (a tab stop inside a column leaves less, or is crossed). */
const minGap = 1.5
/** Share of the page's width a column spans, at least and at most: two-column pages are read elsewhere. */
const minWidth = 0.2
const maxWidth = 0.4
/** The narrowest column is this share of the widest. */
const minRatio = 0.75
/** Baselines each column holds at least. */
const minBaselines = 8

const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0

/** The page as one frame of card columns, or none. */
export const cardColumns = (items: ReadonlyArray<TextItem>, pageWidth: number): Array<SideBoxes> => {
  const spans = items.filter((item) => item.text.trim() !== "").map((item) => ({ x0: item.x, x1: item.x + item.width }))
  if (spans.length === 0) return []
  const gap = minGap * median(items.map((item) => item.size))
  spans.sort((a, b) => a.x0 - b.x0)
  const strips: Array<{ x0: number; x1: number }> = []
  for (const span of spans) {
    const last = strips[strips.length - 1]
    if (last !== undefined && span.x0 - last.x1 < gap) last.x1 = Math.max(last.x1, span.x1)
    else strips.push({ ...span })
  }
  if (strips.length < 2) return []
  const widths = strips.map((strip) => strip.x1 - strip.x0)
  const widest = Math.max(...widths)
  const narrowest = Math.min(...widths)
  if (narrowest < minWidth * pageWidth || widest > maxWidth * pageWidth || narrowest < minRatio * widest) return []
  const baselines = strips.map((strip) =>
    new Set(items.filter((item) => item.x >= strip.x0 && item.x < strip.x1).map((item) => Math.round(item.y))).size
  )
  if (baselines.some((count) => count < minBaselines)) return []
  const y0 = Math.min(...items.map((item) => item.y - item.size)) - 1
  const y1 = Math.max(...items.map((item) => item.y)) + 1
  const parts = strips.map((strip) => ({ x0: strip.x0 - 1, x1: strip.x1 + 1, y0, y1 }))
  return [{ x0: parts[0]!.x0, x1: parts[parts.length - 1]!.x1, y0, y1, parts }]
}
