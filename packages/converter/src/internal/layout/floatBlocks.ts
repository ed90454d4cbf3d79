/**
 * A float set inside a paragraph cut by a page end: its labels, caption and table stay together, and
 * the paragraph goes on after them (`mergeBlocks.ts`).
 */
import type * as Document from "../../Document.js"
import { isCaption } from "./notHeadings.js"
import { normalizeText } from "./text.js"

/** "FIG. 1.", "FIGURE 2:", "TABLE II.". */
export const capitalCaption = /^(?:FIG\.|FIGURE|TABLE)\s+(?:\d+|[IVXLC]+)[.:]\s+\S/u

/** A figure's text drawn as type (axis labels, "(a)", "θ = 1"), a row of them joined, is at most this many words. */
const labelWords = 16

/** How many blocks a float's pieces may span before its caption. */
const labelRun = 60

const isCaptionBlock = (block: Document.Block): boolean => {
  if (block._tag !== "Paragraph") return false
  const text = normalizeText(block.text).trim()
  return isCaption(text) || capitalCaption.test(text)
}

/** A piece of a figure: a few words (symbols not counted) ending no sentence with a full stop. */
const isLabel = (block: Document.Block): boolean =>
  block._tag === "Paragraph" && (block.text.match(/[\p{L}\p{N}]+/gu) ?? []).length <= labelWords &&
  !/[.!?]$/u.test(block.text.trim()) && !isCaptionBlock(block)

const isFloat = (block: Document.Block | undefined): boolean =>
  block !== undefined && (block._tag === "Table" || block._tag === "Figure")

/**
 * How many blocks from `start` are one float: its images, tables and labels, then its caption and the
 * tables or images under it; a run of tables and images alone with no caption. 0: no float there.
 * `figure`: only a captioned figure counts (within a page, where a table may be the text's own).
 */
export const floatRun = (blocks: ReadonlyArray<Document.Block>, start: number, figure: boolean): number => {
  let i = start
  let labels = 0
  while (i < blocks.length && i - start < labelRun && (isFloat(blocks[i]) || isLabel(blocks[i]!))) {
    if (!isFloat(blocks[i])) labels++
    i++
  }
  if (i < blocks.length && isCaptionBlock(blocks[i]!)) {
    i++
    while (isFloat(blocks[i])) i++
    return figure && blocks.slice(start, i).some((block) => block._tag === "Table") ? 0 : i - start
  }
  // Without a caption, only tables and images are surely a float's.
  return labels === 0 && !figure ? i - start : 0
}
