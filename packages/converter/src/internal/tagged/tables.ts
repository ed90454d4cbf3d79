/** Tables of a tagged page: rows (in their head, body and foot) and cells placed by their spans. */
import type * as Document from "../../Document.js"
import type { Rich } from "../layout/inline.js"
import type { Line } from "../layout/model.js"
import { richOf } from "./content.js"
import type { Made, TagNode } from "./model.js"
import { isTablePart } from "./roles.js"

const emptyRich: Rich = { text: "", marks: [] }

/**
 * A table's grid: each cell's lines at its place, the places it spans left empty; other kids (a caption)
 * are given back to be read as the blocks they are.
 */
export const tableOf = (
  node: TagNode,
  linesOf: (cell: TagNode) => ReadonlyArray<Line>
): { readonly captions: ReadonlyArray<TagNode>; readonly make: Made<Document.Table | undefined> | undefined } => {
  const rows: Array<TagNode> = []
  const captions: Array<TagNode> = []
  const collect = (parent: TagNode) => {
    for (const kid of parent.kids) {
      if (typeof kid === "number") continue
      if (kid.role === "TR") rows.push(kid)
      else if (isTablePart(kid.role)) collect(kid)
      else if (kid.role !== "Artifact") captions.push(kid)
    }
  }
  collect(node)
  const grid: Array<Array<ReadonlyArray<Line> | undefined>> = []
  rows.forEach((row, r) => {
    grid[r] ??= []
    let column = 0
    for (const kid of row.kids) {
      if (typeof kid === "number" && kid >= 0) continue
      while (grid[r]![column] !== undefined) column++
      if (typeof kid === "number") {
        grid[r]![column++] = []
        continue
      }
      const lines = linesOf(kid)
      for (let dr = 0; dr < kid.rowSpan && r + dr < rows.length; dr++) {
        grid[r + dr] ??= []
        for (let dc = 0; dc < kid.colSpan; dc++) grid[r + dr]![column + dc] = dr === 0 && dc === 0 ? lines : []
      }
      column += kid.colSpan
    }
  })
  const width = Math.max(0, ...grid.map((row) => row.length))
  if (width === 0) return { captions, make: undefined }
  return {
    captions,
    make: (hyphenation) => {
      const cells = grid.map((row) =>
        Array.from({ length: width }, (_, i) => row[i] === undefined ? emptyRich : richOf(row[i]!, hyphenation))
      )
      // A table that holds no text (a cover's grid of images) lays the page out: no table to a reader.
      if (cells.every((row) => row.every((cell) => cell.text === ""))) return undefined
      const marked = cells.some((row) => row.some((cell) => cell.marks.length > 0))
      return {
        _tag: "Table",
        rows: cells.map((row) => row.map((cell) => cell.text)),
        ...(marked ? { marks: cells.map((row) => row.map((cell) => cell.marks)) } : {})
      }
    }
  }
}
