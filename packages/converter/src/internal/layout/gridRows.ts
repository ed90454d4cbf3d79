/** A table's rows rebuilt from its bands: cells whose vertical extents overlap, wrapped lines closer than rows. */
import type { Rich } from "./inline.js"
import { joinRich, richLine } from "./inline.js"
import type { Row } from "./lines.js"
import { isMono, makeLine } from "./lines.js"
import type { TextItem } from "./model.js"
import { Style } from "./model.js"

/** Items of one baseline that stand together, and their horizontal extent. */
export interface Piece {
  readonly x0: number
  readonly x1: number
  readonly items: Array<TextItem>
}

/** An x-range that pieces of the run stand in and none crosses: a column. */
export interface Band {
  x0: number
  x1: number
}

export const isBold = (item: TextItem): boolean => (item.style & Style.strong) !== 0

export const bandOf = (bands: ReadonlyArray<Band>, piece: Piece): number =>
  bands.findIndex((band) => piece.x0 < band.x1 && band.x0 < piece.x1)

/**
 * Whether the rows start with a browser's `<th>` header (two bold or code cells or more, rows below):
 * without one, bands are as likely a definition list or commented code, and stay text.
 */
export const headed = (rows: ReadonlyArray<ReadonlyArray<Cell | undefined>>): boolean => {
  const header = rows[0]!.filter((cell) => cell !== undefined)
  return rows.length >= 2 && header.length >= 2 && header.every((cell) => cell.bold || cell.code) &&
    header.some((cell) => cell.bold)
}

/** A header centred over narrower cells stands in a band of its own beside theirs: the two are one column. */
export const mergeHeaderBands = (rows: Array<Array<Cell | undefined>>): Array<Array<Cell | undefined>> => {
  let out = rows
  const filled = (column: number) => out.slice(1).some((row) => row[column] !== undefined)
  for (let j = 0; j < out[0]!.length; j++) {
    if (out[0]![j] === undefined || filled(j)) continue
    const into = [j - 1, j + 1].find((k) => k >= 0 && k < out[0]!.length && out[0]![k] === undefined && filled(k))
    if (into === undefined) continue
    out = out.map((row, r) => {
      const copy = [...row]
      if (r === 0) copy[into] = copy[j]
      copy.splice(j, 1)
      return copy
    })
    j--
  }
  return out
}

interface CellLine {
  readonly y: number
  readonly rich: Rich
  readonly bold: boolean
  readonly code: boolean
}

/** A cell: a band's consecutive lines closer than the rows are. */
export interface Cell {
  readonly band: number
  readonly top: number
  readonly bottom: number
  readonly rich: Rich
  readonly bold: boolean
  readonly code: boolean
}

/**
 * The distance below which two lines of a band are one wrapped cell: a little over the leading, when
 * some lines stand farther apart than that but less than two leadings (a row's padding); else none.
 */
const wrapLimit = (columns: ReadonlyArray<ReadonlyArray<CellLine>>): number => {
  const distances = columns.flatMap((lines) => lines.slice(1).map((line, i) => line.y - lines[i]!.y))
  if (distances.length === 0) return 0
  const low = Math.min(...distances)
  return distances.some((dy) => dy > low * 1.1 && dy < low * 1.9) ? low * 1.1 : 0
}

const cellsOf = (lines: ReadonlyArray<CellLine>, band: number, limit: number): Array<Cell> => {
  const cells: Array<Cell> = []
  let open: { top: number; bottom: number; rich: Rich; bold: boolean; code: boolean } | undefined
  for (const line of lines) {
    if (open !== undefined && line.y - open.bottom <= limit) {
      open.bottom = line.y
      open.rich = joinRich(open.rich, line.rich)
      open.bold &&= line.bold
      open.code &&= line.code
      continue
    }
    if (open !== undefined) cells.push({ band, ...open })
    open = { top: line.y, bottom: line.y, rich: line.rich, bold: line.bold, code: line.code }
  }
  if (open !== undefined) cells.push({ band, ...open })
  return cells
}

/** The table's rows: cells grouped by overlapping vertical extents, one string per band. */
export const tableRows = (
  rows: ReadonlyArray<Row>,
  pieces: ReadonlyArray<Array<Piece>>,
  bands: ReadonlyArray<Band>
): Array<Array<Cell | undefined>> => {
  const columns: Array<Array<CellLine>> = bands.map(() => [])
  rows.forEach((row, r) => {
    const byBand = new Map<number, Array<TextItem>>()
    for (const piece of pieces[r]!) {
      const band = bandOf(bands, piece)
      byBand.set(band, [...(byBand.get(band) ?? []), ...piece.items])
    }
    for (const [band, items] of byBand) {
      columns[band]!.push({
        y: row.y,
        rich: richLine(makeLine(items)),
        bold: items.every(isBold),
        code: items.every(isMono)
      })
    }
  })
  const limit = wrapLimit(columns)
  const cells = columns.flatMap((lines, band) => cellsOf(lines, band, limit)).sort((a, b) => a.top - b.top)
  const out: Array<Array<Cell | undefined>> = []
  const size = rows[0]!.size
  let bottom = -Infinity
  for (const cell of cells) {
    if (out.length === 0 || cell.top > bottom + 0.25 * size) {
      out.push(bands.map(() => undefined))
      bottom = cell.bottom
    }
    bottom = Math.max(bottom, cell.bottom)
    const row = out[out.length - 1]!
    const before = row[cell.band]
    row[cell.band] = before === undefined
      ? cell
      : {
        ...before,
        bottom: cell.bottom,
        rich: joinRich(before.rich, cell.rich),
        bold: before.bold && cell.bold,
        code: before.code && cell.code
      }
  }
  return out
}
