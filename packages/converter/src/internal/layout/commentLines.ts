/** Whole-line comments of a listing, set in the text face after a comment sign in the code face (texinfo's `@r{}`). */
import type { Line, PageItem } from "./model.js"
import { Style } from "./model.js"

const commentSign = /^(?:#+|\/\/+|\/\*|--|;+|%+)$/

/** A comment sign alone in the code face, then text in another face. */
const isCommentLine = (line: Line): boolean => {
  const first = line.marks?.[0]
  return line.charWidth === undefined && first !== undefined && first.start === 0 &&
    (first.style & Style.code) !== 0 && first.end < line.text.length &&
    commentSign.test(line.text.slice(0, first.end).trim())
}

/** Whether `code` is a listing's line just above or below `line`, at its margin or left of it. */
const besideInListing = (line: Line, code: Line | undefined): code is Line =>
  code !== undefined && code.charWidth !== undefined && Math.abs(code.y - line.y) <= 1.6 * line.size &&
  Math.abs(code.y - line.y) > 0.5 * line.size && code.x0 <= line.x0 + 0.5 * line.size

/** Comment lines next to a listing's line (or to one that is) made code lines, not sentences with a code span. */
export const listingComments = (items: ReadonlyArray<PageItem>): ReadonlyArray<PageItem> => {
  const lines = items.map((item) => item._tag === "Line" ? item.line : undefined)
  let changed = true
  let any = false
  while (changed) {
    changed = false
    lines.forEach((line, i) => {
      if (line === undefined || !isCommentLine(line)) return
      const code = [lines[i - 1], lines[i + 1]].find((other) => besideInListing(line, other))
      if (code === undefined) return
      lines[i] = { ...line, charWidth: code.charWidth }
      changed = true
      any = true
    })
  }
  return any ? items.map((item, i) => item._tag === "Line" ? { _tag: "Line", line: lines[i]! } : item) : items
}
