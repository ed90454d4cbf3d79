/** Lines of one page -> blocks: headings, paragraphs, lists; and paragraphs rejoined across pages and figures. */
import type * as Document from "../../Document.js"
import type { OutlinedLine } from "./headings.js"
import { headingMaxChars, isHeadingCandidate } from "./headings.js"
import type { Line, OrderedPage, OutlineEntry } from "./model.js"
import { endsSentence, joinLines, lowerStart, normalizeText } from "./text.js"

const bulletMarker = /^([•◦▪▫●○■□►▸‣⁃∙·*–—-])\s+(?=\S)/u
const orderedMarker = /^(\(?(\d{1,3}|[a-z])[.)])\s+(?=\S)/u

/** A list marker found at the start of a line, and the text after it. */
export interface ListMarker {
  readonly ordered: boolean
  readonly number: number
  readonly rest: string
}

/** A list marker at the start of a line: bullets always, numbers "1." "2)" "(a)". */
export const listMarker = (text: string): ListMarker | undefined => {
  const bullet = bulletMarker.exec(text)
  if (bullet !== null) return { ordered: false, number: 0, rest: text.slice(bullet[0].length) }
  const ordered = orderedMarker.exec(text)
  if (ordered !== null) {
    const label = ordered[2]!
    const number = /^\d+$/.test(label) ? Number(label) : label.charCodeAt(0) - 96
    return { ordered: true, number, rest: text.slice(ordered[0].length) }
  }
  return undefined
}

/** Where a new paragraph starts: a wider gap, a size change, an indent or a short line after a sentence. */
const breaksBefore = (previous: Line, line: Line, paragraphRight: number | undefined): boolean => {
  const dy = line.y - previous.y
  const size = Math.max(previous.size, line.size)
  if (Math.abs(previous.size - line.size) > 1) return true
  if (dy <= 0) {
    // The next column (or a line beside the previous one): the paragraph goes on unless a sentence ended.
    return endsSentence(previous.text)
  }
  if (dy > size * 1.45 + 0.5) return true
  if (!endsSentence(previous.text)) return false
  if (line.x0 > previous.x0 + size * 0.7) return true
  return paragraphRight !== undefined && previous.x1 < paragraphRight - size * 3
}

/**
 * A line on the previous one's baseline (the next cell or column beside it, when no gutter was
 * found) does not continue it after a line break: a hyphen before it is not a word cut in two.
 */
const beside = (previous: Line, line: Line): boolean =>
  Math.abs(line.y - previous.y) <= 0.5 * Math.max(previous.size, line.size)

/** What a page's lines are turned into, and how headings are told from the rest. */
export interface PageRules {
  readonly body: number
  readonly levels: ReadonlyMap<number, number>
  readonly outlineLines: ReadonlyMap<Line, OutlinedLine>
}

const outlineHeading = (entry: OutlineEntry): Document.Heading => ({
  _tag: "Heading",
  level: Math.min(6, entry.level),
  text: normalizeText(entry.title).trim()
})

/** The block being built from one page's lines, one line at a time. */
class PageBlocks {
  readonly blocks: Array<Document.Block> = []
  private paragraph: { text: string; maxX1: number } | undefined
  private list: { ordered: boolean; start: number; items: Array<string>; markerX: number } | undefined
  private heading: { level: number; text: string; lines: number; fromOutline: boolean } | undefined
  private previous: Line | undefined
  private readonly pendingMissing: Array<OutlineEntry>

  constructor(private readonly rules: PageRules, missing: ReadonlyArray<OutlineEntry>) {
    this.pendingMissing = [...missing].sort((a, b) => (a.top ?? 0) - (b.top ?? 0))
  }

  flush(): void {
    if (this.paragraph !== undefined && this.paragraph.text.trim() !== "") {
      this.blocks.push({ _tag: "Paragraph", text: this.paragraph.text.trim() })
    }
    if (this.list !== undefined) {
      this.blocks.push({ _tag: "List", ordered: this.list.ordered, start: this.list.start, items: this.list.items })
    }
    if (this.heading !== undefined) {
      // A "heading" this long is a large-print passage (an author list, a lead), not a title.
      const text = this.heading.text.trim()
      this.blocks.push(
        text.length > headingMaxChars
          ? { _tag: "Paragraph", text }
          : { _tag: "Heading", level: this.heading.level, text }
      )
    }
    this.paragraph = undefined
    this.list = undefined
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

  /** A table or figure ends whatever was open; the next line starts afresh. */
  block(block: Document.Block, y: number | undefined): void {
    if (y !== undefined) this.insertMissing(y)
    this.flush()
    this.blocks.push(block)
    this.previous = undefined
  }

  line(line: Line): void {
    this.insertMissing(line.y)
    const outlined = this.rules.outlineLines.get(line)
    const level = outlined?.level ??
      this.rules.levels.get(isHeadingCandidate(line, this.rules.body) ? line.size : -1)
    if (level !== undefined) return this.headingLine(line, level, outlined)
    if (this.heading !== undefined) {
      this.flush()
      this.previous = undefined
    }
    const previous = this.previous
    const marker = listMarker(line.text)
    const breaks = previous === undefined || breaksBefore(previous, line, this.paragraph?.maxX1)
    const startsItem = marker !== undefined &&
      (!marker.ordered || this.list !== undefined || this.paragraph === undefined || breaks ||
        endsSentence(previous!.text))
    const sameBaseline = previous !== undefined && beside(previous, line)
    if (startsItem) this.listItem(line, marker, breaks)
    else if (!this.listContinuation(line)) this.paragraphLine(line, breaks, sameBaseline)
    this.previous = line
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
      heading.text = joinLines(heading.text, line.text)
      heading.lines++
      return
    }
    this.flush()
    const title = outlined !== undefined ? normalizeText(outlined.title).trim() : line.text
    this.heading = { level: Math.min(6, level), text: title, lines: 1, fromOutline: outlined !== undefined }
  }

  private listItem(line: Line, marker: ListMarker, breaks: boolean): void {
    const list = this.list
    if (
      list !== undefined && list.ordered === marker.ordered && !(breaks && line.y - this.previous!.y > line.size * 3)
    ) {
      list.items.push(marker.rest)
      return
    }
    this.flush()
    this.list = { ordered: marker.ordered, start: marker.number, items: [marker.rest], markerX: line.x0 }
  }

  /** A hanging-indented line, or one close below an unfinished item, goes on with the item. */
  private listContinuation(line: Line): boolean {
    const list = this.list
    if (list === undefined) return false
    const previous = this.previous
    const last = list.items.length - 1
    const hanging = line.x0 > list.markerX + line.size * 0.3
    const gapOk = previous !== undefined && line.y > previous.y && line.y - previous.y < line.size * 1.6
    if (hanging || (gapOk && !endsSentence(list.items[last]!))) {
      list.items[last] = joinLines(list.items[last]!, line.text)
      return true
    }
    this.flush()
    return false
  }

  private paragraphLine(line: Line, breaks: boolean, besidePrevious: boolean): void {
    if (this.paragraph !== undefined && !breaks) {
      this.paragraph.text = besidePrevious
        ? `${this.paragraph.text.trimEnd()} ${line.text.trimStart()}`
        : joinLines(this.paragraph.text, line.text)
      this.paragraph.maxX1 = Math.max(this.paragraph.maxX1, line.x1)
      return
    }
    this.flush()
    this.paragraph = { text: line.text, maxX1: line.x1 }
  }
}

/** One page's items as blocks; `missing` are the outline titles of this page with no visible line. */
export const pageBlocks = (
  page: OrderedPage,
  rules: PageRules,
  missing: ReadonlyArray<OutlineEntry>
): Array<Document.Block> => {
  const builder = new PageBlocks(rules, missing)
  for (const item of page.items) {
    if (item._tag === "Table") builder.block({ _tag: "Table", rows: item.rows }, item.y)
    else if (item._tag === "Figure") builder.block(item.placed.figure, undefined)
    else builder.line(item.line)
  }
  return builder.finish()
}

/**
 * A paragraph cut by a page end or by a figure goes on in the next paragraph: when the
 * first does not end a sentence and the next starts in lower case, they are one paragraph. The
 * page breaks and figures in between stay, after it.
 */
export const mergeSplitParagraphs = (blocks: ReadonlyArray<Document.Block>): Array<Document.Block> => {
  const out: Array<Document.Block> = []
  let open: { index: number; text: string; interrupted: boolean } | undefined
  for (const block of blocks) {
    if (block._tag === "PageBreak" || block._tag === "Figure") {
      out.push(block)
      if (open !== undefined) open.interrupted = true
      continue
    }
    // Only across a page end or a figure: within a page, the gaps already told paragraphs apart.
    if (
      block._tag === "Paragraph" && open !== undefined && open.interrupted && !endsSentence(open.text) &&
      lowerStart.test(block.text)
    ) {
      open.text = joinLines(open.text, block.text)
      out[open.index] = { _tag: "Paragraph", text: open.text }
      continue
    }
    out.push(block)
    open = block._tag === "Paragraph" ? { index: out.length - 1, text: block.text, interrupted: false } : undefined
  }
  return out
}
