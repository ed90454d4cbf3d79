/** Listings set on a shaded box or in a frame in a text face (Word's code in Arial or Tahoma) read whole as code. */
import { listingLine, readsAsProse } from "./cSource.js"
import type { Box, Line, PageItem } from "./model.js"

/** An average character of a text face, in font sizes: what a line's indentation is counted in. */
const charWidth = 0.5
/** Lines a panel holds at least, and of them that read as code (a listing's statement or an already fixed-pitch line). */
const minLines = 2
const minCode = 2
/** How far (points) a line may stand out of its panel: a glyph's ink past the box's edge. */
const slack = 2

/** Panels of one width stacked with no gap, merged: Word shades a listing paragraph by paragraph. */
const stacked = (panels: ReadonlyArray<Box>): Array<Box> => {
  const sorted = [...panels].sort((a, b) => a.x0 - b.x0 || a.x1 - b.x1 || a.y0 - b.y0)
  const out: Array<Box> = []
  for (const panel of sorted) {
    const last = out[out.length - 1]
    if (
      last !== undefined && Math.abs(last.x0 - panel.x0) <= 1 && Math.abs(last.x1 - panel.x1) <= 1 &&
      panel.y0 <= last.y1 + 1 && panel.y1 > last.y1
    ) {
      out[out.length - 1] = { ...last, y1: panel.y1 }
    } else if (last === undefined || !(panel.y1 <= last.y1 && panel.y0 >= last.y0 && panel.x1 <= last.x1 + 1)) {
      out.push(panel)
    }
  }
  return out
}

/** Whether a line's baseline is in the panel and its ends within its sides. */
const inside = (line: Line, panel: Box): boolean =>
  line.y > panel.y0 && line.y - 0.3 * line.size < panel.y1 && line.x0 >= panel.x0 - slack &&
  line.x1 <= panel.x1 + slack

const isCode = (line: Line): boolean => line.charWidth !== undefined || listingLine(line.text) !== undefined

/** A sentence's end: a full stop, perhaps inside a closing quote or bracket. */
const fullStop = /[.!?]["')\]]?\s*$/

/** A sentence's line: prose words, a bullet, or a full stop that is no code's. */
const isProse = (line: Line): boolean =>
  line.charWidth === undefined && (readsAsProse(line.text) || (fullStop.test(line.text) && !isCode(line)))

/** Whether a panel's lines are a listing: one size, no prose, code for half of them and two at least. */
const isListing = (lines: ReadonlyArray<Line>): boolean => {
  const size = lines[0]!.size
  if (lines.some((line) => Math.abs(line.size - size) > 1 || isProse(line))) return false
  const code = lines.filter(isCode).length
  return code >= minCode && code * 2 >= lines.length
}

/** The pieces on one baseline joined at their distance, counted in average characters. */
const joined = (pieces: ReadonlyArray<Line>): Line => {
  const first = pieces[0]!
  const width = first.charWidth ?? charWidth * first.size
  let line: Line = first
  for (const piece of pieces.slice(1)) {
    const gap = " ".repeat(Math.max(1, Math.round((piece.x0 - line.x1) / width)))
    const offset = line.text.length + gap.length
    const marks = [
      ...(line.marks ?? []),
      ...(piece.marks ?? []).map((mark) => ({ ...mark, start: mark.start + offset, end: mark.end + offset }))
    ]
    line = { ...line, text: line.text + gap + piece.text, x1: piece.x1, marks: marks.length > 0 ? marks : undefined }
  }
  return line
}

/** The lines of a panel in a row of the page's items, grouped by baseline; none when others cut them. */
const panelLines = (
  items: ReadonlyArray<PageItem>,
  panel: Box
): { readonly indices: ReadonlyArray<number>; readonly rows: ReadonlyArray<ReadonlyArray<Line>> } | undefined => {
  const indices = items.flatMap((item, i) => item._tag === "Line" && inside(item.line, panel) ? [i] : [])
  if (indices.length < minLines || indices[indices.length - 1]! - indices[0]! + 1 !== indices.length) return undefined
  const rows: Array<Array<Line>> = []
  for (const i of indices) {
    const line = (items[i] as { readonly line: Line }).line
    const row = rows[rows.length - 1]
    const last = row?.[row.length - 1]
    if (last !== undefined && Math.abs(line.y - last.y) <= 0.5 * line.size && line.x0 > last.x1) row!.push(line)
    else rows.push([line])
  }
  return { indices, rows }
}

/** The page's items with the lines of each panel that holds a listing made its code lines. */
export const panelListings = (items: ReadonlyArray<PageItem>, panels: ReadonlyArray<Box>): ReadonlyArray<PageItem> => {
  const replaced = new Map<number, Line | undefined>()
  for (const panel of stacked(panels)) {
    const found = panelLines(items, panel)
    if (found === undefined || found.indices.some((i) => replaced.has(i))) continue
    const lines = found.rows.map(joined)
    if (lines.length < minLines || !isListing(lines)) continue
    let next = 0
    for (const [r, row] of found.rows.entries()) {
      const line = lines[r]!
      replaced.set(found.indices[next]!, { ...line, charWidth: line.charWidth ?? charWidth * line.size })
      for (let k = 1; k < row.length; k++) replaced.set(found.indices[next + k]!, undefined)
      next += row.length
    }
  }
  if (replaced.size === 0) return items
  return items.flatMap((item, i) => {
    if (!replaced.has(i)) return [item]
    const line = replaced.get(i)
    return line === undefined ? [] : [{ _tag: "Line" as const, line }]
  })
}
