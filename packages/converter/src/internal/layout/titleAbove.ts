/** A paper's title above its numbered sections, which troff sets in bold at the text's size (levels from 1). */
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

/** Headings after the first page's title go deeper when numbered ones stand at its level or above. */
export const titleAbove = (
  blocks: ReadonlyArray<Document.Block>,
  title: string | undefined
): Array<Document.Block> => {
  const at = blocks.findIndex((block) => block._tag === "Heading")
  const first = blocks[at]
  if (title === undefined || first?._tag !== "Heading" || !normalizeText(first.text).trim().startsWith(title)) {
    return [...blocks]
  }
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
