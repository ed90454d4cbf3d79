/** Lines of one page -> blocks: headings, paragraphs, lists, code (rejoined across pages in `mergeBlocks.ts`). */
import type * as Document from "../../Document.js"
import { CodeBuilder } from "./code.js"
import { columnShifts } from "./columnShifts.js"
import { listingComments } from "./commentLines.js"
import type { OutlinedLine } from "./headings.js"
import {
  boldNumberedLevel,
  headingMaxChars,
  isHeadingCandidate,
  italicNumberedLevel,
  numberDepth,
  outlinedTitle
} from "./headings.js"
import type { Rich } from "./inline.js"
import { joinRich, richLine, trimRich } from "./inline.js"
import { headingOf, outlineHeading, passageOf, termOf } from "./lineBlocks.js"
import type { ListLabel, ListMarker } from "./lists.js"
import { bulleted, labelRuns, ListBuilder, listMarker } from "./lists.js"
import type { Line, OrderedPage, OutlineEntry } from "./model.js"
import type { PageRules } from "./pageRules.js"
import { levelOf, numberedLevel, smallLevel } from "./pageRules.js"
import { panelListings } from "./panelCode.js"
import { beside, breaksBefore, closedCode, fullStop } from "./paragraphBreaks.js"
import { endsSentence } from "./text.js"
import { startsInCode, textFaceListings } from "./textFaceCode.js"

export { listMarker } from "./lists.js"
export type { PageRules } from "./pageRules.js"

/** In font sizes: a numbered line indented this much under the line above is not that line's sentence going on. */
const numberIndent = 0.5

/** The block being built from one page's lines, one line at a time. */
class PageBlocks {
  readonly blocks: Array<Document.Block> = []
  private paragraph: { rich: Rich; maxX1: number; lines: number } | undefined
  private list: ListBuilder | undefined
  private code: CodeBuilder | undefined
  /** Whether `code` is a listing of the open list's last item. */
  private itemCode = false
  private heading: { level: number; rich: Rich; lines: number; fromOutline: boolean } | undefined
  /** The left edge of the definition being read after its terms: a line left of it ends the definition. */
  private definitionX0: number | undefined
  /** A term found beside its definition, and the listing it is again if the definition's next line is left of it. */
  private besideTerm: { readonly index: number; readonly code: CodeBuilder } | undefined
  private previous: Line | undefined
  private readonly pendingMissing: Array<OutlineEntry>
  /** Whether the page's first block is the list the page before left open, grown. */
  continued = false
  /** The last list built, and where. */
  lastList: { readonly builder: ListBuilder; readonly index: number } | undefined

  constructor(
    private readonly rules: PageRules,
    missing: ReadonlyArray<OutlineEntry>,
    private readonly textStarts: ReadonlyArray<number>,
    private readonly labels: ReadonlyMap<Line, ListLabel>,
    private carried: ListBuilder | undefined,
    private readonly columns: ReadonlyMap<Line, number>
  ) {
    this.pendingMissing = [...missing].sort((a, b) => (a.top ?? 0) - (b.top ?? 0))
  }

  flush(): void {
    this.endItemCode()
    if (this.paragraph !== undefined && this.paragraph.rich.text.trim() !== "") {
      const rich = trimRich(this.paragraph.rich)
      const lines = this.paragraph.lines
      const depth = boldNumberedLevel(rich.text, rich.marks, lines) ?? italicNumberedLevel(rich.text, rich.marks, lines)
      const level = depth === undefined ? undefined : Math.min(6, depth + this.rules.numberOffset)
      this.blocks.push(
        level !== undefined
          ? headingOf(level, rich)
          : { _tag: "Paragraph", text: rich.text, ...(rich.marks.length > 0 ? { marks: rich.marks } : {}) }
      )
    }
    if (this.list !== undefined) {
      this.lastList = { builder: this.list, index: this.blocks.length }
      this.blocks.push(this.list.build())
    }
    if (this.code !== undefined) this.blocks.push(this.code.build())
    if (this.heading !== undefined) {
      // A "heading" this long is a large-print passage (an author list, a lead), not a title.
      const rich = trimRich(this.heading.rich)
      this.blocks.push(rich.text.length > headingMaxChars ? passageOf(rich) : headingOf(this.heading.level, rich))
    }
    // The definition ends with its first block (a new paragraph was not begun yet when it is undefined).
    if (this.paragraph !== undefined || this.list !== undefined || this.heading !== undefined) {
      this.definitionX0 = undefined
      this.besideTerm = undefined
    }
    this.paragraph = undefined
    this.list = undefined
    this.code = undefined
    this.heading = undefined
  }

  /** Outline titles with no visible line go where their destination's top says (before `y`). */
  insertMissing(y: number): void {
    const pending = this.pendingMissing
    while (pending.length > 0 && (pending[0]!.top === undefined || pending[0]!.top <= y)) {
      this.flush()
      this.blocks.push(outlineHeading(pending.shift()!))
    }
  }

  /** The outline titles never reached by a line (below the last one, or a page without text). */
  finish(): Array<Document.Block> {
    this.flush()
    this.blocks.push(...this.pendingMissing.map(outlineHeading))
    return this.blocks
  }

  block(block: Document.Block, y: number | undefined): void {
    if (y !== undefined) this.insertMissing(y)
    this.flush()
    this.blocks.push(block)
    this.previous = undefined
  }

  line(line: Line): void {
    this.insertMissing(line.y)
    const outlined = this.rules.outlineLines.get(line)
    // Lines between a title and the first section (authors, a date) are not headings by their size.
    if (outlined !== undefined && outlined.documentTitle !== true) this.rules.sizeLevels.active = true
    const level = outlined?.level ?? (this.rules.plain.has(line) ? undefined : this.styledLevel(line))
    if (level !== undefined) return this.headingLine(line, level, outlined)
    if (this.carried !== undefined) this.takeCarried(line)
    // A list goes on at the next column's top as at the next page's.
    const shift = this.columns.get(line)
    if (shift !== undefined) this.list?.shift(shift)
    if (this.heading !== undefined) {
      this.flush()
      this.previous = undefined
    }
    const previous = this.previous
    const breaks = previous === undefined ||
      breaksBefore(previous, line, this.paragraph?.maxX1, this.rules.lineRatio)
    this.previous = line
    const sameBaseline = previous !== undefined && beside(previous, line)
    // A fixed-pitch line indented past the line above starts a listing even without a gap; so does a
    // text-face listing's line indented by its em (TeX's, less a glyph's side bearing).
    const indent = line.charWidth !== undefined && !startsInCode(line) ? 0.8 : 1
    const indented = previous !== undefined && !sameBaseline && line.x0 > previous.x0 + indent * line.size
    // So does one under a line that ends in a colon: it is what the colon announces.
    const announced = previous !== undefined && !sameBaseline && previous.text.trimEnd().endsWith(":")
    // So does a displayed one, announced by a colon, that the sentence's full stop closes.
    const closed = indented && announced ? closedCode(line) : undefined
    if (closed !== undefined) return this.codeLine(closed)
    // Code that a justified line's wide spaces cut from the sentence it is set in goes on with the sentence.
    const inSentence = sameBaseline && !breaks && (this.paragraph !== undefined || this.list !== undefined)
    if (
      line.charWidth !== undefined && !inSentence &&
      (breaks || indented || announced || this.code !== undefined || this.paragraph === undefined)
    ) {
      return this.codeLine(line)
    }
    if (this.itemCode && this.code?.termsBefore(line) === undefined) this.endItemCode()
    if (this.code !== undefined) {
      // Terms in the code face over an indented definition are text with code spans, not a listing.
      const code = this.code
      const found = code.termsBefore(line)
      const isBeside = found !== undefined && beside(found[found.length - 1]!, line)
      // A definition starts where other lines of the page start (the list's indent), or under its term
      // is a sentence: a table's header or a note set right under a listing is neither.
      const shared = this.textStarts.filter((x) => Math.abs(x - line.x0) <= 0.5 * line.size).length >= 2
      const terms = shared || (!isBeside && fullStop.test(line.text)) ? found : undefined
      if (terms !== undefined) this.code = undefined
      this.flush()
      for (const term of terms ?? []) this.blocks.push(termOf(trimRich(richLine(term))))
      if (terms !== undefined) {
        this.definitionX0 = line.x0
        this.besideTerm = isBeside ? { index: this.blocks.length - 1, code } : undefined
      }
    }
    const marker = listMarker(line.text, line.marks, this.labels.get(line))
    // A number indented under a line (a block's title, a lead-in) starts an item, as one after a sentence does.
    const under = previous !== undefined && !sameBaseline && line.x0 > previous.x0 + numberIndent * line.size
    const startsItem = marker !== undefined && this.list?.wraps(line, marker) !== true &&
      (!marker.ordered || this.list !== undefined || this.paragraph === undefined || breaks ||
        endsSentence(previous!.text) || under)
    if (startsItem) this.listItem(line, marker, breaks && previous !== undefined && line.y - previous.y > line.size * 3)
    else if (!this.listContinuation(line, previous, sameBaseline)) {
      this.paragraphLine(line, previous, breaks, sameBaseline)
    }
  }

  /** The list the page before left open goes on when the page's first line does. */
  private takeCarried(line: Line): void {
    const carried = this.carried!
    this.carried = undefined
    const first = this.blocks.length === 0 && this.heading === undefined && this.previous === undefined
    if (
      first && line.charWidth === undefined &&
      carried.goesOn(line, listMarker(line.text, line.marks, this.labels.get(line)))
    ) {
      this.list = carried
      this.continued = true
    }
  }

  /** A heading's level by the line's size or weight (not the outline's). */
  private styledLevel(line: Line): number | undefined {
    // A bulleted line at a heading's size is an item: an outline's heading size can be the items' too.
    const sized = this.rules.sizeLevels.active && !bulleted(line) &&
      (isHeadingCandidate(line, this.rules.body) || this.rules.underSizes?.has(line.size) === true)
    return (sized
      ? this.rules.levels.get(line.size)
      : undefined) ??
      (this.rules.chapters?.has(line) === true ? levelOf(1, this.rules) : undefined) ??
      (this.rules.spaced.has(line) ? numberedLevel(line.text, this.rules) ?? this.rules.spacedLevel : undefined) ??
      (this.rules.numbered.has(line) ? levelOf(numberDepth(line.text), this.rules) : undefined) ??
      smallLevel(line, this.rules)
  }

  private codeLine(line: Line): void {
    if (this.code?.add(line) === true) return
    this.endItemCode()
    this.itemCode = this.code === undefined && this.list?.holds(line) === true
    if (!this.itemCode) this.flush()
    this.code = new CodeBuilder(line)
  }

  private endItemCode(): void {
    if (this.itemCode && this.code !== undefined) this.list?.attach(this.code.build())
    if (this.itemCode) this.code = undefined
    this.itemCode = false
  }

  private headingLine(line: Line, level: number, outlined: OutlinedLine | undefined): void {
    const previous = this.previous
    this.previous = line
    const heading = this.heading
    if (outlined !== undefined && !outlined.first && heading !== undefined) return
    const continues = outlined === undefined && heading !== undefined && !heading.fromOutline &&
      heading.level === level && heading.lines < 3 && previous !== undefined &&
      line.y > previous.y && line.y - previous.y < line.size * 2
    if (continues) {
      heading.rich = joinRich(heading.rich, richLine(line), false, this.rules.hyphenation)
      heading.lines++
      return
    }
    this.flush()
    // An outline's title is not the line's text: only the note references ending the line are kept.
    const rich = outlined !== undefined ? outlinedTitle(line, outlined.title) : richLine(line)
    this.heading = { level: Math.min(6, level), rich, lines: 1, fromOutline: outlined !== undefined }
  }

  private listItem(line: Line, marker: ListMarker, farBelow: boolean): void {
    if (this.list !== undefined && !farBelow && this.list.item(line, marker)) return
    this.flush()
    this.list = new ListBuilder(line, marker, this.rules.hyphenation)
  }

  /** A hanging-indented line, or one close below an unfinished item, goes on with the item. */
  private listContinuation(line: Line, previous: Line | undefined, sameBaseline: boolean): boolean {
    if (this.list === undefined) return false
    if (sameBaseline) {
      // A piece of the line before, not where the item's wrapped lines start.
      this.list.beside(line)
      return true
    }
    const closeBelow = previous !== undefined && line.y > previous.y && line.y - previous.y < line.size * 1.6
    if (this.list.continuation(line, closeBelow)) return true
    this.flush()
    return false
  }

  private paragraphLine(line: Line, previous: Line | undefined, breaks: boolean, besidePrevious: boolean): void {
    let outdented = this.definitionX0 !== undefined && line.x0 < this.definitionX0 - line.size
    const fullBefore = previous !== undefined && previous.x1 >= line.x1 - 2 * line.size
    if (outdented && this.besideTerm !== undefined && this.paragraph !== undefined && fullBefore) {
      // A full line going on at the margin under a "term" beside it: running text, its code apart.
      this.blocks[this.besideTerm.index] = this.besideTerm.code.build()
      this.besideTerm = undefined
      this.definitionX0 = undefined
      outdented = false
    }
    if (this.paragraph !== undefined && !breaks && !outdented) {
      this.paragraph.rich = joinRich(this.paragraph.rich, richLine(line), besidePrevious, this.rules.hyphenation)
      this.paragraph.maxX1 = Math.max(this.paragraph.maxX1, line.x1)
      this.paragraph.lines++
      return
    }
    this.flush()
    this.paragraph = { rich: richLine(line), maxX1: line.x1, lines: 1 }
  }
}

/** One page's blocks, and the list left open at its end that the next page's first line may go on. */
export interface PageMade {
  readonly blocks: Array<Document.Block>
  /** Whether `blocks[0]` is the list the page before left open (`carried`), grown: it replaces that page's. */
  readonly continued: boolean
  readonly open: ListBuilder | undefined
}

/** One page's items as blocks; `missing` are the outline titles of this page with no visible line. */
export const pageBlocks = (
  page: OrderedPage,
  rules: PageRules,
  missing: ReadonlyArray<OutlineEntry>
): Array<Document.Block> => pageBlocksCarried(page, rules, missing, undefined).blocks

/** `pageBlocks`, going on with the list the page before left open when the page's first line does. */
export const pageBlocksCarried = (
  page: OrderedPage,
  rules: PageRules,
  missing: ReadonlyArray<OutlineEntry>,
  carried: ListBuilder | undefined
): PageMade => {
  const items = listingComments(textFaceListings(panelListings(page.items, page.panels ?? [])))
  const textStarts = items.flatMap((item) =>
    item._tag === "Line" && item.line.charWidth === undefined ? [item.line.x0] : []
  )
  const lines = items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
  const builder = new PageBlocks(rules, missing, textStarts, labelRuns(lines), carried, columnShifts(lines))
  for (const item of items) {
    if (item._tag === "Table") {
      builder.block(
        { _tag: "Table", rows: item.rows, ...(item.marks !== undefined ? { marks: item.marks } : {}) },
        item.y
      )
    } else if (item._tag === "Contents") builder.block(item.list, item.y)
    else if (item._tag === "Figure") builder.block(item.placed.figure, undefined)
    else builder.line(item.line)
  }
  const blocks = builder.finish()
  const last = builder.lastList
  const open = last !== undefined && last.index === blocks.length - 1 ? last.builder : undefined
  return { blocks, continued: builder.continued, open }
}
