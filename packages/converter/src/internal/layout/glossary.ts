/**
 * Glossaries set by alignment alone (an acronym list, a parameter list): rows of a short term at
 * one x and its description at a tab stop (`tabStops`), read as a table of two columns. Only rows
 * cut at a tab inside one run confirm one: two runs on a baseline may as well be a hanging indent.
 */
import type { Grid } from "./grid.js"
import type { Row } from "./lines.js"
import { markerOnly, segmentGap } from "./lines.js"
import type { Box, TextItem } from "./model.js"
import { Style } from "./model.js"

/** In font sizes: a glossary's rows (and a description's wrapped lines) are at most this far apart. */
export const maxRowGap = 2.6
/** In points: terms start at one x, descriptions at one x, within this. */
export const slack = 2
const minRows = 3
/** A description's lines at most. */
export const maxLines = 3
const maxTermLength = 32
const maxTermWords = 4
/** A number, letter or numeral alone (a footnote's, a section's, a list item's): no term. */
const numbering = /^[([]?(?:\d+|[a-z]|[ivxlc]+)(?:\.\d+)*[.)\]]?$/iu
/** A term ending so is a sentence's or a clause's start, not a term. */
const closing = /[.,;:!?]$/
/** A description of page numbers only: a contents. */
const pageNumber = /^[\divxlc]+$/iu
/** Dot leaders: a contents entry's. */
const leaders = /(?:\.\s?){4}|…/u

/** A glossary's term: up to four words and 32 characters, not code, no list marker, no closing punctuation. */
export const isTerm = (term: string, style: number): boolean => {
  const words = term.split(/\s+/u)
  return term !== "" && term.length <= maxTermLength && words.length <= maxTermWords && !closing.test(term) &&
    !markerOnly.test(words[0]!) && !numbering.test(term) && (style & Style.code) === 0
}

/** Whether descriptions so read are a glossary's: not mostly wrapped, not page numbers (a contents). */
export const isGlossary = (descriptions: ReadonlyArray<{ readonly description: string; readonly lines: number }>) =>
  descriptions.length >= minRows && descriptions.filter((entry) => entry.lines > 1).length * 2 <= descriptions.length &&
  !descriptions.every((entry) => pageNumber.test(entry.description)) &&
  !descriptions.some((entry) => leaders.test(entry.description))

interface Entry {
  readonly term: string
  description: string
  lines: number
  x1: number
}

/** The row's term and description, when its first run has a tab stop and the rest stands past it. */
const tabbed = (row: Row): { term: string; description: string; at: number; item: TextItem } | undefined => {
  const first = row.items[0]
  const tab = first?.tab
  if (first === undefined || tab === undefined) return undefined
  if (row.items.some((item, i) => i > 0 && item.x < tab.x)) return undefined
  // A third column past the description: a table the other rules read.
  const cut = row.items.some((item, i) =>
    i > 0 && item.x - (row.items[i - 1]!.x + row.items[i - 1]!.width) > segmentGap * item.size
  )
  if (cut) return undefined
  const term = first.text.slice(0, tab.at).trim()
  if (!isTerm(term, first.style)) return undefined
  const description = [first.text.slice(tab.at), ...row.items.slice(1).map((item) => item.text)].join(" ")
    .replace(/\s+/gu, " ").trim()
  return { term, description, at: tab.x, item: first }
}

const lineText = (row: Row): string => row.items.map((item) => item.text).join(" ").replace(/\s+/gu, " ").trim()
const rightOf = (row: Row): number => Math.max(...row.items.map((item) => item.x + item.width))

/** Whether row `at` is a lone term at `x0` over a line at the descriptions' x: a definition list's. */
const termAbove = (rows: ReadonlyArray<Row>, at: number, x0: number, stop: number): boolean => {
  const term = rows[at]
  const below = rows[at + 1]
  return term !== undefined && below !== undefined && term.items.length > 0 && below.items.length > 0 &&
    Math.abs(term.items[0]!.x - x0) <= slack && rightOf(term) < stop &&
    Math.abs(below.items[0]!.x - stop) <= slack && below.y - term.y <= maxRowGap * term.size
}

/** The glossary starting at row `start`, as a grid, when one does. */
const glossaryAt = (rows: ReadonlyArray<Row>, start: number): Grid | undefined => {
  const head = tabbed(rows[start]!)
  if (head === undefined) return undefined
  const x0 = head.item.x
  const stop = head.at
  const above = rows[start - 1]
  // A line at the descriptions' x just above: a hanging paragraph, not a glossary; a row like this
  // one just above: rows a glossary found there did not make one.
  if (above !== undefined && above.items.length > 0 && rows[start]!.y - above.y <= maxRowGap * above.size) {
    const aboveTab = tabbed(above)
    if (Math.abs(above.items[0]!.x - stop) <= slack) return undefined
    if (aboveTab !== undefined && Math.abs(aboveTab.item.x - x0) <= slack) return undefined
  }
  const entries: Array<Entry> = [{
    term: head.term,
    description: head.description,
    lines: 1,
    x1: rightOf(rows[start]!)
  }]
  let end = start + 1
  for (; end < rows.length; end++) {
    const row = rows[end]!
    const previous = rows[end - 1]!
    if (row.items.length === 0 || row.y - previous.y > maxRowGap * Math.max(row.size, previous.size)) break
    const next = tabbed(row)
    if (next !== undefined && Math.abs(next.item.x - x0) <= slack && Math.abs(next.at - stop) <= slack) {
      entries.push({ term: next.term, description: next.description, lines: 1, x1: rightOf(row) })
      continue
    }
    const last = entries[entries.length - 1]!
    if (Math.abs(row.items[0]!.x - stop) > slack || last.lines >= maxLines) break
    last.description = `${last.description} ${lineText(row)}`
    last.lines++
    last.x1 = Math.max(last.x1, rightOf(row))
  }
  if (!isGlossary(entries) || termAbove(rows, end, x0, stop)) return undefined
  return {
    start,
    end,
    x0,
    x1: Math.max(...entries.map((entry) => entry.x1)),
    rows: entries.map((entry) => [entry.term, entry.description]),
    marks: undefined
  }
}

/** The page's glossaries (see the module's header), in row order, none overlapping; a rule among the rows (a drawing's labels) makes none. */
export const findGlossaries = (rows: ReadonlyArray<Row>, rules: ReadonlyArray<Box>): Array<Grid> => {
  const found: Array<Grid> = []
  for (let i = 0; i < rows.length; i++) {
    if (rows[i]!.items.length === 0) continue
    const grid = glossaryAt(rows, i)
    if (grid === undefined) continue
    const top = rows[grid.start]!.y - rows[grid.start]!.size
    const bottom = rows[grid.end - 1]!.y
    if (rules.some((rule) => rule.y1 > top && rule.y0 < bottom && rule.x1 > grid.x0 && rule.x0 < grid.x1)) continue
    found.push(grid)
    i = grid.end - 1
  }
  return found
}
