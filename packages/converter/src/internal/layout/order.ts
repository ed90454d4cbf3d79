/** Reading order of one page: tables kept whole, two columns read one after the other, figures placed. */
import type { Grid } from "./grid.js"
import { findGrids } from "./grid.js"
import { groupRows, segmentRow } from "./lines.js"
import type { Line, OrderedPage, PageItem, PageText } from "./model.js"

const overlaps = (a0: number, a1: number, b0: number, b1: number): boolean => a0 < b1 && b0 < a1

/** Runs of two or more baselines cut into the same number (>= 3) of aligned cells. */
const findTables = (rows: ReadonlyArray<ReadonlyArray<Line>>): Array<readonly [start: number, end: number]> => {
  const runs: Array<readonly [number, number]> = []
  let start = -1
  const aligned = (a: ReadonlyArray<Line>, b: ReadonlyArray<Line>): boolean =>
    a.length === b.length && a.every((cell, i) => overlaps(cell.x0, cell.x1 + 1, b[i]!.x0, b[i]!.x1 + 1))
  for (let i = 0; i <= rows.length; i++) {
    const row = rows[i]
    const continues = row !== undefined && row.length >= 3 && start >= 0 && aligned(rows[i - 1]!, row)
    if (continues) continue
    if (start >= 0 && i - start >= 2) runs.push([start, i])
    start = row !== undefined && row.length >= 3 ? i : -1
  }
  return runs
}

/**
 * Finds a vertical gutter near the middle of the page that almost no line crosses, with enough
 * lines on both sides: the page is then read left column first (right first for RTL pages).
 */
export const findGutter = (lines: ReadonlyArray<Line>, pageWidth: number): number | undefined => {
  if (lines.length < 8) return undefined
  const minSide = Math.max(4, lines.length * 0.2)
  let best: number | undefined
  let bestCrossing = Infinity
  for (let x = pageWidth * 0.3; x <= pageWidth * 0.7; x += 2) {
    let crossing = 0
    let left = 0
    let right = 0
    for (const line of lines) {
      if (line.x1 <= x + 1) left++
      else if (line.x0 >= x - 1) right++
      else crossing++
    }
    if (left < minSide || right < minSide || crossing > Math.min(left, right) * 0.5) continue
    if (
      crossing < bestCrossing ||
      (crossing === bestCrossing && best !== undefined && Math.abs(x - pageWidth / 2) < Math.abs(best - pageWidth / 2))
    ) {
      best = x
      bestCrossing = crossing
    }
  }
  return best
}

/** A line or a table with the horizontal extent and the baseline that order it. */
interface Placed {
  readonly item: PageItem
  readonly x0: number
  readonly x1: number
  readonly y: number
}

/** The page's rows as lines, with the grids and the runs `findTables` finds turned into tables. */
const placeRows = (rows: ReadonlyArray<ReadonlyArray<Line>>, grids: ReadonlyArray<Grid>): Array<Placed> => {
  const tables = findTables(rows).filter(([start, end]) => !grids.some((grid) => start < grid.end && grid.start < end))
  const placed: Array<Placed> = []
  let t = 0
  let g = 0
  for (let i = 0; i < rows.length; i++) {
    const grid = grids[g]
    if (grid !== undefined && i === grid.start) {
      const y = rows[i]![0]!.y
      const marks = grid.marks !== undefined ? { marks: grid.marks } : {}
      placed.push({ item: { _tag: "Table", rows: grid.rows, ...marks, y }, x0: grid.x0, x1: grid.x1, y })
      i = grid.end - 1
      g++
      continue
    }
    const table = tables[t]
    if (table !== undefined && i === table[0]) {
      const tableRows = rows.slice(table[0], table[1])
      const cells = tableRows.flat()
      placed.push({
        item: { _tag: "Table", rows: tableRows.map((row) => row.map((cell) => cell.text)), y: tableRows[0]![0]!.y },
        x0: Math.min(...cells.map((cell) => cell.x0)),
        x1: Math.max(...cells.map((cell) => cell.x1)),
        y: tableRows[0]![0]!.y
      })
      i = table[1] - 1
      t++
      continue
    }
    for (const line of rows[i]!) placed.push({ item: { _tag: "Line", line }, x0: line.x0, x1: line.x1, y: line.y })
  }
  return placed
}

/** Each band between items that span the gutter is read left column then right (right first on RTL pages). */
const readColumns = (placed: ReadonlyArray<Placed>, gutter: number, rtlPage: boolean): Array<Placed> => {
  const ordered: Array<Placed> = []
  let left: Array<Placed> = []
  let right: Array<Placed> = []
  const flush = () => {
    ordered.push(...(rtlPage ? [...right, ...left] : [...left, ...right]))
    left = []
    right = []
  }
  for (const p of placed) {
    if (p.x1 <= gutter + 1) left.push(p)
    else if (p.x0 >= gutter - 1) right.push(p)
    else {
      flush()
      ordered.push(p)
    }
  }
  flush()
  return ordered
}

/**
 * Rebuilds the reading order of one page: tables kept whole, columns read one after the other
 * between lines that span the gutter, figures placed before the first text below them.
 */
export const orderPage = (page: PageText): OrderedPage => {
  const grouped = groupRows(page.items)
  const grids = findGrids(grouped, page.width)
  const placed = placeRows(grouped.map(segmentRow), grids)
  const lines = placed.flatMap((p) => p.item._tag === "Line" ? [p.item.line] : [])
  const gutter = findGutter(lines, page.width)
  const ordered = gutter === undefined ?
    placed :
    readColumns(placed, gutter, lines.filter((line) => line.rtl).length > lines.length / 2)
  const items: Array<PageItem> = ordered.map((p) => p.item)
  for (const figure of page.figures) {
    const index = ordered.findIndex((p) => p.y > figure.y1 && overlaps(p.x0, p.x1, figure.x0, figure.x1))
    const item: PageItem = { _tag: "Figure", placed: figure }
    if (index < 0) items.push(item)
    else items.splice(items.indexOf(ordered[index]!.item), 0, item)
  }
  return { page: page.page, height: page.height, items }
}
