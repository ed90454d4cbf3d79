/**
 * Tab stops: a tabulation's second column starts at one x; where a first cell (code) is long, the
 * gap before the second (text) is narrower than a cut (`segmentGap`), yet the baseline is still two
 * cells when rows around it are cut there, their first cells (code too) starting where its own does.
 */
import { isMono } from "./codeFace.js"
import type { Row } from "./lines.js"
import { segmentGap } from "./lines.js"
import type { TextItem } from "./model.js"

/** Points two starts may differ by and still be one column's. */
const slack = 1
/** A gap narrower than this many font sizes is a word space, never a cell's end. */
const minGap = 0.4
/** Rows cut at the same stop, with first cells at the same x, needed to cut another. */
const minSupport = 2
/** Baselines up or down, at most, where a supporting row is looked for. */
const reach = 4

interface Stop {
  /** Where the cell before the cut starts, and where the one after it does. */
  readonly from: number
  readonly at: number
  /** Whether the cell before the cut holds code. */
  readonly code: boolean
}

/** The cuts a row already has (gaps wider than `segmentGap`), as the starts of the cells around them. */
const stopsOf = (row: Row): Array<Stop> => {
  const stops: Array<Stop> = []
  let from = row.items[0]?.x ?? 0
  let end = -Infinity
  let code = false
  for (const item of row.items) {
    if (end > -Infinity && item.x - end > segmentGap * Math.max(item.size, row.size)) {
      stops.push({ from, at: item.x, code })
      from = item.x
      code = false
    }
    code ||= isMono(item)
    end = Math.max(end, item.x + item.width)
  }
  return stops
}

/** The runs before which a baseline is cut at a tab stop that rows near it are cut at. */
export const tabStopCuts = (rows: ReadonlyArray<Row>): Set<TextItem> => {
  const cuts = new Set<TextItem>()
  const stops = rows.map(stopsOf)
  rows.forEach((row, r) => {
    let from = row.items[0]?.x ?? 0
    let end = -Infinity
    let code = false
    for (const item of row.items) {
      const gap = item.x - end
      const size = Math.max(item.size, row.size)
      if (end > -Infinity && gap > segmentGap * size) {
        from = item.x
        code = false
      } else if (end > -Infinity && code && !isMono(item) && gap >= minGap * size) {
        let support = 0
        for (let o = Math.max(0, r - reach); o <= Math.min(rows.length - 1, r + reach); o++) {
          if (o === r) continue
          const near = stops[o]!.some((stop) =>
            stop.code && Math.abs(stop.at - item.x) <= slack && Math.abs(stop.from - from) <= slack
          )
          if (near) support++
        }
        if (support >= minSupport) {
          cuts.add(item)
          from = item.x
          code = false
        }
      }
      code ||= isMono(item)
      end = Math.max(end, item.x + item.width)
    }
  })
  return cuts
}
