/**
 * A paper's title stands above its numbered sections: troff's and plain TeX's section titles are set in
 * bold at the text's size, so their numbers give them levels from 1, where the larger title already is.
 */
import type * as Document from "../../Document.js"
import { isHeadingCandidate, withoutReferences } from "./headings.js"
import type { OrderedPage } from "./model.js"
import { pageLines } from "./model.js"
import { normalizeText } from "./text.js"

const sectionNumber = /^\d{1,2}(?:\.\d{1,2})*\.?\s+\p{L}/u

/** Fewer numbered headings than this are too few to call a document's sections numbered. */
const minNumbered = 3

/** The start of the first page's largest line, when it is set as a heading is: the title a heading begins with. */
export const pageTitle = (pages: ReadonlyArray<OrderedPage>, body: number): string | undefined => {
  const page = pages.find((page) => pageLines(page).length > 0)
  if (page === undefined) return undefined
  const lines = pageLines(page)
  const size = Math.max(...lines.map((line) => line.size))
  const line = lines.find((line) => line.size === size)
  if (line === undefined || !isHeadingCandidate(line, body)) return undefined
  const text = normalizeText(withoutReferences(line)).trim()
  return text === "" ? undefined : text
}

/**
 * When the document's first heading is its first page's title and numbered headings after it stand at
 * its level or above, every heading after the title goes as much deeper (their order of levels kept, none
 * past level 6).
 */
export const titleAbove = (
  blocks: ReadonlyArray<Document.Block>,
  title: string | undefined
): Array<Document.Block> => {
  const at = blocks.findIndex((block) => block._tag === "Heading")
  const first = blocks[at]
  if (title === undefined || first?._tag !== "Heading" || !normalizeText(first.text).trim().startsWith(title)) {
    return [...blocks]
  }
  // The title is on the first page: no page break comes between the document's start and it.
  if (blocks.slice(0, at).filter((block) => block._tag === "PageBreak").length > 1) return [...blocks]
  const numbered = blocks.slice(at + 1).flatMap((block) =>
    block._tag === "Heading" && sectionNumber.test(block.text) ? [block.level] : []
  )
  if (numbered.length < minNumbered) return [...blocks]
  const shift = first.level - Math.min(...numbered) + 1
  const deepest = Math.max(...blocks.slice(at + 1).map((block) => block._tag === "Heading" ? block.level : 0))
  // A shift past level 6 would set different levels alike: the title is then no paper's.
  if (shift <= 0 || deepest + shift > 6) return [...blocks]
  return blocks.map((block, index) =>
    index > at && block._tag === "Heading" ? { ...block, level: block.level + shift } : block
  )
}
