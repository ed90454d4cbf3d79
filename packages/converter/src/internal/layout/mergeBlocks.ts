/**
 * Blocks rejoined across pages and figures: a paragraph, listing, list or table cut by a page end
 * goes on in the next block of its kind.
 */
import type * as Document from "../../Document.js"
import { floatRun } from "./floatBlocks.js"
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

/** A sentence going on: a lower-case word, or one in brackets or quotes. */
const goesOn = /^[([\u2018\u201C"']?\p{Ll}/u

/** Chinese and Japanese have no case: a page cut between two ideographs or kana is a sentence going on. */
const cjkLetter = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u

const cutBetweenIdeographs = (open: string, next: string): boolean =>
  cjkLetter.test(open.trimEnd().slice(-1)) && cjkLetter.test(next.slice(0, 1))

/** A table's caption repeated over its rest on the next page: "Table 1 RPT Mappings (continued)". */
const continuedCaption = /^.{0,80}\b(?:continued|cont'd|cont\.)\)?\.?$/i

/** Whether `next` goes on with `open` after a page end: a paragraph going on, a listing, a list or its last item. */
const continues = (open: Document.Block, next: Document.Block): boolean => {
  if (open._tag === "Paragraph" && next._tag === "Paragraph") {
    return !endsSentence(open.text) && (goesOn.test(next.text) || cutBetweenIdeographs(open.text, next.text))
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

/** A paragraph or a list item its page end cut before the end of its sentence. */
const unfinished = (block: Document.Block): boolean => {
  if (block._tag === "Paragraph") return !endsSentence(block.text)
  if (block._tag !== "List") return false
  const text = lastItemText(block)
  return text !== undefined && !endsSentence(text)
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
 * kind (`tables.ts` for tables); the page breaks, figures and footnotes between stay, after it, and so
 * does a float (`floatBlocks.ts`) set inside an unfinished sentence, with its labels and caption.
 */
export const mergeSplitParagraphs = (
  blocks: ReadonlyArray<Document.Block>,
  hyphenation?: Hyphenation
): Array<Document.Block> => {
  const out: Array<Document.Block> = []
  let open: { index: number; interrupted: boolean } | undefined
  // A table set as a float inside the open paragraph, which may go on over the page end as well.
  let floatTable: { index: number; paged: boolean } | undefined
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!
    if (block._tag === "PageBreak" || block._tag === "Figure" || block._tag === "Footnote") {
      out.push(block)
      if (open !== undefined) open.interrupted = true
      if (floatTable !== undefined && block._tag === "PageBreak") floatTable.paged = true
      continue
    }
    const table = floatTable !== undefined && floatTable.paged ? out[floatTable.index] : undefined
    if (table?._tag === "Table" && block._tag === "Table" && continuesTable(table, block)) {
      out[floatTable!.index] = mergeTables(table, block)
      continue
    }
    const run = open !== undefined && unfinished(out[open.index]!) ? floatRun(blocks, i, !open.interrupted) : 0
    if (run > 0) {
      const float = blocks.slice(i, i + run)
      out.push(...float)
      const last = float.map((other) => other._tag).lastIndexOf("Table")
      floatTable = last >= 0 ? { index: out.length - run + last, paged: false } : floatTable
      open!.interrupted = true
      i += run - 1
      continue
    }
    // A caption marked "(continued)" over the rest of the open table after a page end is no block of its own.
    const after = blocks[i + 1]
    const host = open !== undefined && open.interrupted ? out[open.index] : undefined
    if (
      block._tag === "Paragraph" && continuedCaption.test(block.text) && host?._tag === "Table" &&
      after?._tag === "Table" && continuesTable(host, after)
    ) continue
    // Only across a page end or a figure: within a page, the gaps already told blocks apart.
    if (open !== undefined && open.interrupted && continues(out[open.index]!, block)) {
      out[open.index] = merge(out[open.index]!, block, hyphenation)
      continue
    }
    out.push(block)
    floatTable = undefined
    open = block._tag === "Paragraph" || block._tag === "Code" || block._tag === "List" || block._tag === "Table"
      ? { index: out.length - 1, interrupted: false }
      : undefined
  }
  return out
}
