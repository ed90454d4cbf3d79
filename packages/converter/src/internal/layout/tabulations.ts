/**
 * Tabulations of two columns (a reference card's commands and what they do): rows of a code-face
 * cell and a text-face cell, each column at one x, on baselines set at the text's leading, are a
 * table, not a run of paragraphs.
 */
import type { Placed } from "./columns.js"
import type { Rich } from "./inline.js"
import { joinRich, richLine } from "./inline.js"
import type { Line, Mark } from "./model.js"
import { Style } from "./model.js"

/** Cells of one column start within this many points of each other. */
const alignSlack = 1.5
/** Rows further apart than this many font sizes are paragraphs (a definition list's parskip), not rows. */
const rowLeading = 1.5
/** Rows a tabulation has at least. */
const minRows = 3
/** A description that starts as a sentence does. */
const capital = /^\p{Lu}/u

interface Tab {
  readonly left: Rich
  readonly right: Rich
  readonly y: number
  readonly size: number
  readonly wrapped: boolean
  /** Whether its first line holds code, and whether its second starts in the code face. */
  readonly code: readonly [boolean, boolean]
}

const isCode = (mark: Mark): boolean => (mark.style & Style.code) !== 0

const codeLed = (line: Line): boolean =>
  line.charWidth !== undefined || (line.marks?.[0]?.start === 0 && isCode(line.marks[0]))

/** Whether a first cell holds code: an operator between italic operands ("x < y") is one. */
const hasCode = (line: Line): boolean => line.charWidth !== undefined || (line.marks ?? []).some(isCode)

const lineAt = (placed: ReadonlyArray<Placed>, i: number): Line | undefined => {
  const item = placed[i]?.item
  return item?._tag === "Line" ? item.line : undefined
}

const cellRich = (line: Line): Rich =>
  line.charWidth !== undefined && line.marks === undefined
    ? { text: line.text, marks: [{ start: 0, end: line.text.length, style: Style.code }] }
    : richLine(line)

/** A row at `i`: a line, then one on its baseline past a gap, the two at the tabulation's `x`s when given. */
const pairAt = (
  placed: ReadonlyArray<Placed>,
  i: number,
  x: readonly [number, number] | undefined
): readonly [Line, Line] | undefined => {
  const left = lineAt(placed, i)
  const right = lineAt(placed, i + 1)
  if (left === undefined || right === undefined) return undefined
  if (Math.abs(left.y - right.y) > 0.25 * left.size || right.x0 - left.x1 < 0.5 * left.size) return undefined
  if (lineAt(placed, i + 2)?.y === right.y) return undefined
  if (x !== undefined && (Math.abs(left.x0 - x[0]) > alignSlack || Math.abs(right.x0 - x[1]) > alignSlack)) {
    return undefined
  }
  return [left, right]
}

/** The rows of a tabulation starting at `i`, and the index after them. */
const tabulationAt = (placed: ReadonlyArray<Placed>, i: number): readonly [Array<Tab>, number] => {
  const rows: Array<Tab> = []
  let x: readonly [number, number] | undefined
  let j = i
  for (;;) {
    const last = rows[rows.length - 1]
    const pair = pairAt(placed, j, x)
    if (pair !== undefined) {
      const [left, right] = pair
      const size = Math.max(left.size, right.size)
      if (last !== undefined && (left.y <= last.y || left.y - last.y > rowLeading * size)) break
      x ??= [left.x0, right.x0]
      rows.push({
        left: cellRich(left),
        right: cellRich(right),
        y: left.y,
        size,
        wrapped: false,
        code: [hasCode(left), codeLed(right)]
      })
      j += 2
      continue
    }
    // A description's next line, alone on its baseline at (or a little past) the second column.
    const line = lineAt(placed, j)
    if (
      last === undefined || x === undefined || line === undefined || lineAt(placed, j + 1)?.y === line.y ||
      line.x0 < x[1] - alignSlack || line.x0 > x[1] + 2 * line.size ||
      line.y <= last.y || line.y - last.y > rowLeading * last.size
    ) break
    rows[rows.length - 1] = { ...last, right: joinRich(last.right, richLine(line)), y: line.y, wrapped: true }
    j++
  }
  return [rows, j]
}

/** Enough rows, most holding code and described in the text face by fragments, most on one line. */
const isTabulation = (rows: ReadonlyArray<Tab>): boolean => {
  if (rows.length < minRows) return false
  const codeLeft = rows.filter((row) => row.code[0]).length
  const codeRight = rows.filter((row) => row.code[1]).length
  const wrapped = rows.filter((row) => row.wrapped).length
  // A definition's description is a sentence; a tabulation's meanings are mostly fragments ("move back").
  const sentences = rows.filter((row) => capital.test(row.right.text)).length
  return 3 * codeLeft >= 2 * rows.length && 3 * codeRight <= rows.length && 2 * wrapped <= rows.length &&
    2 * sentences <= rows.length
}

/** `placed` (a page in reading order) with its two-column tabulations made tables. */
export const takeTabulations = (placed: ReadonlyArray<Placed>): Array<Placed> => {
  const out: Array<Placed> = []
  for (let i = 0; i < placed.length;) {
    const [rows, end] = pairAt(placed, i, undefined) === undefined ? [[], i] : tabulationAt(placed, i)
    if (!isTabulation(rows)) {
      // A long run that is no tabulation is passed whole: trying each of its later rows is quadratic.
      const next = rows.length >= minRows ? end : i + 1
      out.push(...placed.slice(i, next))
      i = next
      continue
    }
    const cells = placed.slice(i, end)
    const y = rows[0]!.y
    out.push({
      item: {
        _tag: "Table",
        rows: rows.map((row) => [row.left.text, row.right.text]),
        marks: rows.map((row): Array<ReadonlyArray<Mark>> => [row.left.marks, row.right.marks]),
        y
      },
      x0: Math.min(...cells.map((p) => p.x0)),
      x1: Math.max(...cells.map((p) => p.x1)),
      y,
      size: 0
    })
    i = end
  }
  return out
}
