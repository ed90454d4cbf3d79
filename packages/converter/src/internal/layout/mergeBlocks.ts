/**
 * Blocks rejoined across pages and figures: a paragraph, listing, list or table cut by a page end
 * goes on in the next block of its kind.
 */
import type * as Document from "../../Document.js"
import type { Hyphenation } from "./hyphens.js"
import type { Rich } from "./inline.js"
import { joinRich } from "./inline.js"
import { extendLastItem, lastItemText } from "./lists.js"
import { continuesTable, mergeTables } from "./tables.js"
import { endsSentence, lowerStart } from "./text.js"

const paragraphRich = (block: Document.Paragraph): Rich => ({ text: block.text, marks: block.marks ?? [] })

const paragraphOf = (rich: Rich): Document.Paragraph => ({
  _tag: "Paragraph",
  text: rich.text,
  ...(rich.marks.length > 0 ? { marks: rich.marks } : {})
})

/** Whether `next` goes on with `open` after a page end: a paragraph going on, a listing, a list or its last item. */
const continues = (open: Document.Block, next: Document.Block): boolean => {
  if (open._tag === "Paragraph" && next._tag === "Paragraph") {
    return !endsSentence(open.text) && lowerStart.test(next.text)
  }
  if (open._tag === "List" && next._tag === "Paragraph") {
    const text = lastItemText(open)
    return text !== undefined && !endsSentence(text) && lowerStart.test(next.text)
  }
  if (open._tag === "Code" && next._tag === "Code") return true
  if (open._tag === "Table" && next._tag === "Table") return continuesTable(open, next)
  if (open._tag === "List" && next._tag === "List") {
    return open.ordered === next.ordered && (!open.ordered || next.start === open.start + open.items.length)
  }
  return false
}

const merge = (open: Document.Block, next: Document.Block, hyphenation: Hyphenation | undefined): Document.Block => {
  if (open._tag === "Paragraph" && next._tag === "Paragraph") {
    return paragraphOf(joinRich(paragraphRich(open), paragraphRich(next), false, hyphenation))
  }
  if (open._tag === "Code" && next._tag === "Code") return { _tag: "Code", text: `${open.text}\n${next.text}` }
  if (open._tag === "Table" && next._tag === "Table") return mergeTables(open, next)
  if (open._tag === "List" && next._tag === "List") return { ...open, items: [...open.items, ...next.items] }
  if (open._tag === "List" && next._tag === "Paragraph") return extendLastItem(open, paragraphRich(next), hyphenation)
  return open
}

/**
 * A paragraph, listing, list or table cut by a page end or a figure goes on in the next block of its
 * kind (`tables.ts` for tables); the page breaks, figures and footnotes between stay, after it.
 */
export const mergeSplitParagraphs = (
  blocks: ReadonlyArray<Document.Block>,
  hyphenation?: Hyphenation
): Array<Document.Block> => {
  const out: Array<Document.Block> = []
  let open: { index: number; interrupted: boolean } | undefined
  for (const block of blocks) {
    if (block._tag === "PageBreak" || block._tag === "Figure" || block._tag === "Footnote") {
      out.push(block)
      if (open !== undefined) open.interrupted = true
      continue
    }
    // Only across a page end or a figure: within a page, the gaps already told blocks apart.
    if (open !== undefined && open.interrupted && continues(out[open.index]!, block)) {
      out[open.index] = merge(out[open.index]!, block, hyphenation)
      continue
    }
    out.push(block)
    open = block._tag === "Paragraph" || block._tag === "Code" || block._tag === "List" || block._tag === "Table"
      ? { index: out.length - 1, interrupted: false }
      : undefined
  }
  return out
}
