/**
 * Tables found by their columns: baselines whose pieces stand in bands no piece crosses, as in HTML
 * printed by a browser, whose cells are centred vertically and so sit on different baselines.
 */
import type { Band, Piece } from "./gridRows.js"
import { bandOf, headed, isBold, mergeHeaderBands, tableRows } from "./gridRows.js"
import { isMono, markerOnly } from "./lines.js"
import type { Row } from "./lines.js"
import type { Mark } from "./model.js"

/**
 * In font sizes: runs of a baseline farther apart are separate cells; a table's baselines are at most
 * `maxRowGap` apart (a paragraph gap is more), a header at most `maxHeaderGap` above its first row.
 */
const pieceGap = 0.8
const maxRowGap = 2.2
const maxHeaderGap = 3
/** A band wider than this share of the page is a column of running text, not a table column. */
const maxTextBand = 0.3
/** A band this share of the page wide or wider may be a column of running text (the layout's narrowest column). */
const minTextColumn = 0.18
/** Words hyphenated at a wide band's line ends, at least, in a column of running text beside a table's band. */
const minHyphenated = 3
const hyphenEnd = /\p{Ll}-$/u

/** A table found: the rows it spans (`start` to `end`, exclusive) and its cells' text. */
export interface Grid {
  readonly start: number
  readonly end: number
  readonly x0: number
  readonly x1: number
  readonly rows: Array<Array<string>>
  readonly marks: Array<Array<ReadonlyArray<Mark>>> | undefined
}

const piecesOf = (row: Row): Array<Piece> => {
  const pieces: Array<Piece> = []
  for (const item of row.items) {
    const last = pieces[pieces.length - 1]
    if (last !== undefined && item.x - last.x1 <= pieceGap * Math.max(item.size, row.size)) {
      last.items.push(item)
      pieces[pieces.length - 1] = { ...last, x1: Math.max(last.x1, item.x + item.width) }
    } else {
      pieces.push({ x0: item.x, x1: item.x + item.width, items: [item] })
    }
  }
  return pieces
}

/** The bands with a row's pieces added: overlapping extents merge into one band. */
const addToBands = (bands: ReadonlyArray<Band>, pieces: ReadonlyArray<Piece>): Array<Band> => {
  const all = [...bands.map((band) => ({ ...band })), ...pieces.map((piece) => ({ x0: piece.x0, x1: piece.x1 }))]
    .sort((a, b) => a.x0 - b.x0)
  const merged: Array<Band> = []
  for (const band of all) {
    const last = merged[merged.length - 1]
    if (last !== undefined && band.x0 < last.x1) last.x1 = Math.max(last.x1, band.x1)
    else merged.push(band)
  }
  return merged
}

/** A table, not a code listing, a list's hanging indent or two text columns cut into bands. */
const isTable = (rows: ReadonlyArray<Array<Piece>>, bands: ReadonlyArray<Band>, pageWidth: number): boolean => {
  if (bands.length < 2) return false
  const multi = rows.filter((pieces) => new Set(pieces.map((piece) => bandOf(bands, piece))).size >= 2).length
  if (multi < 2) return false
  const pieces = rows.flat()
  if (pieces.every((piece) => piece.items.every(isMono))) return false
  if (bands.filter((band) => band.x1 - band.x0 > maxTextBand * pageWidth).length >= 2) return false
  // Beside a wide band, a band a column's width that hyphenates words is running text too (a brochure's side column).
  const width = (band: Band) => band.x1 - band.x0
  if (
    bands.some((band) => width(band) > maxTextBand * pageWidth) &&
    bands.some((band, index) => width(band) >= minTextColumn * pageWidth && hyphenated(pieces, bands, index))
  ) {
    return false
  }
  return bands.every((_, index) => {
    const texts = pieces.filter((piece) => bandOf(bands, piece) === index).map((piece) =>
      piece.items.map((item) => item.text).join("").trim()
    )
    return texts.some((text) => /[\p{L}\p{N}]/u.test(text) && !markerOnly.test(text))
  })
}

/** Whether a band's pieces end a word hyphenated at the line's end often enough to be a column's running text. */
const hyphenated = (pieces: ReadonlyArray<Piece>, bands: ReadonlyArray<Band>, index: number): boolean =>
  pieces.filter((piece) =>
    bandOf(bands, piece) === index && hyphenEnd.test(piece.items.map((item) => item.text).join("").trim())
  ).length >= minHyphenated

/** A bold section number or part letter, then its bold title: a heading ("2 Gallery", "B Basics"), never a table's row. */
const sectionNumberOnly = /^(?:\d{1,2}(?:\.\d{1,2})*|[A-Z](?:\.\d{1,2})*)\.?$/
const numberedHeading = (row: Row, pieces: ReadonlyArray<Piece>): boolean =>
  pieces.length === 2 && row.items.every(isBold) &&
  sectionNumberOnly.test(pieces[0]!.items.map((item) => item.text).join("").trim())

const close = (a: Row, b: Row): boolean => Math.abs(b.y - a.y) <= maxRowGap * Math.max(a.size, b.size)

/** A bold header above a first row taller than it (short cells centred, wrapped cells higher up). */
const headerAbove = (header: Row, below: Row): boolean =>
  below.y - header.y <= maxHeaderGap * Math.max(header.size, below.size) && header.items.every(isBold) &&
  piecesOf(header).length >= 2

/** A row's pieces cut at the bands' gutters: cells one space apart are one piece until other rows show the columns. */
const fitToBands = (pieces: ReadonlyArray<Piece>, bands: ReadonlyArray<Band>): Array<Piece> =>
  pieces.flatMap((piece) => {
    const inBand = piece.items.map((item) =>
      bands.flatMap((band, index) => item.x < band.x1 && band.x0 < item.x + item.width ? [index] : [])
    )
    if (inBand.some((found) => found.length !== 1) || new Set(inBand.map((found) => found[0])).size < 2) return [piece]
    const cut: Array<Piece> = []
    piece.items.forEach((item, i) => {
      const last = cut[cut.length - 1]
      if (last !== undefined && inBand[i - 1]![0] === inBand[i]![0]) {
        last.items.push(item)
        cut[cut.length - 1] = { ...last, x1: Math.max(last.x1, item.x + item.width) }
      } else {
        cut.push({ x0: item.x, x1: item.x + item.width, items: [item] })
      }
    })
    return cut
  })

/**
 * Adds row `index` to the bands, cutting its pieces at their gutters if it must; undefined when it
 * would merge more than two bands (a line across the columns) or leave fewer than two.
 */
const extend = (bands: ReadonlyArray<Band>, pieces: Array<Array<Piece>>, index: number): Array<Band> | undefined => {
  const next = addToBands(bands, pieces[index]!)
  if (next.length >= bands.length) return next
  const fitted = fitToBands(pieces[index]!, bands)
  const refit = addToBands(bands, fitted)
  if (refit.length >= bands.length) {
    pieces[index] = fitted
    return refit
  }
  return next.length >= 2 && next.length === bands.length - 1 ? next : undefined
}

/** The run of rows around `first` (a row of two pieces or more) that keeps its bands apart. */
const growRun = (
  rows: ReadonlyArray<Row>,
  pieces: Array<Array<Piece>>,
  first: number,
  floor: number
): { start: number; end: number; bands: Array<Band> } => {
  let bands = addToBands([], pieces[first]!)
  let end = first + 1
  const below = (index: number) =>
    close(rows[index - 1]!, rows[index]!) || (index === first + 1 && headerAbove(rows[first]!, rows[index]!))
  while (end < rows.length && below(end)) {
    const next = extend(bands, pieces, end)
    if (next === undefined) break
    bands = next
    end++
  }
  let start = first
  while (start > floor && (close(rows[start - 1]!, rows[start]!) || headerAbove(rows[start - 1]!, rows[start]!))) {
    const next = extend(bands, pieces, start - 1)
    if (next === undefined) break
    bands = next
    start--
  }
  return { start, end, bands }
}

/** Finds the tables of a page's baselines (in order from the top). */
export const findGrids = (rows: ReadonlyArray<Row>, pageWidth: number): Array<Grid> => {
  const grids: Array<Grid> = []
  // Most pages have no bold row of two pieces, so no table to look for: nothing more is cut.
  if (!rows.some((row) => row.items.length >= 2 && row.items.every(isBold) && piecesOf(row).length >= 2)) return grids
  const pieces = rows.map(piecesOf)
  let floor = 0
  for (let i = 0; i < rows.length; i++) {
    // Runs grow from bold rows of two pieces only: growing from every baseline is quadratic.
    if (pieces[i]!.length < 2 || !rows[i]!.items.every(isBold)) continue
    const run = growRun(rows, pieces, i, floor)
    const first = run.start
    while (run.start < run.end && numberedHeading(rows[run.start]!, pieces[run.start]!)) run.start++
    if (run.end - run.start < 2) continue
    // The headings' pieces are not the table's: its columns are its own rows' alone.
    if (run.start > first) run.bands = pieces.slice(run.start, run.end).reduce(addToBands, [])
    if (!rows[run.start]!.items.every(isBold)) continue
    const runPieces = pieces.slice(run.start, run.end)
    if (!isTable(runPieces, run.bands, pageWidth)) continue
    const cells = mergeHeaderBands(tableRows(rows.slice(run.start, run.end), runPieces, run.bands))
    if (!headed(cells)) continue
    grids.push({
      start: run.start,
      end: run.end,
      x0: run.bands[0]!.x0,
      x1: run.bands[run.bands.length - 1]!.x1,
      rows: cells.map((row) => row.map((cell) => cell?.rich.text ?? "")),
      marks: cells.some((row) => row.some((cell) => (cell?.rich.marks.length ?? 0) > 0))
        ? cells.map((row) => row.map((cell) => cell?.rich.marks ?? []))
        : undefined
    })
    floor = run.end
    i = run.end - 1
  }
  return grids
}
