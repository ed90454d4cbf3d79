/** A table cut by a page end: a browser repeats the header row, and a row cut in two goes on with empty first cells. */
import type * as Document from "../../Document.js"
import type { Rich } from "./inline.js"
import { joinRich } from "./inline.js"
import type { Mark } from "./model.js"

type Marks = ReadonlyArray<ReadonlyArray<ReadonlyArray<Mark>>>

const sameRow = (a: ReadonlyArray<string> | undefined, b: ReadonlyArray<string> | undefined): boolean =>
  a !== undefined && b !== undefined && a.length === b.length && a.every((cell, i) => cell === b[i])

/** Whether `next` (after a page end) goes on with `open`: as many columns, and the same header row. */
export const continuesTable = (open: Document.Table, next: Document.Table): boolean =>
  open.rows.length >= 2 && next.rows.length >= 2 && sameRow(open.rows[0], next.rows[0])

const rich = (table: Document.Table, row: number, column: number): Rich => ({
  text: table.rows[row]?.[column] ?? "",
  marks: table.marks?.[row]?.[column] ?? []
})

const joinCells = (left: Rich, right: Rich): Rich =>
  left.text === "" ? right : right.text === "" ? left : joinRich(left, right)

/** `open` with `next`'s rows after its header; a first row with an empty first cell joins `open`'s last row. */
export const mergeTables = (open: Document.Table, next: Document.Table): Document.Table => {
  const rows = open.rows.map((row) => [...row])
  const marks: Array<Array<ReadonlyArray<Mark>>> = open.rows.map((row, r) => row.map((_, i) => rich(open, r, i).marks))
  let from = 1
  const first = next.rows[1]!
  if (first[0] === "" && first.some((cell) => cell !== "")) {
    const last = rows.length - 1
    first.forEach((_, i) => {
      const joined = joinCells(rich(open, last, i), rich(next, 1, i))
      rows[last]![i] = joined.text
      marks[last]![i] = joined.marks
    })
    from = 2
  }
  for (let r = from; r < next.rows.length; r++) {
    rows.push([...next.rows[r]!])
    marks.push(next.rows[r]!.map((_, i) => rich(next, r, i).marks))
  }
  const marked: Marks = marks
  return {
    _tag: "Table",
    rows,
    ...(marked.some((row) => row.some((cell) => cell.length > 0)) ? { marks: marked } : {})
  }
}
