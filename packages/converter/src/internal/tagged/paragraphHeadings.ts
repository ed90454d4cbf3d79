/**
 * Headings the structure tree tags as paragraphs: a P whose first line is set alone in the bold face and
 * size of the tree's own headings, over its text (a title typed in a word processor's body style, then
 * made to look like the headings around it).
 */
import type * as Document from "../../Document.js"
import { allBold } from "../layout/headings.js"
import { heaviest } from "../layout/lines.js"
import type { Line } from "../layout/model.js"
import { Style } from "../layout/model.js"
import type { TaggedPage } from "./page.js"

/** Larger than the body by this share at least: a bold line at the body's size is a lead-in, not a title. */
const minRatio = 1.05
const maxChars = 120

/** Each size the tree's bold headings are set in, with the level most of them have. */
export const treeHeadingSizes = (pages: ReadonlyArray<TaggedPage>): Map<number, number> => {
  const counts = new Map<number, Map<number, number>>()
  for (const page of pages) {
    for (const unit of page.units) {
      if (unit._tag !== "Block" || unit.heading === undefined) continue
      const { level, line } = unit.heading
      if (!allBold(line.text, line.marks ?? [])) continue
      const byLevel = counts.get(line.size) ?? new Map<number, number>()
      byLevel.set(level, (byLevel.get(level) ?? 0) + 1)
      counts.set(line.size, byLevel)
    }
  }
  return new Map([...counts].map(([size, byLevel]) => [size, heaviest(byLevel)]))
}

/** An element's blocks, its first made a heading when its one line is in a tree heading's face over more text. */
export const leadHeading = (
  lines: ReadonlyArray<Line>,
  blocks: Array<Document.Block>,
  sizes: ReadonlyMap<number, number>,
  body: number
): Array<Document.Block> => {
  const first = lines[0]
  const block = blocks[0]
  if (first === undefined || block?._tag !== "Paragraph" || blocks.length < 2 || first.size < body * minRatio) {
    return blocks
  }
  const level = [...sizes].find(([size]) => Math.abs(size - first.size) < 0.25)?.[1]
  const text = block.text.trim()
  if (
    level === undefined || text !== first.text.trim() || text.length > maxChars || /[.:;,]$/.test(text) ||
    !allBold(block.text, block.marks ?? [])
  ) return blocks
  // That a heading is bold goes without saying; its other styles stay.
  const marks = (block.marks ?? []).flatMap((mark) =>
    (mark.style & ~Style.strong) === 0 ? [] : [{ ...mark, style: mark.style & ~Style.strong }]
  )
  return [{ _tag: "Heading", level, text: block.text, ...(marks.length > 0 ? { marks } : {}) }, ...blocks.slice(1)]
}
