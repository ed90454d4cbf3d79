/**
 * Stray glyphs: a letter set a little off its line (the TeX logo's lowered "E", a subscript) is a row
 * of its own when another column's line shares the row; it goes back to the row of the run it touches.
 */
import type { Row } from "./lines.js"
import type { TextItem } from "./model.js"

/** A stray row holds at most this many runs of at most this many characters. */
const maxRuns = 2
const maxChars = 2
const reach = 3
/** Font sizes a stray may stand from its run's baseline, and from its ends across. */
const maxRise = 0.5
const maxReach = 0.3

const isStray = (row: Row): boolean =>
  row.items.length <= maxRuns && row.items.every((item) => [...item.text.trim()].length <= maxChars)

/** How far `stray` stands from the nearest run of `row` it touches across, or undefined when it touches none. */
const distance = (stray: TextItem, row: Row): number | undefined => {
  let best: number | undefined
  for (const item of row.items) {
    if (item === stray) continue
    const size = Math.max(stray.size, item.size)
    const rise = Math.abs(stray.y - item.y)
    const touches = stray.x <= item.x + item.width + maxReach * size &&
      stray.x + stray.width >= item.x - maxReach * size
    if (touches && rise <= maxRise * size && (best === undefined || rise < best)) best = rise
  }
  return best
}

/** The rows with each stray row's runs moved into the row of the runs they touch. */
export const joinStrays = (rows: ReadonlyArray<Row>): Array<Row> => {
  const out = rows.map((row) => ({ ...row, items: [...row.items] }))
  const gone = new Set<number>()
  out.forEach((row, r) => {
    if (!isStray(row)) return
    let target: number | undefined
    let best = Infinity
    for (let o = Math.max(0, r - reach); o <= Math.min(out.length - 1, r + reach); o++) {
      if (o === r || gone.has(o) || isStray(out[o]!)) continue
      const near = row.items.map((item) => distance(item, out[o]!))
      if (near.some((d) => d === undefined)) continue
      const far = Math.max(...near.map((d) => d ?? Infinity))
      if (far < best) {
        best = far
        target = o
      }
    }
    if (target === undefined) return
    const into = out[target]!.items
    into.push(...row.items)
    into.sort((a, b) => a.x - b.x)
    gone.add(r)
  })
  return out.filter((_, r) => !gone.has(r))
}
