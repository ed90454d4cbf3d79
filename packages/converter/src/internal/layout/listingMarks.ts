/** A listing's marks in the text face: line numbers in a column left of its lines, callout marks right of them. */
import { isMono } from "./lines.js"
import type { TextItem } from "./model.js"

const lineNumber = /^\d{1,4}$/
/** A circled number (DocBook's callouts), and the small number some producers set over an empty circle. */
const calloutGlyph = /^[\u2460-\u24FF\u2776-\u2793]$/u
const calloutNumber = /^\d{1,2}$/

/** Numbered lines a column needs beside code before its numbers are taken as line numbers. */
const minBesideCode = 3

/** Font sizes between a line number and its code: a listing's nesting indents its lines that far. */
const maxIndent = 12

const byBaseline = (items: ReadonlyArray<TextItem>): Map<number, Array<TextItem>> => {
  const rows = new Map<number, Array<TextItem>>()
  for (const item of items) {
    const key = Math.round(item.y)
    const row = rows.get(key)
    if (row === undefined) rows.set(key, [item])
    else row.push(item)
  }
  return rows
}

/** The code run that comes first on `number`'s baseline right of it (within `maxIndent` of its sizes), if any. */
const codeBeside = (number: TextItem, rows: ReadonlyMap<number, ReadonlyArray<TextItem>>): TextItem | undefined => {
  const end = number.x + number.width
  const key = Math.round(number.y)
  const beside = [key - 1, key, key + 1].flatMap((y) => rows.get(y) ?? []).filter((item) =>
    Math.abs(item.y - number.y) <= 0.5 * item.size && item.x >= end + 0.2 * item.size
  )
  const next = beside.reduce<TextItem | undefined>((a, b) => a === undefined || b.x < a.x ? b : a, undefined)
  return next !== undefined && isMono(next) && number.size <= 1.01 * next.size &&
      next.x <= end + maxIndent * next.size
    ? next
    : undefined
}

/** Runs of `column` (top down) whose numbers go up by one step: a listing's numbering, blank lines included. */
const numberedRuns = (column: ReadonlyArray<TextItem>): Array<Array<TextItem>> => {
  const runs: Array<Array<TextItem>> = []
  let run: Array<TextItem> = []
  let step = 0
  for (const item of column) {
    const last = run[run.length - 1]
    const next = Number(item.text.trim())
    const gap = last === undefined ? 0 : next - Number(last.text.trim())
    if (last !== undefined && gap > 0 && (run.length === 1 || gap === step)) {
      step = gap
      run.push(item)
      continue
    }
    if (run.length > 0) runs.push(run)
    run = [item]
    step = 0
  }
  if (run.length > 0) runs.push(run)
  return runs
}

/** Callout marks right of a line of code on its baseline, with the numbers set over them. */
const callouts = (items: ReadonlyArray<TextItem>, code: ReadonlyArray<TextItem>): Array<TextItem> =>
  items.filter((glyph) =>
    !isMono(glyph) && calloutGlyph.test(glyph.text.trim()) &&
    code.some((run) => Math.abs(run.y - glyph.y) <= run.size && run.x + run.width <= glyph.x + 0.5 * run.size)
  ).flatMap((glyph) => [
    glyph,
    ...items.filter((digit) =>
      !isMono(digit) && calloutNumber.test(digit.text.trim()) && digit.size < 0.7 * glyph.size &&
      digit.x >= glyph.x - 1 && digit.x + digit.width <= glyph.x + glyph.width + 1 &&
      Math.abs(digit.y - glyph.y) <= glyph.size
    )
  ])

/**
 * The page's runs without its listings' callout marks and line numbers (numbers right-aligned in a
 * column, counting up, at least `minBesideCode` of them beside a line of code), so that numbered
 * lines are code lines and numbered blank lines no paragraphs between them.
 */
export const dropListingMarks = (items: ReadonlyArray<TextItem>): ReadonlyArray<TextItem> => {
  const code = items.filter(isMono)
  if (code.length === 0) return items
  const dropped = new Set<TextItem>(callouts(items, code))
  const numbers = items.filter((item) => !isMono(item) && lineNumber.test(item.text.trim()) && !dropped.has(item))
  const rows = byBaseline(items)
  const columns = new Map<number, Array<TextItem>>()
  for (const item of numbers) {
    const right = Math.round(item.x + item.width)
    const key = [right, right - 1, right + 1].find((x) => columns.has(x)) ?? right
    const column = columns.get(key)
    if (column === undefined) columns.set(key, [item])
    else column.push(item)
  }
  for (const column of columns.values()) {
    for (const run of numberedRuns([...column].sort((a, b) => a.y - b.y))) {
      const beside = run.filter((item) => codeBeside(item, rows) !== undefined).length
      if (beside >= minBesideCode && beside * 2 >= run.length) { for (const item of run) dropped.add(item) }
    }
  }
  return dropped.size === 0 ? items : items.filter((item) => !dropped.has(item))
}
