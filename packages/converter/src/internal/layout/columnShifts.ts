/** Where a page's reading goes up into the next column, and how far right that column's text starts. */
import type { Line } from "./model.js"

// In font sizes: a rise that starts the next column, and how far right of the last one's edge it starts.
const rise = 2
const apart = 5

const edgeOf = (lines: ReadonlyArray<Line>): number => {
  const text = lines.filter((line) => line.charWidth === undefined)
  return Math.min(...(text.length > 0 ? text : lines).map((line) => line.x0))
}

/** Each column's first line after the page's first, with how far its edge stands right of the column before's. */
export const columnShifts = (lines: ReadonlyArray<Line>): Map<Line, number> => {
  const columns: Array<Array<Line>> = []
  let column: Array<Line> = []
  let left = Infinity
  for (const line of lines) {
    const previous = column[column.length - 1]
    const size = Math.max(line.size, previous?.size ?? 0)
    if (previous !== undefined && line.y < previous.y - rise * size && line.x0 > left + apart * size) {
      columns.push(column)
      column = []
      left = Infinity
    }
    column.push(line)
    left = Math.min(left, line.x0)
  }
  if (column.length > 0) columns.push(column)
  const shifts = new Map<Line, number>()
  columns.forEach((lines, i) => {
    if (i > 0) shifts.set(lines[0]!, edgeOf(lines) - edgeOf(columns[i - 1]!))
  })
  return shifts
}
