/**
 * Columns, per region of a page: a gutter (almost) no line crosses splits a region into sides, each
 * searched again; lines spanning it (titles, captions) cut the region into bands read in place.
 */
import { gutterSpans } from "./gutterSpans.js"
import type { PageItem } from "./model.js"

/** A line or a table with the horizontal extent and the baseline that order it. */
export interface Placed {
  readonly item: PageItem
  readonly x0: number
  readonly x1: number
  readonly y: number
  /** Font size (a table's: 0), which sets the tolerances. */
  readonly size: number
}

const maxDepth = 5
/** A side of a gutter holds at least this many lines, and this share of the region's. */
const minSideLines = 3
const minSideShare = 0.15
/** A column is at least this share of the page wide: narrower "columns" are a table's, or terms beside definitions. */
const minColumnWidth = 0.18
/** A quarter of a column's lines (and 3), at least, are this share of its width or wider: running text fills its column. */
const fullLine = 0.6
const fullLinesShare = 0.25
/** Of a side read as a column by its text, the share in full lines or in a smaller size. */
const smallerShare = 0.75
/** Lines crossing a gutter at most, as a share of the smaller side (titles and figures spanning columns). */
const maxCrossingShare = 0.5
/** A line that reaches this share of a side's width into it, on both sides, spans the gutter. */
const spanShare = 0.25
/** A horizontal gap this many line heights tall may separate bands of different columns. */
const bandGap = 1.5

const extent = (items: ReadonlyArray<Placed>): { x0: number; x1: number } => {
  let x0 = Infinity
  let x1 = -Infinity
  for (const p of items) {
    x0 = Math.min(x0, p.x0)
    x1 = Math.max(x1, p.x1)
  }
  return { x0, x1 }
}

/**
 * Whether the items of one side of a gutter read as a column of running text; `byText`, also when its
 * full lines hold a share of its text and the rest is set smaller (a figure's labels, a listing beside them).
 */
const isColumn = (side: ReadonlyArray<Placed>, pageWidth: number, byText = false): boolean => {
  const { x0, x1 } = extent(side)
  const width = x1 - x0
  if (width < minColumnWidth * pageWidth) return false
  const full = side.filter((p) => p.x1 - p.x0 >= fullLine * width)
  if (full.length < minSideLines) return false
  if (full.length >= fullLinesShare * side.length) return true
  if (!byText) return false
  const body = Math.max(...full.map((p) => p.size))
  let fullText = 0
  let smaller = 0
  let text = 0
  for (const p of side) {
    const length = textLength(p)
    text += length
    if (full.includes(p)) fullText += length
    else if (p.size < body - 0.5) smaller += length
  }
  return fullText >= fullLinesShare * text && fullText + smaller >= smallerShare * text
}

const textLength = (p: Placed): number =>
  p.item._tag === "Line"
    ? p.item.line.text.length
    : p.item._tag === "Table"
    ? p.item.rows.reduce((sum, row) => sum + row.reduce((cells, cell) => cells + cell.length, 0), 0)
    : 0

const sameBaseline = (p: Placed, q: Placed): boolean => Math.abs(q.y - p.y) < 0.5 * Math.max(p.size, q.size, 1)

/** A region's last baseline set this many line heights apart is a page's foot line (journal, copyright, folio side by side). */
const footGap = 1.5
const footLine = (items: ReadonlyArray<Placed>): ReadonlySet<Placed> => {
  const last = items.reduce<Placed | undefined>((a, p) => a === undefined || p.y > a.y ? p : a, undefined)
  if (last === undefined) return new Set()
  const foot = items.filter((p) => sameBaseline(p, last))
  const above = items.filter((p) => !foot.includes(p)).reduce((y, p) => Math.max(y, p.y), -Infinity)
  const size = Math.max(...foot.map((p) => p.size), 1)
  return last.y - above > (1 + footGap) * size ? new Set(foot) : new Set()
}

/** Whether the items crossing `x` stand alone on their baselines, as a title across columns does, or are the foot line. */
const crossersStandAlone = (items: ReadonlyArray<Placed>, x: number): boolean => {
  const foot = footLine(items)
  return items.every((p) =>
    p.x1 <= x + 1 || p.x0 >= x - 1 || foot.has(p) ||
    !items.some((q) => q !== p && sameBaseline(p, q))
  )
}

/** An index entry: a term, then the pages or sections it is found on ("printf: 4, 5, 6, 7."). */
const entryEnd = /\d[.,;]?$/u
/**
 * `/\p{L}.*\d[.,;]?$/u` without its backtracking (quadratic on a long line of letters, as CJK
 * lines are): a letter on the line of the final number, before it.
 */
const isIndexEntry = (text: string): boolean => {
  const end = entryEnd.exec(text)?.index
  if (end === undefined) return false
  const before = text.slice(0, end)
  return /\p{L}/u.test(before.slice(before.search(/[\n\r\u2028\u2029][^\n\r\u2028\u2029]*$/u) + 1))
}
const minIndexShare = 0.8

const isIndexColumn = (side: ReadonlyArray<Placed>, minSide: number): boolean =>
  side.length >= minSide && side.every((p) => p.item._tag === "Line") &&
  side.filter((p) => p.item._tag === "Line" && isIndexEntry(p.item.line.text)).length >= minIndexShare * side.length

/** A gutter of a region: an x no more than a few of its items cross, with a column on either side. */
export const findGutter = (items: ReadonlyArray<Placed>, pageWidth: number): number | undefined => {
  if (items.length < 2 * minSideLines + 2) return undefined
  const { x0, x1 } = extent(items)
  const minSide = Math.max(minSideLines, items.length * minSideShare)
  let best: number | undefined
  let bestCrossing = Infinity
  const middle = (x0 + x1) / 2
  // Candidate gutters: just right of an item's right end, with room for a column on either side.
  const margin = minColumnWidth * pageWidth
  const candidates = new Set<number>()
  for (const p of items) {
    const x = Math.round((p.x1 + 2) / 2) * 2
    if (x > x0 + margin && x < x1 - margin) candidates.add(x)
  }
  // More crossings than this and no side can pass (the smaller side holds half the items at most).
  const maxCrossing = items.length * maxCrossingShare / 2
  for (const x of candidates) {
    let crossing = 0
    let left = 0
    let right = 0
    for (const p of items) {
      if (p.x1 <= x + 1) left++
      else if (p.x0 >= x - 1) right++
      else if (++crossing > maxCrossing) break
    }
    if (left < minSide || right < minSide || crossing > Math.min(left, right) * maxCrossingShare) continue
    const better = crossing < bestCrossing ||
      (crossing === bestCrossing && best !== undefined && Math.abs(x - middle) < Math.abs(best - middle))
    if (better && (crossing === 0 || crossersStandAlone(items, x))) {
      best = x
      bestCrossing = crossing
    }
  }
  if (best === undefined) return undefined
  const gutter = best
  const leftSide = items.filter((p) => p.x1 <= gutter + 1)
  const rightSide = items.filter((p) => p.x0 >= gutter - 1)
  // A side may hold columns of its own (the first gutter of three columns).
  const columns = (side: ReadonlyArray<Placed>) =>
    isColumn(side, pageWidth) || findGutter(side, pageWidth) !== undefined
  // A side read as a column by its text only stands beside one that is a column by its lines.
  const left = columns(leftSide)
  const right = columns(rightSide)
  const byText = (left && isColumn(rightSide, pageWidth, true)) || (right && isColumn(leftSide, pageWidth, true))
  return (left && right) || byText ? gutter : undefined
}

/** Items split at a gutter: each band between spanning items read left then right (right first on RTL pages). */
const readColumns = (
  items: ReadonlyArray<Placed>,
  gutter: number,
  rtl: boolean,
  pageWidth: number,
  depth: number
): Array<Placed> => {
  const leftExtent = extent(items.filter((p) => p.x1 <= gutter + 1))
  const rightExtent = extent(items.filter((p) => p.x0 >= gutter - 1))
  const ordered: Array<Placed> = []
  let left: Array<Placed> = []
  let right: Array<Placed> = []
  const flush = () => {
    const a = orderRegion(left, rtl, pageWidth, depth + 1)
    const b = orderRegion(right, rtl, pageWidth, depth + 1)
    ordered.push(...(rtl ? [...b, ...a] : [...a, ...b]))
    left = []
    right = []
  }
  const spanning = gutterSpans(items, gutter)
  items.forEach((p, i) => {
    if (spanning.has(i)) {
      flush()
      ordered.push(p)
    } else if (p.x1 <= gutter + 1) left.push(p)
    else if (p.x0 >= gutter - 1) right.push(p)
    else {
      const intoLeft = gutter - p.x0
      const intoRight = p.x1 - gutter
      // Before either column starts (a date centred under a title), a line across the gutter is read in place too.
      const first = left.length === 0 && right.length === 0 && Math.min(intoLeft, intoRight) >= p.size
      const spans = first || intoLeft >= spanShare * (gutter - leftExtent.x0) &&
          intoRight >= spanShare * (rightExtent.x1 - gutter)
      if (spans) {
        flush()
        ordered.push(p)
      } else if (intoLeft >= intoRight) left.push(p)
      else right.push(p)
    }
  })
  flush()
  return ordered
}

/**
 * The gutter of `band` when the band across a gap from it lies wholly on one side of that gutter, with
 * no gutter of its own: the rest of one column (a paper's appendix under its references), not a new band.
 */
const continuedGutter = (
  band: ReadonlyArray<Placed>,
  other: ReadonlyArray<Placed>,
  pageWidth: number
): number | undefined => {
  const gutter = findGutter(band, pageWidth)
  if (gutter === undefined) return undefined
  const oneSide = other.every((p) => p.x1 <= gutter + 1) || other.every((p) => p.x0 >= gutter - 1)
  return oneSide && findGutter(other, pageWidth) === undefined ? gutter : undefined
}

/** A cut at the widest horizontal gap that lets a band find a gutter of its own; undefined when none does. */
const readBands = (
  items: ReadonlyArray<Placed>,
  rtl: boolean,
  pageWidth: number,
  depth: number
): Array<Placed> | undefined => {
  let best: number | undefined
  let bestGap = 0
  let bottom = -Infinity
  for (let i = 0; i < items.length; i++) {
    const p = items[i]!
    const top = p.y - Math.max(p.size, 1)
    const height = Math.max(p.size, items[i - 1]?.size ?? 0, 1)
    if (i > 0 && top - bottom > bandGap * height && top - bottom > bestGap) {
      const above = items.slice(0, i)
      const below = items.slice(i)
      if (findGutter(above, pageWidth) !== undefined || findGutter(below, pageWidth) !== undefined) {
        best = i
        bestGap = top - bottom
      }
    }
    bottom = Math.max(bottom, p.y + 0.25 * p.size)
  }
  if (best === undefined) return undefined
  const above = items.slice(0, best)
  const below = items.slice(best)
  const gutter = continuedGutter(above, below, pageWidth) ?? continuedGutter(below, above, pageWidth)
  if (gutter !== undefined) return readColumns(items, gutter, rtl, pageWidth, depth)
  return [
    ...orderRegion(above, rtl, pageWidth, depth + 1),
    ...orderRegion(below, rtl, pageWidth, depth + 1)
  ]
}

/** The reading order of a region's items (in top-down order of their baselines). */
export const orderRegion = (
  items: ReadonlyArray<Placed>,
  rtl: boolean,
  pageWidth: number,
  depth = 0
): Array<Placed> => {
  if (depth >= maxDepth || items.length < 2 * minSideLines + 2) return [...items]
  const gutter = findGutter(items, pageWidth)
  if (gutter !== undefined) return readColumns(items, gutter, rtl, pageWidth, depth)
  return readBands(items, rtl, pageWidth, depth) ?? readIndex(items, rtl, pageWidth, depth) ?? [...items]
}

/**
 * Columns of an index at a region's foot: entries too short to fill a column, side by side with no
 * line across them from some line down; the left column is not the shorter.
 */
const readIndex = (
  items: ReadonlyArray<Placed>,
  rtl: boolean,
  pageWidth: number,
  depth: number
): Array<Placed> | undefined => {
  const entries = items.filter((p) => p.item._tag === "Line" && isIndexEntry(p.item.line.text)).length
  if (entries < 2 * minSideLines) return undefined
  const starts = [...new Set(items.map((p) => p.x0))].sort((a, b) => a - b)
  for (const start of starts) {
    const x = start - 1
    let first = items.length
    while (first > 0 && (items[first - 1]!.x1 <= x || items[first - 1]!.x0 >= x)) first--
    const tail = items.slice(first)
    const minSide = Math.max(minSideLines, tail.length * minSideShare)
    const left = tail.filter((p) => p.x1 <= x)
    const right = tail.filter((p) => p.x0 >= x)
    if (left.length < right.length || !isIndexColumn(left, minSide) || !isIndexColumn(right, minSide)) continue
    return [
      ...orderRegion(items.slice(0, first), rtl, pageWidth, depth + 1),
      ...readColumns(tail, x, rtl, pageWidth, depth)
    ]
  }
  return undefined
}
