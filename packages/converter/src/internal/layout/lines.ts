/** Positioned text items -> lines: items on one baseline, cut where a gap is wider than a word space. */
import { charWidthOf, commentedCode, fallbackCode, isMono } from "./codeFace.js"
import { collapseSpaces } from "./collapseSpaces.js"
import type { Line, Mark, TextItem } from "./model.js"
import { Style } from "./model.js"
import { isRaisedLabel, raisedLabels } from "./raisedLabels.js"
import { bulletCharacters, letterCount, normalizeText } from "./text.js"

// Kept importable from here, where the rest of the layout has always found them.
export { commentStart, isMono } from "./codeFace.js"
export { noteLabel } from "./raisedLabels.js"

export interface Row {
  y: number
  size: number
  readonly items: Array<TextItem>
}

/** Gaps wider than this many font sizes separate columns or table cells, not words. */
export const segmentGap = 1.2

/** A list marker alone: a bullet, "1." or "a)" (a list's hanging indent, not a table's column). */
export const markerOnly = new RegExp(`^(?:[${bulletCharacters}]|\\d{1,3}[.)]|[a-z][.)])$`, "u")

/**
 * How far (font sizes) the text of an item may stand from its marker alone: a word processor's tab
 * stop past a bullet, an XSL-FO list's indent past "1." or "a.", not a column.
 */
const maxBulletGap = 3
const gridSlack = 0.5

/** Whether `item` starts in the column after `previous`'s end: LaTeX listings' columns are wider than cmtt's glyphs. */
const onGrid = (previous: TextItem, item: TextItem, gap: number, pitch: number): boolean => {
  if (gap >= gridSlack * pitch || Math.abs(item.y - previous.y) > 0.5 * item.size) return false
  return Math.abs((item.x - previous.x) / pitch - [...previous.text].length) < 0.25
}
/** Gaps wider than this many font sizes are word spaces. */
export const spaceGap = 0.12

/** The key with the largest weight (0 when there is none): the most common font size. */
export const heaviest = (weights: ReadonlyMap<number, number>): number => {
  let best = 0
  let bestWeight = -1
  for (const [size, weight] of weights) {
    if (weight > bestWeight) {
      best = size
      bestWeight = weight
    }
  }
  return best
}

const dominantSize = (items: ReadonlyArray<TextItem>): number => {
  const weights = new Map<number, number>()
  for (const item of items) {
    const key = Math.round(item.size * 2) / 2
    weights.set(key, (weights.get(key) ?? 0) + item.text.length)
  }
  return heaviest(weights)
}

const halfPoints = (item: TextItem): number => Math.round(item.size * 2) / 2

/** A title's size when a smaller parenthesis follows it on its line ("Basic Latin (U+0020..007E)"). */
const annotatedTitleSize = (ordered: ReadonlyArray<TextItem>): number | undefined => {
  const first = ordered[0]
  if (first === undefined) return undefined
  const size = halfPoints(first)
  const at = ordered.findIndex((item) => halfPoints(item) !== size)
  if (at <= 0 || ordered.slice(at).some((item) => halfPoints(item) >= size)) return undefined
  const title = ordered.slice(0, at).map((item) => item.text).join("")
  const rest = ordered.slice(at).map((item) => item.text).join("")
  return rest.trimStart().startsWith("(") && letterCount(title) >= 2 ? size : undefined
}

/** The styles a mark keeps: code alone (what a code span shows), else bold and italic. */
const markStyle = (item: TextItem): number => isMono(item) ? Style.code : item.style & (Style.strong | Style.emphasis)

/** Whether `text` holds only whitespace from `from` to `to` (most often one space, or nothing). */
const blank = (text: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) !== 32) return text.slice(i, to).trim() === ""
  }
  return true
}

export const makeLine = (items: ReadonlyArray<TextItem>, pitches?: ReadonlyMap<number, TextItem>): Line => {
  let rtlChars = 0
  let ltrChars = 0
  // Letters are counted only on a line with right-to-left runs: without them it reads left to right.
  for (const item of items.some((item) => item.rtl) ? items : []) {
    const letters = letterCount(item.text)
    if (item.rtl) rtlChars += letters
    else ltrChars += letters
  }
  const rtl = rtlChars > ltrChars
  // Items arrive in visual order; a right-to-left line is read from its right end.
  const ordered = rtl ? [...items].sort((a, b) => (b.x + b.width) - (a.x + a.width)) : items
  const code = !rtl && (items.every(isMono) || commentedCode(items) || fallbackCode(items))
  const size = annotatedTitleSize(ordered) ?? dominantSize(items)
  const main = items.find((item) => Math.round(item.size * 2) / 2 === size) ?? items[0]!
  const largest = items.reduce((a, b) => b.size > a.size ? b : a)
  let text = ""
  const marks: Array<Mark> = []
  let previous: TextItem | undefined
  for (const item of ordered) {
    if (previous !== undefined) {
      const gap = rtl ? previous.x - (item.x + item.width) : item.x - (previous.x + previous.width)
      const size = Math.max(previous.size, item.size)
      // A cell's lines read as one: the next baseline's start, back at the left, is a word's start.
      const wrapped = Math.abs(item.y - previous.y) > 0.5 * size && gap < -size
      if (gap > spaceGap * size || wrapped) {
        // Between two fixed-pitch runs, the gap is a number of spaces (alignment in code).
        const pitch = isMono(previous) && isMono(item) ? charWidthOf(pitches?.get(previous.size) ?? previous) : 0
        const spaces = pitch === 0 ? 1 : onGrid(previous, item, gap, pitch) ? 0 : Math.max(1, Math.round(gap / pitch))
        text += " ".repeat(spaces)
      }
    }
    const start = text.length
    // A soft hyphen is read at a line's end only (see `normalizeText`).
    text += item !== ordered[ordered.length - 1] && item.text.endsWith("\u00AD") ? item.text.slice(0, -1) : item.text
    const labels = code || isMono(item) ? undefined : raisedLabels(item, largest)
    if (labels !== undefined) {
      // One reference per label, the commas between them left as text.
      let at = start
      for (const part of labels) {
        const lead = part.length - part.trimStart().length
        marks.push({ start: at + lead, end: at + lead + part.trim().length, style: Style.footnote })
        at += part.length + 1
      }
      previous = item
      continue
    }
    const style = !code && !isMono(item) && isRaisedLabel(item, largest) ? Style.footnote : markStyle(item)
    const last = marks[marks.length - 1]
    if (style === 0 || item.text.trim() === "") {
      // nothing to mark
    } else if (
      last !== undefined && last.style === style && style !== Style.footnote && blank(text, last.end, start)
    ) {
      marks[marks.length - 1] = { start: last.start, end: text.length, style: last.style }
    } else {
      marks.push({ start, end: text.length, style })
    }
    previous = item
  }
  let x0 = Infinity
  let x1 = -Infinity
  for (const item of items) {
    x0 = Math.min(x0, item.x)
    x1 = Math.max(x1, item.x + item.width)
  }
  const collapsed = collapseSpaces(text, marks, code)
  const charWidth = code
    ? charWidthOf(items.filter(isMono).reduce((a, b) => b.text.length > a.text.length ? b : a))
    : undefined
  return {
    text: collapsed.text,
    x0,
    x1,
    y: main.y,
    size,
    rtl,
    // Every line has the same fields (absent ones undefined): one object shape keeps V8 from deoptimising.
    marks: collapsed.marks.length > 0 ? collapsed.marks : undefined,
    charWidth
  }
}

/** Items grouped by baseline: an item within half a font size of the row's baseline joins it. */
export const groupRows = (input: ReadonlyArray<TextItem>): Array<Row> => {
  const items = input
    .map((item): TextItem => {
      const text = normalizeText(item.text)
      // Most runs are already normal: the item itself, not a copy (one object fewer a run).
      return text === item.text ? item : {
        text,
        x: item.x,
        y: item.y,
        width: item.width,
        size: item.size,
        rtl: item.rtl,
        style: item.style
      }
    })
    .filter((item) => item.text.trim() !== "" && item.size > 0)
    .sort((a, b) => a.y - b.y)
  const rows: Array<Row> = []
  for (const item of items) {
    const last = rows[rows.length - 1]
    if (last !== undefined && Math.abs(item.y - last.y) <= 0.5 * Math.max(item.size, last.size)) {
      last.items.push(item)
      // A larger symbol (a sum sign, a bar between two lines of math) sets no baseline: the text's does.
      if (item.size > last.size && /[\p{L}\p{N}\p{M}]/u.test(item.text)) {
        last.size = item.size
        last.y = item.y
      }
    } else {
      rows.push({ y: item.y, size: item.size, items: [item] })
    }
  }
  for (const row of rows) row.items.sort((a, b) => a.x - b.x)
  return rows
}

/** A code line's gap wider than this many characters is a gutter, not alignment. */
const maxCodeGap = 24
/** A comment at a far tab stop (texinfo's `@r{}` comments in a column of their own) may stand this far. */
const maxCommentGap = 48
const commentSign = /^(?:#|\/\/|\/\*|--|;|%)/

/** Whether `item` goes on with the fixed-pitch run `current` across a wide gap, on its character grid. */
const alignedCode = (
  current: ReadonlyArray<TextItem>,
  item: TextItem,
  pitches: ReadonlyMap<number, TextItem>
): boolean => {
  const first = current[0]!
  const last = current[current.length - 1]!
  if (!isMono(item) || !isMono(last) || !isMono(first) || item.size !== last.size) return false
  const width = charWidthOf(pitches.get(item.size) ?? last)
  const columns = (item.x - first.x) / width
  const maxGap = commentSign.test(item.text.trim()) ? maxCommentGap : maxCodeGap
  return item.x - (last.x + last.width) < maxGap * width && Math.abs(columns - Math.round(columns)) < 0.2
}

/** Dot leaders ending a run, and a page number alone: a contents entry's two ends. */
const leaders = /(?:\.\s*){3,}$/
const pageReference = /^\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*$/i

/**
 * The longest fixed-pitch run of each size among `rows`: what a character's advance is measured on
 * (a lone glyph's box, a prompt's "+" or a brace, is wider than its advance).
 */
export const monoPitches = (rows: ReadonlyArray<Row>): Map<number, TextItem> => {
  const longest = new Map<number, TextItem>()
  for (const row of rows) {
    for (const item of row.items) {
      const other = longest.get(item.size)
      if (isMono(item) && (other === undefined || item.text.length > other.text.length)) longest.set(item.size, item)
    }
  }
  return longest
}

/** One baseline's runs cut into the runs of each line, at gaps wider than `segmentGap` font sizes and before `cuts`. */
export const segmentItems = (
  row: Row,
  cuts?: ReadonlySet<TextItem>,
  pitches: ReadonlyMap<number, TextItem> = monoPitches([row])
): Array<ReadonlyArray<TextItem>> => {
  const segments: Array<ReadonlyArray<TextItem>> = []
  let current: Array<TextItem> = []
  let end = -Infinity
  for (const item of row.items) {
    const gap = item.x - end
    const size = Math.max(item.size, current[0]?.size ?? 0)
    // Tested in this order, the cheap ones first: most items join the line before any regular expression runs.
    if (
      current.length > 0 && (gap > segmentGap * size || cuts?.has(item) === true) &&
      !alignedCode(current, item, pitches) &&
      !(current.length === 1 && gap < maxBulletGap * size && markerOnly.test(current[0]!.text.trim())) &&
      !(pageReference.test(item.text) && leaders.test(current[current.length - 1]!.text))
    ) {
      segments.push(current)
      current = []
      end = -Infinity
    }
    current.push(item)
    end = Math.max(end, item.x + item.width)
  }
  if (current.length > 0) segments.push(current)
  return segments
}

/** The right end of the line a segment's runs make (its `x1`), without making the line. */
export const segmentEnd = (items: ReadonlyArray<TextItem>): number => {
  let x1 = -Infinity
  for (const item of items) x1 = Math.max(x1, item.x + item.width)
  return x1
}

/** One baseline cut into lines at gaps wider than `segmentGap` font sizes and before `cuts`. */
export const segmentRow = (
  row: Row,
  cuts?: ReadonlySet<TextItem>,
  pitches: ReadonlyMap<number, TextItem> = monoPitches([row])
): ReadonlyArray<Line> => {
  const segments = segmentItems(row, cuts, pitches).map((items) => makeLine(items, pitches))
  // Pieces of a right-to-left baseline are read from the rightmost one.
  return segments.filter((segment) => segment.rtl).length * 2 > segments.length ? segments.reverse() : segments
}

/** Items grouped by baseline (superscripts included), cut at gaps wider than a word space: columns stay apart. */
export const buildRows = (input: ReadonlyArray<TextItem>): Array<ReadonlyArray<Line>> =>
  groupRows(input).map((row) => segmentRow(row))
