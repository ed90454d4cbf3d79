/** An element's text: its runs in the tree's order made lines by baseline in that order (never sorted down the page). */
import type * as Document from "../../Document.js"
import { Style } from "../../Document.js"
import type { Hyphenation } from "../layout/hyphens.js"
import type { Rich } from "../layout/inline.js"
import { joinRich, richLine, trimRich } from "../layout/inline.js"
import { makeLine } from "../layout/lines.js"
import type { Line, TextItem } from "../layout/model.js"
import { normalizeText } from "../layout/text.js"

/** One run of an element's content; `reference` when it is a footnote reference's label. */
export interface Piece {
  readonly item: TextItem
  readonly reference: boolean
}

/** Noncharacters that bracket a reference's label while lines are joined (never in a PDF's text: removed first). */
const open = "\uFDD0"
const close = "\uFDD1"
const brackets = /[\uFDD0\uFDD1]/g

/** Same line: within half a font size of the line's baseline (superscripts included). */
const onBaseline = (y: number, size: number, item: TextItem): boolean =>
  Math.abs(item.y - y) <= 0.5 * Math.max(size, item.size)

/** Lines from runs in content order: a run on the line's baseline joins it (read left to right), any other starts the next. */
export const contentLines = (pieces: ReadonlyArray<Piece>): Array<Line> => {
  const lines: Array<Line> = []
  let current: Array<TextItem> = []
  let y = 0
  let size = 0
  const flush = () => {
    if (current.length > 0) lines.push(makeLine(current.sort((a, b) => a.x - b.x)))
    current = []
  }
  for (const piece of pieces) {
    const source = piece.item
    const normal = normalizeText(source.text.replace(brackets, ""))
    if (normal.trim() === "" || source.size <= 0) continue
    const text = piece.reference ? `${open}${normal.trim()}${close}` : normal
    const item = text === source.text ? source : { ...source, text }
    if (current.length > 0 && onBaseline(y, size, item)) {
      current.push(item)
      if (item.size > size) {
        size = item.size
        y = item.y
      }
    } else {
      flush()
      current = [item]
      y = item.y
      size = item.size
    }
  }
  flush()
  return lines
}

/** Whether every line is set in a fixed-pitch font (a listing, not prose). */
export const isCode = (lines: ReadonlyArray<Line>): boolean =>
  lines.length > 0 && lines.every((line) => line.charWidth !== undefined)

/** The lines as running text (line-end hyphens as the document's `hyphenation` says), references as marks. */
export const richOf = (lines: ReadonlyArray<Line>, hyphenation?: Hyphenation): Rich => {
  let rich: Rich | undefined
  let previous: Line | undefined
  for (const line of lines) {
    const next = richLine(line)
    rich = rich === undefined || previous === undefined
      ? next
      : joinRich(rich, next, Math.abs(line.y - previous.y) <= 0.5 * Math.max(line.size, previous.size), hyphenation)
    previous = line
  }
  return withReferences(trimRich(rich ?? { text: "", marks: [] }))
}

/** Bracketed labels made `Style.footnote` marks; the other marks moved along, and cut around them (marks never overlap). */
export const withReferences = (rich: Rich): Rich => {
  if (!rich.text.includes(open)) return rich
  const map = new Array<number>(rich.text.length + 1)
  const references: Array<Document.Mark> = []
  let text = ""
  let start = -1
  for (let i = 0; i < rich.text.length; i++) {
    map[i] = text.length
    const c = rich.text[i]!
    if (c === open) start = text.length
    else if (c === close) {
      if (start >= 0 && text.length > start) references.push({ start, end: text.length, style: Style.footnote })
      start = -1
    } else text += c
  }
  map[rich.text.length] = text.length
  const moved: Array<Document.Mark> = []
  for (const mark of rich.marks) {
    let from = map[mark.start]!
    const to = map[mark.end]!
    for (const reference of references) {
      if (reference.end <= from || reference.start >= to) continue
      if (reference.start > from) moved.push({ start: from, end: reference.start, style: mark.style })
      from = Math.max(from, reference.end)
    }
    if (to > from) moved.push({ start: from, end: to, style: mark.style })
  }
  return { text, marks: [...moved, ...references].sort((a, b) => a.start - b.start) }
}
