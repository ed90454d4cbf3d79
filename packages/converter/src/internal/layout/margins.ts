/**
 * Notes in the right margin (LaTeX's `\marginpar`): short runs past the edge the text is justified
 * to, cut from the lines beside them and read after the paragraph they stand beside.
 */
import type { Placed } from "./columns.js"
import type { Row } from "./lines.js"
import { segmentEnd, segmentItems } from "./lines.js"
import type { TextItem } from "./model.js"

/** The text's right edge: this many lines end within `sameEdge` points of it. */
const sameEdge = 1
const minEdgeLines = 5
/** Font sizes: a note's start past the edge, its gap on its baseline; a paragraph's end short of it. */
const minOffset = 0.5
const minGap = 0.8
const shortEnd = 2
/** A margin note's lines are at most this share of the page wide; a column of text is wider. */
const maxNoteWidth = 0.12

/** The rightmost x most lines of a page end at (justified text), if any. */
const textEdge = (rows: ReadonlyArray<Row>): number | undefined => {
  const ends = rows.flatMap((row) => segmentItems(row).map(segmentEnd)).sort((a, b) => b - a)
  for (let i = 0; i + minEdgeLines <= ends.length; i++) {
    if (ends[i]! - ends[i + minEdgeLines - 1]! <= sameEdge) return ends[i + minEdgeLines - 1]!
  }
  return undefined
}

/** The edge, and the runs a baseline is cut before (where a margin note starts). */
export interface Margin {
  readonly edge: number
  readonly cuts: ReadonlySet<TextItem>
}

/** The page's right margin notes, when it has an edge and nothing wide stands past it. */
export const findMargin = (rows: ReadonlyArray<Row>, pageWidth: number): Margin | undefined => {
  const edge = textEdge(rows)
  if (edge === undefined) return undefined
  const cuts = new Set<TextItem>()
  for (const row of rows) {
    const beyond = row.items.findIndex((item) => item.x >= edge + minOffset * item.size)
    if (beyond < 0) continue
    const past = row.items.slice(beyond)
    const x1 = Math.max(...past.map((item) => item.x + item.width))
    if (x1 - past[0]!.x > maxNoteWidth * pageWidth) return undefined
    const before = row.items[beyond - 1]
    if (before === undefined) continue
    if (past[0]!.x - (before.x + before.width) < minGap * past[0]!.size) return undefined
    cuts.add(past[0]!)
  }
  return { edge, cuts }
}

const isNote = (p: Placed, margin: Margin): boolean =>
  p.item._tag === "Line" && p.x0 >= margin.edge + minOffset * p.size

/** The reading order with each margin note moved after the end of the paragraph it stands beside. */
export const placeMarginNotes = (ordered: ReadonlyArray<Placed>, margin: Margin): Array<Placed> => {
  const out: Array<Placed> = []
  let waiting: Array<Placed> = []
  let last: Placed | undefined
  const ends = (p: Placed) => p.item._tag === "Line" && p.x1 < margin.edge - shortEnd * p.size
  for (const p of ordered) {
    if (!isNote(p, margin)) {
      out.push(p)
      last = p
      if (waiting.length > 0 && ends(p)) {
        out.push(...waiting)
        waiting = []
      }
    } else if (last !== undefined && ends(last) && Math.abs(last.y - p.y) < last.size) {
      out.push(p)
    } else {
      waiting.push(p)
    }
  }
  return [...out, ...waiting]
}
