/** Layout: items -> lines -> reading order -> blocks, as pure functions (one rule a module under `layout/`). */
import type * as Document from "../Document.js"
import type { PageRules } from "./layout/blocks.js"
import { pageBlocks, pageBlocksCarried } from "./layout/blocks.js"
import { boundHeadings } from "./layout/boundHeadings.js"
import { bylines } from "./layout/bylines.js"
import { boldChapters, joinChapterLabels } from "./layout/chapterLabels.js"
import { floatsAfterText } from "./layout/columnFloats.js"
import { withContentsLines } from "./layout/contents.js"
import { deepHeadings } from "./layout/deepHeadings.js"
import type { OpenReferences } from "./layout/endnotes.js"
import { endNotes } from "./layout/endnotes.js"
import { figureLabels } from "./layout/figureLabels.js"
import { floatsAfterBreak } from "./layout/footFloats.js"
import type { Note } from "./layout/footnotes.js"
import { footNotes } from "./layout/footnotes.js"
import { hangingHeadings } from "./layout/hangingHeadings.js"
import {
  bodySize,
  documentTitle,
  headingLevels,
  lineRatio,
  matchOutline,
  numberDepth,
  numberingOffset,
  outlineSizeLevels,
  useOutline,
  withDocumentTitle
} from "./layout/headings.js"
import { collectWords } from "./layout/hyphens.js"
import { detectLanguage, languageSample } from "./layout/language.js"
import { largeBoldHeadings } from "./layout/largeBoldHeadings.js"
import type { ListBuilder } from "./layout/lists.js"
import { mergeSplitParagraphs } from "./layout/mergeBlocks.js"
import type { OrderedPage, OutlineEntry, PageText } from "./layout/model.js"
import { pageLines } from "./layout/model.js"
import { noteBlocks, placeNotes } from "./layout/noteBlocks.js"
import { notHeadings } from "./layout/notHeadings.js"
import { takeNotice } from "./layout/notices.js"
import { numberLevels } from "./layout/numberLevels.js"
import { orderPage } from "./layout/order.js"
import { pageEdges } from "./layout/pageEdges.js"
import { questionHeadings } from "./layout/questionHeadings.js"
import { removeRunningHeads } from "./layout/runningHeads.js"
import { joinSectionNumbers } from "./layout/sectionNumbers.js"
import { dropRepeatedBars } from "./layout/sideBars.js"
import { findSlideTitles, slideLevel, slideTitleLines } from "./layout/slideTitles.js"
import { smallHeadings } from "./layout/smallHeadings.js"
import { numberedHeadings, paragraphGap, spacedHeadings } from "./layout/spacedHeadings.js"
import { tableHeadings } from "./layout/tableHeadings.js"
import { tableNotes } from "./layout/tableNotes.js"
import { pageTitle, titleAbove } from "./layout/titleAbove.js"
import { underlinedHeadings } from "./layout/underlinedHeadings.js"
import { unlistedHeadingLevels } from "./layout/unlistedHeadings.js"
import { linesPage, taggedBlocks } from "./tagged/assemble.js"
import { appendTagged } from "./tagged/merge.js"
import type { TaggedPage } from "./tagged/page.js"
import { isTaggedPage } from "./tagged/page.js"
import { treeHeadingSizes } from "./tagged/paragraphHeadings.js"

export { detectLanguage } from "./layout/language.js"
export { mergeSplitParagraphs } from "./layout/mergeBlocks.js"
export type { OrderedPage, OutlineEntry, PageText, PlacedFigure, TextItem } from "./layout/model.js"
export { orderPage } from "./layout/order.js"
export { hasText, isBetterReading, isJunkTextLayer } from "./layout/quality.js"
export { joinLines } from "./layout/text.js"

export interface LayoutInput {
  /** Pages as read or ordered (`orderPage`); emptied as they are laid out, so each page's lines are freed early. */
  readonly pages: Array<PageText | OrderedPage | TaggedPage>
  readonly outline: ReadonlyArray<OutlineEntry>
  readonly title: string | undefined
  readonly filename: string | undefined
}

/** The text of the first blocks, as much as the language guess reads (never a whole long document's). */
const plainText = (blocks: ReadonlyArray<Document.Block>): string => {
  const parts: Array<string> = []
  let length = 0
  for (const block of blocks) {
    if (length >= languageSample) break
    const text = block._tag === "Paragraph" || block._tag === "Heading" || block._tag === "Term"
      ? block.text
      : block._tag === "List"
      ? block.items.map((item) => item.text).join(" ")
      : ""
    parts.push(text)
    length += text.length + 1
  }
  return parts.join(" ")
}

/** The text of every line, page by page, in reading order. */
function* lineTexts(pages: ReadonlyArray<OrderedPage>): Generator<string> {
  for (const page of pages) {
    for (const item of page.items) if (item._tag === "Line") yield item.line.text
  }
}

/** A document laid out, and the text of the running heads and folios that were removed from it. */
export interface Layout {
  readonly document: Document.Document
  readonly removedLines: ReadonlyArray<string>
}

/** Reading order, headers/footers, headings, paragraphs, lists and tables for the whole document. */
export const layoutDocument = (input: LayoutInput): Document.Document => layout(input).document

/** `layoutDocument`, with the running heads it removed. */
export const layout = (input: LayoutInput): Layout => {
  const pageCount = input.pages.length
  // A page after one that ends in a contents is read with it going on (`contents`), as `readPages` does.
  let goesOn = false
  const all = input.pages.splice(0).map((page) => {
    const ordered = "width" in page ? orderPage(goesOn ? { ...page, contentsGoesOn: true } : page) : page
    goesOn = !isTaggedPage(ordered) && ordered.contentsOpen === true
    return ordered
  })
  // A page read from its structure tree has its elements' lines measured with the rest.
  const heads = removeRunningHeads(all.map((page) => isTaggedPage(page) ? linesPage(page) : page))
  const bars = dropRepeatedBars(heads.pages)
  const pages = bars.pages
  const removed = [...heads.removed, ...bars.removed]
  const body = bodySize(withContentsLines(pages))
  const notes = new Map<number, ReadonlyArray<Note>>()
  const references: OpenReferences = new Map()
  const notices: Array<OrderedPage> = []
  for (let i = 0; i < pages.length; i++) {
    // A tagged page's notes are its structure tree's.
    if (isTaggedPage(all[i]!)) continue
    const foot = footNotes(pages[i]!, body, notes.has(pages[i - 1]?.page ?? -1))
    const end = endNotes(foot.page, body, references, foot.notes)
    const notice = takeNotice(joinChapterLabels(joinSectionNumbers(end.page, body), body), body)
    pages[i] = floatsAfterBreak(floatsAfterText(notice.page, body), body)
    if (notice.lines.length > 0) {
      notices.push({ ...notice.page, items: notice.lines.map((line) => ({ _tag: "Line", line })) })
    }
    if (foot.notes.length + end.notes.length > 0) notes.set(end.page.page, [...end.notes, ...foot.notes])
  }
  const outline = useOutline(input.outline) ? input.outline : []
  // Contents pages count in the document's measures as the lines they were (outline titles match body lines).
  const read = withContentsLines(pages)
  const outlined = matchOutline(pages, outline)
  const sized = outline.length > 0 ? outlineSizeLevels(outlined.lines, read, body) : headingLevels(read, body)
  const tagged = outline.length > 0 && all.some(isTaggedPage)
  const matched = withDocumentTitle(outlined, documentTitle(read, outlined.lines, body, tagged))
  // Sizes found by the outline's levels go one deeper under a title it leaves out.
  const deeper = matched === outlined
    ? sized
    : new Map([...sized].map(([size, level]) => [size, Math.min(6, level + 1)] as const))
  const ratio = lineRatio(read, body)
  const numbered = outline.length === 0 ? numberedHeadings(read, body) : deepHeadings(read, matched.lines, ratio)
  const numberOffset = numberingOffset(matched.lines)
  const outlineDepth = outline.reduce((max, entry) => Math.max(max, entry.level), 0) + (matched === outlined ? 0 : 1)
  const titleDepth = [...numbered].reduce(
    (max, line) => Math.max(max, (numberDepth(line.text) ?? 0) + numberOffset),
    outlineDepth
  )
  const levels = outline.length > 0 ? unlistedHeadingLevels(read, body, deeper, titleDepth) : deeper
  const treePages = new Set(all.filter(isTaggedPage).map((page) => page.page))
  const slides = findSlideTitles(read, (page) => treePages.has(page.page))
  const headingLines = slides === undefined
    ? matched.lines
    : new Map([
      ...matched.lines,
      ...slideTitleLines(slides, matched.lines, slideLevel(slides.size, levels, outlineDepth))
    ])
  const gap = paragraphGap(read, body, ratio)
  const rules: PageRules = {
    body,
    lineRatio: ratio,
    levels,
    underSizes: new Set([...levels.keys()].filter((size) => size < body && !deeper.has(size))),
    outlineLines: headingLines,
    sizeLevels: { active: outline.length === 0 },
    // An outlined document's headings are its outline's (and larger sizes): bold lines stay text.
    spaced: outline.length === 0
      ? new Set([
        ...spacedHeadings(read, body, gap),
        ...tableHeadings(read, body),
        ...boundHeadings(read, body, ratio),
        ...underlinedHeadings(read, body),
        ...hangingHeadings(read, body)
      ])
      : new Set(),
    spacedLevel: Math.min(6, levels.size + 1),
    chapters: outline.length === 0 ? boldChapters(read, body) : new Set(),
    numbered,
    small: outline.length === 0
      ? new Map([
        ...largeBoldHeadings(read, body),
        ...smallHeadings(read, body, gap, ratio),
        ...[...questionHeadings(read, body, gap)].map((line) => [line, 0] as const)
      ])
      : new Map(),
    numberOffset,
    plain: new Set([...notHeadings(read), ...bylines(read, body), ...figureLabels(read)]),
    hyphenation: collectWords(lineTexts(read))
  }
  const paperTitle = outline.length === 0 ? pageTitle(pages, body) : undefined
  const headingSizes = treeHeadingSizes(all.filter(isTaggedPage))
  const blocks: Array<Document.Block> = []
  const edges = pageEdges(pages, body)
  // The list a page ended with, which the next page's first line may go on with.
  let openList: { readonly builder: ListBuilder; readonly index: number; readonly edge: number | undefined } | undefined
  // A tagged page's artifacts are reported once, as the page's own, whether the rule found them or not.
  const artifacts = new Set(all.flatMap((page) => isTaggedPage(page) ? page.artifacts : []))
  const removedLines = removed.flatMap((line) => artifacts.has(line) ? [] : [line.text])
  let open: Array<number> = []
  // The page before's last note, which a note of the next page may go on.
  let lastNote: { readonly index: number; readonly note: Document.Footnote } | undefined
  // Each page leaves the arrays as its blocks are built: its lines are garbage from then on.
  for (let next = all.shift(); next !== undefined; next = all.shift()) {
    const page = pages.shift()!
    blocks.push({ _tag: "PageBreak", page: page.page })
    const carried = openList
    openList = undefined
    if (isTaggedPage(next)) {
      open = appendTagged(blocks, taggedBlocks(next, new Set(pageLines(page)), rules, headingSizes), open)
      removedLines.push(...next.artifacts.map((line) => line.text))
      continue
    }
    open = []
    const edge = edges.get(page.page)
    if (carried !== undefined && carried.edge !== undefined && edge !== undefined) {
      carried.builder.shift(edge - carried.edge)
    }
    const made = pageBlocksCarried(page, rules, matched.missing.get(page.page) ?? [], carried?.builder)
    if (made.continued) blocks[carried!.index] = made.blocks[0]!
    const index = blocks.length + made.blocks.length - 1 - (made.continued ? 1 : 0)
    blocks.push(...(made.continued ? made.blocks.slice(1) : made.blocks))
    openList = made.open === undefined
      ? undefined
      : { builder: made.open, index: made.continued && made.blocks.length === 1 ? carried!.index : index, edge }
    const madeNotes = noteBlocks(notes.get(page.page) ?? [], lastNote?.note, rules.hyphenation)
    if (madeNotes.replaced !== undefined && lastNote !== undefined) blocks[lastNote.index] = madeNotes.replaced
    blocks.push(...madeNotes.blocks)
    const last = madeNotes.blocks[madeNotes.blocks.length - 1]
    lastNote = last !== undefined
      ? { index: blocks.length - 1, note: last }
      : madeNotes.replaced !== undefined && lastNote !== undefined
      ? { index: lastNote.index, note: madeNotes.replaced }
      : undefined
  }
  // A page's foot notice is read after the text, where it interrupts no sentence.
  const merged = titleAbove(
    numberLevels(placeNotes([
      ...tableNotes(mergeSplitParagraphs(blocks, rules.hyphenation)),
      ...notices.flatMap((page) => pageBlocks(page, rules, []))
    ])),
    paperTitle
  )
  const firstHeading = merged.find((block): block is Document.Heading => block._tag === "Heading")
  const title = [input.title, input.filename, firstHeading?.text].map((t) => t?.trim() ?? "").find((t) => t !== "")
  return {
    document: {
      title: title ?? "Untitled",
      language: detectLanguage(plainText(merged)),
      blocks: merged,
      pages: pageCount
    },
    removedLines
  }
}
