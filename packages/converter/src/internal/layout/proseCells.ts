/**
 * Lines of a page's running text on the baselines of a table or figure in the other column: found
 * by their extent, which lines standing alone on other baselines share, and kept out of its cells.
 */
import type { Line } from "./model.js"

/** A line this share of the page wide, or wider, may be a column's line of running text. */
const proseLine = 0.2
/** Points two ends may differ by and still be one column's edges (justified text). */
const edge = 1
/** Baselines with a line of one extent and nothing else: a column of running text. */
const minColumnRows = 3

export interface Extent {
  readonly x0: number
  readonly x1: number
}

/** A line of running text: wide enough, and not in the code face (a listing's lines share their extent too). */
const isProse = (line: Line, pageWidth: number): boolean =>
  line.charWidth === undefined && line.x1 - line.x0 >= proseLine * pageWidth

const same = (line: Line, extent: Extent): boolean =>
  Math.abs(line.x0 - extent.x0) <= edge && Math.abs(line.x1 - extent.x1) <= edge

/** The extents of full lines that stand alone on `minColumnRows` baselines or more. */
export const columnExtents = (rows: ReadonlyArray<ReadonlyArray<Line>>, pageWidth: number): Array<Extent> => {
  const extents: Array<Extent & { count: number }> = []
  for (const row of rows) {
    const line = row[0]
    if (row.length !== 1 || line === undefined || !isProse(line, pageWidth)) continue
    const known = extents.find((extent) => same(line, extent))
    if (known !== undefined) known.count++
    else extents.push({ x0: line.x0, x1: line.x1, count: 1 })
  }
  return extents.filter((extent) => extent.count >= minColumnRows)
}

/** A share of a column's width: a line this long within it is the column's running text (a paragraph's last line). */
const minShare = 0.5

/**
 * A row's cells without the other column's running text: the lines within a column's extent, one of
 * them of that extent or half its width at least, when no other line of the row reaches into it.
 */
export const withoutProse = (
  row: ReadonlyArray<Line>,
  extents: ReadonlyArray<Extent>
): { readonly cells: ReadonlyArray<Line>; readonly prose: ReadonlyArray<Line> } => {
  if (row.length < 2) return { cells: row, prose: [] }
  for (const extent of extents) {
    const prose = row.filter((line) => line.x0 >= extent.x0 - edge && line.x1 <= extent.x1 + edge)
    const code = prose.some((line) => line.charWidth !== undefined)
    if (prose.length === 0 || prose.length === row.length || code) continue
    const outside = row.every((line) =>
      prose.includes(line) || line.x1 <= extent.x0 + edge || line.x0 >= extent.x1 - edge
    )
    const text = prose.some((line) => same(line, extent) || line.x1 - line.x0 >= minShare * (extent.x1 - extent.x0))
    if (outside && text) return { cells: row.filter((line) => !prose.includes(line)), prose }
  }
  return { cells: row, prose: [] }
}
