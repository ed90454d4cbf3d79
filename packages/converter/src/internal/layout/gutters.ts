/**
 * Narrow gutters: InDesign sets two justified columns less than an em apart, too close for a gap
 * to cut a line by itself; a gap is a gutter when gaps of other baselines cover it.
 */
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

interface Gap {
  readonly x0: number
  readonly x1: number
  readonly next: TextItem
  readonly before: number
  readonly after: number
}

/** The gaps of a row at least `minGutter` font sizes wide. */
const gapsOf = (row: Row): Array<Gap> => {
  const pieces: Array<{ x0: number; x1: number; first: TextItem }> = []
  for (const item of row.items) {
    const last = pieces[pieces.length - 1]
    if (last !== undefined && item.x - last.x1 < minGutter * Math.max(item.size, row.size)) {
      last.x1 = Math.max(last.x1, item.x + item.width)
    } else {
      pieces.push({ x0: item.x, x1: item.x + item.width, first: item })
    }
  }
  return pieces.slice(1).map((piece, i) => ({
    x0: pieces[i]!.x1,
    x1: piece.x0,
    next: piece.first,
    before: pieces[i]!.x1 - pieces[i]!.x0,
    after: piece.x1 - piece.x0
  }))
}

/** The runs before which a baseline is cut at a narrow gutter (narrower than `maxGap` font sizes). */
export const gutterCuts = (rows: ReadonlyArray<Row>, maxGap: number, pageWidth: number): Set<TextItem> => {
  const cuts = new Set<TextItem>()
  const gaps = rows.map(gapsOf)
  gaps.forEach((own, r) => {
    for (const gap of own) {
      if (gap.x1 - gap.x0 >= maxGap * Math.max(gap.next.size, rows[r]!.size)) continue
      if (gap.before < minSide * pageWidth || gap.after < minSide * pageWidth) continue
      // Dot leaders after a contents entry's title go on with it.
      if (/^[.·…]/.test(gap.next.text)) continue
      let support = 0
      for (let o = 0; o < gaps.length && support < minSupport; o++) {
        if (o === r) continue
        const covers = (other: Gap) =>
          other.x0 <= gap.x0 + tolerance && other.x1 >= gap.x1 - tolerance &&
          other.x1 - other.x0 < maxCover * maxGap * Math.max(other.next.size, rows[o]!.size)
        if (gaps[o]!.some(covers)) support++
      }
      if (support >= minSupport) cuts.add(gap.next)
    }
  })
  return cuts
}
