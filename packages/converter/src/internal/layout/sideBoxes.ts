/**
 * Boxes side by side: a frame whose inner vertical rules run its whole height, with no rule across
 * them between its top and bottom, each part holding a table of its own (two pieces apart on most of
 * its baselines: a name beside its description). Such a frame lays out boxes (a reference card's),
 * read one part after the other, where its baselines read across the parts would mix them.
 */
import type { Box, Rule, TextItem } from "./model.js"
import { mergedRules } from "./ruledTables.js"

/** Points: rules this close meet. */
const tolerance = 3
/** A part holds this many baselines at least: a box of lines, not a table's cell. */
const minBaselines = 6
/** Font sizes between two pieces of a baseline (a word space is narrower). */
const pieceGap = 1

export interface SideBoxes extends Box {
  readonly parts: ReadonlyArray<Box>
}

/** Whether an item stands in a box (its middle across, its baseline down). */
export const inBox = (item: TextItem, box: Box): boolean => {
  const middle = item.x + item.width / 2
  return middle > box.x0 && middle < box.x1 && item.y > box.y0 && item.y - 0.7 * item.size < box.y1
}

/** Whether most of the items' baselines (at least `minBaselines`) hold two pieces or more. */
const twoColumns = (items: ReadonlyArray<TextItem>): boolean => {
  const baselines = new Map<number, Array<TextItem>>()
  for (const item of items) {
    const y = Math.round(item.y)
    const line = baselines.get(y)
    if (line === undefined) baselines.set(y, [item])
    else line.push(item)
  }
  if (baselines.size < minBaselines) return false
  let pieced = 0
  for (const line of baselines.values()) {
    const sorted = line.sort((a, b) => a.x - b.x)
    let end = sorted[0]!.x + sorted[0]!.width
    let pieces = 1
    for (const item of sorted.slice(1)) {
      if (item.x - end >= pieceGap * item.size) pieces++
      end = Math.max(end, item.x + item.width)
    }
    if (pieces >= 2) pieced++
  }
  return pieced * 2 >= baselines.size
}

/** The frames of a page that lay out boxes side by side, and their parts left to right. */
export const sideBoxes = (items: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule>): Array<SideBoxes> => {
  const verticals = rules.filter((rule) => !rule.horizontal)
  if (verticals.length === 0) return []
  const across = mergedRules(rules)
  const out: Array<SideBoxes> = []
  for (let t = 0; t < across.length; t++) {
    const top = across[t]!
    if (out.some((frame) => top.y0 < frame.y1 - tolerance)) continue
    const bottom = across.slice(t + 1).find((rule) =>
      rule.y0 > top.y1 + tolerance && Math.abs(rule.x0 - top.x0) <= tolerance &&
      Math.abs(rule.x1 - top.x1) <= tolerance
    )
    if (bottom === undefined) continue
    const inner = verticals.filter((rule) =>
      rule.x0 > top.x0 + tolerance && rule.x1 < top.x1 - tolerance && rule.y0 <= top.y1 + tolerance &&
      rule.y1 >= bottom.y0 - tolerance
    )
    const crossed = across.some((rule) =>
      rule.y0 > top.y1 + tolerance && rule.y1 < bottom.y0 - tolerance &&
      inner.some((v) => rule.x0 < v.x0 && rule.x1 > v.x1)
    )
    if (inner.length === 0 || crossed) continue
    const edges: Array<number> = []
    for (const x of inner.map((rule) => (rule.x0 + rule.x1) / 2).sort((a, b) => a - b)) {
      if (edges.length === 0 || x - edges[edges.length - 1]! > tolerance) edges.push(x)
    }
    const xs = [top.x0, ...edges, top.x1]
    const parts = xs.slice(1).map((x1, i) => ({ x0: xs[i]!, x1, y0: top.y1, y1: bottom.y0 }))
    if (parts.every((part) => twoColumns(items.filter((item) => inBox(item, part))))) {
      out.push({ x0: top.x0, x1: top.x1, y0: top.y0, y1: bottom.y1, parts })
    }
  }
  return out
}
