/**
 * Narrow gutters: InDesign sets two justified columns less than an em apart, too close for a gap
 * to cut a line by itself; a gap is a gutter when gaps of other baselines cover it.
 */
import { isMono } from "./codeFace.js"
import type { Row } from "./lines.js"
import type { TextItem } from "./model.js"

/** Font sizes: a word space is narrower. */
const minGutter = 0.6
const minSupport = 3
/** Points a covering gap may fall short of the gap it covers at either end. */
const tolerance = 1
/** A covering gap is at most this many times `maxGap`: justified text reaches the gutter. */
const maxCover = 2
/** Share of the page's width on either side: columns, not cells or a marker. */
const minSide = 0.18
/** Font sizes a gap may span when it starts at a column's justified edge (a figure or listing beside it). */
const maxEdgeCover = 6

interface Gap {
  readonly x0: number
  readonly x1: number
  readonly last: TextItem
  readonly next: TextItem
  readonly before: number
  readonly after: number
}

interface Piece {
  readonly x0: number
  readonly x1: number
  readonly first: TextItem
  readonly last: TextItem
}

/** A row's runs joined across gaps narrower than `gap` font sizes. */
const piecesOf = (row: Row, gap: number): Array<Piece> => {
  const pieces: Array<{ x0: number; x1: number; first: TextItem; last: TextItem }> = []
  for (const item of row.items) {
    const last = pieces[pieces.length - 1]
    if (last !== undefined && item.x - last.x1 < gap * Math.max(item.size, row.size)) {
      last.x1 = Math.max(last.x1, item.x + item.width)
      last.last = item
    } else {
      pieces.push({ x0: item.x, x1: item.x + item.width, first: item, last: item })
    }
  }
  return pieces
}

/** The gaps between a row's pieces, with the width of the line (cut at `lines`) on either side. */
const gapsOf = (pieces: ReadonlyArray<Piece>, lines: ReadonlyArray<Piece>): Array<Gap> =>
  pieces.slice(1).map((piece, i) => {
    const x0 = pieces[i]!.x1
    const line = lines.find((candidate) => candidate.x0 <= x0 && candidate.x1 >= piece.x0)
    return {
      x0,
      x1: piece.x0,
      last: pieces[i]!.last,
      next: piece.first,
      before: x0 - (line?.x0 ?? pieces[i]!.x0),
      after: (line?.x1 ?? piece.x1) - piece.x0
    }
  })

/** The runs before which a baseline is cut at a narrow gutter (narrower than `maxGap` font sizes). */
export const gutterCuts = (rows: ReadonlyArray<Row>, maxGap: number, pageWidth: number): Set<TextItem> => {
  const cuts = new Set<TextItem>()
  const lines = rows.map((row) => piecesOf(row, maxGap))
  const gaps = rows.map((row, r) => gapsOf(piecesOf(row, minGutter), lines[r]!))
  const wide = lines.map((own) => own.filter((line) => line.x1 - line.x0 >= minSide * pageWidth))
  // Rows other than `r` with a column's worth of text ending (starting) at `x`: a justified column's edge.
  const edgeRows = (r: number, x: number, end: boolean): number =>
    wide.filter((own, o) => o !== r && own.some((piece) => Math.abs((end ? piece.x1 : piece.x0) - x) <= tolerance))
      .length
  gaps.forEach((own, r) => {
    for (const gap of own) {
      if (gap.x1 - gap.x0 >= maxGap * Math.max(gap.next.size, rows[r]!.size)) continue
      // Dot leaders after a contents entry's title go on with it; a listing's spaces are no gutter.
      if (/^[.·…]/.test(gap.next.text) || isMono(gap.last) && isMono(gap.next)) continue
      // The edge of a left-to-right column of running text: a term beside its description, in the code
      // face or beside right-to-left lines (whose justified right edge is their start), is a table's column.
      const prose = !isMono(gap.last) && !isMono(gap.next) && !gap.last.rtl && !gap.next.rtl
      // A short line is cut only at a column's justified edge (a credit set flush right in its column).
      const short = gap.before < minSide * pageWidth
      if (short && !prose) continue
      const wideAfter = !short && gap.after >= minSide * pageWidth
      let support = 0
      for (let o = 0; o < gaps.length && support < minSupport; o++) {
        if (o === r) continue
        const covers = (other: Gap) => {
          const size = Math.max(other.next.size, rows[o]!.size)
          return other.x0 <= gap.x0 + tolerance && other.x1 >= gap.x1 - tolerance &&
            (wideAfter && other.x1 - other.x0 < maxCover * maxGap * size ||
              prose && atEdge(gap, other, pageWidth, size))
        }
        if (gaps[o]!.some(covers)) support++
      }
      const edges = prose && !short && support < minSupport && edgeRows(r, gap.x0, true) >= minSupport &&
        edgeRows(r, gap.x1, false) >= minSupport
      if (support >= minSupport || edges) cuts.add(gap.next)
    }
  })
  return cuts
}

/**
 * Whether `other` starts where `gap` does, after a column's worth of text: both at the justified right
 * edge of a column, whatever stands beyond it (a line number, a figure's labels, a short last line).
 */
const atEdge = (gap: Gap, other: Gap, pageWidth: number, size: number): boolean =>
  Math.abs(other.x0 - gap.x0) <= tolerance && other.before >= minSide * pageWidth &&
  other.x1 - other.x0 < maxEdgeCover * size
