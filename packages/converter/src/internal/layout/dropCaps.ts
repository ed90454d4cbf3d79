/**
 * Drop caps: a paragraph's first capital set over several of its lines, the lines beside it indented.
 * Left as it is, its size makes one row of every baseline it spans (and of another column's beside
 * them); it goes on its paragraph's first line instead, at that line's size.
 */
import type { TextItem } from "./model.js"

/** A drop cap is this many times the size of the lines beside it, at least. */
const minRatio = 2.5
/** Baselines beside it, at least: a cap over one line is a large initial, already on its baseline. */
const minLines = 2
/** In the lines' font sizes: how far right of the cap its lines start. */
const maxIndent = 1
const joinGap = 0.3

const isCap = (item: TextItem): boolean => /^\p{Lu}$/u.test(item.text.trim())

export const withDropCaps = (items: ReadonlyArray<TextItem>): ReadonlyArray<TextItem> => {
  const caps = items.filter((item) => isCap(item) && item.size > 0)
  if (caps.length === 0) return items
  const moved = new Map<TextItem, TextItem>()
  for (const cap of caps) {
    const right = cap.x + cap.width
    const beside = items.filter((item) =>
      item !== cap && item.size > 0 && item.size * minRatio <= cap.size && item.x >= right - 1 &&
      item.x <= right + maxIndent * item.size && item.y <= cap.y + 1 && item.y >= cap.y - cap.size
    )
    const baselines = new Set(beside.map((item) => Math.round(item.y)))
    if (baselines.size < minLines) continue
    const top = Math.min(...beside.map((item) => item.y))
    const first = beside.filter((item) => item.y - top < 1).reduce((a, b) => b.x < a.x ? b : a)
    // Closer than a word space, the cap is its word's first letter ("T" "his").
    const width = first.x - right < joinGap * first.size ? first.x - cap.x : cap.width
    moved.set(cap, { ...cap, y: first.y, size: first.size, width })
  }
  return moved.size === 0 ? items : items.map((item) => moved.get(item) ?? item)
}
