/** Reading order of one page: tables kept whole, columns read one after the other (`columns`), figures placed. */
import { cardColumns } from "./cardColumns.js"
import type { Placed } from "./columns.js"
import { orderRegion } from "./columns.js"
import { endsInContents, takeContents } from "./contents.js"
import { withDropCaps } from "./dropCaps.js"
import { noteMarks, separatorRules } from "./footnotes.js"
import type { Grid } from "./grid.js"
import { findGrids } from "./grid.js"
import { gutterCuts } from "./gutters.js"
import type { Row } from "./lines.js"
import { groupRows, monoPitches, segmentGap, segmentRow } from "./lines.js"
import { dropListingMarks } from "./listingMarks.js"
import { findMargin, placeMarginNotes } from "./margins.js"
import type { Line, OrderedPage, PageItem, PageText } from "./model.js"
import { columnExtents, withoutProse } from "./proseCells.js"
import { takeRuledTables } from "./ruledTables.js"
import { sideBar } from "./sideBars.js"
import type { SideBoxes } from "./sideBoxes.js"
import { inBox, sideBoxes } from "./sideBoxes.js"
import { joinStrays } from "./strays.js"
import { tabStopCuts } from "./tabStops.js"
import { takeTabulations } from "./tabulations.js"

const overlaps = (a0: number, a1: number, b0: number, b1: number): boolean => a0 < b1 && b0 < a1

/** A cell this share of the page wide, or wider, on most rows of a column is a column of running text. */
const proseCell = 0.2

/** A cell that ends this share of the page short of its column's right edge does not fill it. */
const fillSlack = 0.03

/** Whether a run's cells are columns of prose: two or more of wide cells filling them (a table's are ragged). */
const proseColumns = (rows: ReadonlyArray<ReadonlyArray<Line>>, pageWidth: number): boolean => {
  const columns = rows[0]!.length
  let wide = 0
  for (let c = 0; c < columns; c++) {
    const right = Math.max(...rows.map((row) => row[c]!.x1))
    const cells = rows.filter((row) =>
      row[c]!.x1 - row[c]!.x0 >= proseCell * pageWidth && row[c]!.x1 >= right - fillSlack * pageWidth
    ).length
    if (cells * 2 > rows.length) {
      wide++
    }
  }
  return wide >= 2
}

/** Runs of two or more baselines cut into the same number (>= 3) of aligned cells, not columns of prose. */
const findTables = (
  rows: ReadonlyArray<ReadonlyArray<Line>>,
  pageWidth: number
): Array<readonly [start: number, end: number]> => {
  const runs: Array<readonly [number, number]> = []
  let start = -1
  const aligned = (a: ReadonlyArray<Line>, b: ReadonlyArray<Line>): boolean =>
    a.length === b.length && a.every((cell, i) => overlaps(cell.x0, cell.x1 + 1, b[i]!.x0, b[i]!.x1 + 1))
  for (let i = 0; i <= rows.length; i++) {
    const row = rows[i]
    const continues = row !== undefined && row.length >= 3 && start >= 0 && aligned(rows[i - 1]!, row)
    if (continues) continue
    if (start >= 0 && i - start >= 2 && !proseColumns(rows.slice(start, i), pageWidth)) runs.push([start, i])
    start = row !== undefined && row.length >= 3 ? i : -1
  }
  return runs
}

/** The page's rows as lines, with the grids and the runs `findTables` finds turned into tables. */
const placeRows = (
  rows: ReadonlyArray<ReadonlyArray<Line>>,
  grids: ReadonlyArray<Grid>,
  pageWidth: number
): Array<Placed> => {
  // A table's cells are found without the other column's running text on their baselines.
  const extents = columnExtents(rows, pageWidth)
  const split = rows.map((row) => withoutProse(row, extents))
  const tables = findTables(split.map((row) => row.cells), pageWidth).filter(([start, end]) =>
    !grids.some((grid) => start < grid.end && grid.start < end)
  )
  const placed: Array<Placed> = []
  let t = 0
  let g = 0
  for (let i = 0; i < rows.length; i++) {
    const grid = grids[g]
    if (grid !== undefined && i === grid.start) {
      const y = rows[i]![0]!.y
      const marks = grid.marks !== undefined ? { marks: grid.marks } : {}
      placed.push({ item: { _tag: "Table", rows: grid.rows, ...marks, y }, x0: grid.x0, x1: grid.x1, y, size: 0 })
      i = grid.end - 1
      g++
      continue
    }
    const table = tables[t]
    if (table !== undefined && i === table[0]) {
      const tableRows = split.slice(table[0], table[1]).map((row) => row.cells)
      const cells = tableRows.flat()
      placed.push({
        item: {
          _tag: "Table",
          rows: tableRows.map((row) => row.map((cell) => cell.text)),
          ...noteMarks(tableRows),
          y: tableRows[0]![0]!.y
        },
        x0: Math.min(...cells.map((cell) => cell.x0)),
        x1: Math.max(...cells.map((cell) => cell.x1)),
        y: tableRows[0]![0]!.y,
        size: 0
      })
      for (const line of split.slice(table[0], table[1]).flatMap((row) => row.prose)) {
        placed.push({ item: { _tag: "Line", line }, x0: line.x0, x1: line.x1, y: line.y, size: line.size })
      }
      i = table[1] - 1
      t++
      continue
    }
    for (const line of rows[i]!) {
      placed.push({ item: { _tag: "Line", line }, x0: line.x0, x1: line.x1, y: line.y, size: line.size })
    }
  }
  return placed
}

const wholeInGrid = (rows: ReadonlyArray<Row>, grids: ReadonlyArray<Grid>) => (y0: number, y1: number) => {
  const inside = rows.flatMap((row, i) => row.y > y0 && row.y < y1 ? [i] : [])
  return grids.some((grid) => inside.every((i) => i >= grid.start && i < grid.end))
}

/** The lines and tables of a page (or of a box of it) in reading order. */
const readOrder = (page: PageText): Array<Placed> => {
  // A contents page's entries are a list, never a table's rows.
  const contents = takeContents(
    joinStrays(groupRows(withDropCaps(dropListingMarks(page.items)))),
    page.contentsGoesOn === true
  )
  const all = contents.rows
  // Tables found by their columns keep their form, unless ruled around every cell and found only in pieces; rules find the others.
  const found = findGrids(all, page.width)
  const framed = takeRuledTables(all, page.rules ?? [], page.width, wholeInGrid(all, found), true)
  const grouped = framed.length > 0 ? all.filter((row) => row.items.length > 0) : all
  const grids = framed.length > 0 ? findGrids(grouped, page.width) : found
  const inGrid = (y0: number, y1: number) =>
    grids.some((grid) => grouped[grid.start]!.y <= y1 && grouped[grid.end - 1]!.y >= y0)
  const ruled = [...framed, ...takeRuledTables(grouped, page.rules ?? [], page.width, inGrid)]
  const margin = findMargin(grouped, page.width)
  const cuts = new Set([
    ...gutterCuts(grouped, segmentGap, page.width),
    ...(margin?.cuts ?? []),
    ...tabStopCuts(grouped)
  ])
  const pitches = monoPitches(grouped)
  const placed = placeRows(grouped.map((row) => segmentRow(row, cuts, pitches)), grids, page.width)
  placed.push(...contents.placed)
  if (ruled.length > 0 || contents.placed.length > 0) {
    for (const table of ruled) {
      const rows = table.cells.map((row) => row.map((cell) => cell.text))
      const marks = table.cells.some((row) => row.some((cell) => cell.marks.length > 0))
        ? { marks: table.cells.map((row) => row.map((cell) => cell.marks)) }
        : {}
      const item: PageItem = { _tag: "Table", rows, ...marks, y: table.y0 }
      placed.push({ item, x0: table.x0, x1: table.x1, y: table.y0, size: 0 })
    }
    placed.sort((a, b) => a.y - b.y || a.x0 - b.x0)
  }
  const lines = placed.flatMap((p) => p.item._tag === "Line" ? [p.item.line] : [])
  const read = orderRegion(placed, lines.filter((line) => line.rtl).length > lines.length / 2, page.width)
  return margin === undefined ? read : placeMarginNotes(read, margin)
}

/** The page read around its frames of boxes side by side: each box read alone, in the frame's place. */
const readAround = (page: PageText, frames: ReadonlyArray<SideBoxes>): Array<Placed> => {
  const parts = frames.flatMap((frame) => frame.parts)
  const rules = page.rules ?? []
  const ordered = [
    ...readOrder({ ...page, items: page.items.filter((item) => !parts.some((part) => inBox(item, part))) })
  ]
  for (const frame of frames) {
    const read = frame.parts.flatMap((part) =>
      readOrder({
        ...page,
        items: page.items.filter((item) => inBox(item, part)),
        rules: rules.filter((rule) =>
          rule.y0 > part.y0 + 1 && rule.y1 < part.y1 - 1 && rule.x0 >= part.x0 && rule.x1 <= part.x1
        )
      })
    )
    const index = ordered.findIndex((p) => p.y > frame.y0 && overlaps(p.x0, p.x1, frame.x0, frame.x1))
    ordered.splice(index < 0 ? ordered.length : index, 0, ...read)
  }
  return ordered
}

/** Rebuilds the reading order of one page (see the module's header); figures go before the first text below them. */
export const orderPage = (page: PageText): OrderedPage => {
  // A side bar is read apart, after the body: joined on its baselines it cuts the body's lines.
  const bar = sideBar(page.items, page.width)
  const body = bar === undefined ? page : { ...page, items: page.items.filter((item) => !bar.has(item)) }
  const boxes = sideBoxes(body.items, body.rules ?? [])
  const frames = boxes.length > 0 ? boxes : cardColumns(body.items, body.width)
  const barRead = bar === undefined ? [] : readOrder({ ...page, items: [...bar], rules: [] })
  const ordered = takeTabulations([...(frames.length === 0 ? readOrder(body) : readAround(body, frames)), ...barRead])
  const barLines = barRead.flatMap((p) => p.item._tag === "Line" ? [p.item.line] : [])
  const items: Array<PageItem> = ordered.map((p) => p.item)
  for (const figure of page.figures) {
    const index = ordered.findIndex((p) => p.y > figure.y1 && overlaps(p.x0, p.x1, figure.x0, figure.x1))
    const item: PageItem = { _tag: "Figure", placed: figure }
    if (index < 0) items.push(item)
    else items.splice(items.indexOf(ordered[index]!.item), 0, item)
  }
  return {
    page: page.page,
    height: page.height,
    items,
    separators: separatorRules(page.rules ?? [], page.width),
    ...(page.panels !== undefined && page.panels.length > 0 ? { panels: page.panels } : {}),
    ...(barLines.length > 0 ? { bar: barLines } : {}),
    ...(endsInContents(items, page.height) ? { contentsOpen: true } : {})
  }
}
