/**
 * Layout rebuilding: positioned text items -> lines -> reading order -> blocks. Pure functions,
 * so each rule can be tested on synthetic items without a PDF.
 */
import type * as Document from "../Document.js"

/** One run of text as the PDF places it; `y` is the baseline measured from the page top. */
export interface TextItem {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly size: number
  readonly rtl: boolean
}

/** An image placed on the page (PDF user space converted to top-down coordinates). */
export interface PlacedFigure {
  readonly figure: Document.Figure
  readonly x0: number
  readonly x1: number
  readonly y0: number
  readonly y1: number
}

/** What was read from one page: its text items (from the text layer, or OCR for a scan). */
export interface PageText {
  readonly page: number
  readonly width: number
  readonly height: number
  readonly items: ReadonlyArray<TextItem>
  readonly figures: ReadonlyArray<PlacedFigure>
}

/** A bookmark resolved to its page (1-based) and, when the destination says, its top. */
export interface OutlineEntry {
  readonly title: string
  readonly level: number
  readonly page: number
  readonly top: number | undefined
}

/** A horizontal run of text on one baseline, without large gaps. */
export interface Line {
  readonly text: string
  readonly x0: number
  readonly x1: number
  readonly y: number
  readonly size: number
  readonly rtl: boolean
}

/** Lines in reading order, with tables and figures placed among them. */
export type PageItem =
  | { readonly _tag: "Line"; readonly line: Line }
  | { readonly _tag: "Table"; readonly rows: ReadonlyArray<ReadonlyArray<string>>; readonly y: number }
  | { readonly _tag: "Figure"; readonly placed: PlacedFigure }

/** A page after reading order was rebuilt. */
export interface OrderedPage {
  readonly page: number
  readonly height: number
  readonly items: ReadonlyArray<PageItem>
}

// ---------------------------------------------------------------------------------------------
// Text normalisation
// ---------------------------------------------------------------------------------------------

// XML 1.0 forbids these; PDFs carry them (control codes from broken encodings, lone surrogates).
const xmlInvalid = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/**
 * NFKC turns ligatures and Arabic presentation forms into base letters; control characters and
 * soft hyphens are noise in extracted text.
 */
export const normalizeText = (text: string): string =>
  text.normalize("NFKC").replace(xmlInvalid, "").replace(/\u00AD/g, "").replace(/[\t\n\r\f\v\u00A0]/g, " ")

const letter = /\p{L}/u
const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const lowerStart = /^\p{Ll}/u

/** Letters glued by a hyphen at a line end are one word split by the typesetter. */
export const joinLines = (left: string, right: string): string => {
  const a = left.trimEnd()
  const b = right.trimStart()
  if (a === "") return b
  if (b === "") return a
  if (/\p{L}-$/u.test(a) && lowerStart.test(b)) {
    return a.slice(0, -1) + b
  }
  if (cjk.test(a.slice(-1)) && cjk.test(b.slice(0, 1))) return a + b
  return `${a} ${b}`
}

const terminal = /[.!?:;。！？：”"'’)\]]$/u

/** True when the text ends like the end of a sentence (a paragraph may end there). */
export const endsSentence = (text: string): boolean => terminal.test(text.trimEnd())

// ---------------------------------------------------------------------------------------------
// Items -> lines
// ---------------------------------------------------------------------------------------------

interface Row {
  y: number
  size: number
  readonly items: Array<TextItem>
}

/** Gaps wider than this many font sizes separate columns or table cells, not words. */
const segmentGap = 1.2
/** Gaps wider than this many font sizes are word spaces. */
const spaceGap = 0.12

/** The key with the largest weight (0 when there is none): the most common font size. */
const heaviest = (weights: ReadonlyMap<number, number>): number => {
  let best = 0
  let bestWeight = -1
  for (const [size, weight] of weights) {
    if (weight > bestWeight) {
      best = size
      bestWeight = weight
    }
  }
  return best
}

const dominantSize = (items: ReadonlyArray<TextItem>): number => {
  const weights = new Map<number, number>()
  for (const item of items) {
    const key = Math.round(item.size * 2) / 2
    weights.set(key, (weights.get(key) ?? 0) + item.text.length)
  }
  return heaviest(weights)
}

const makeLine = (items: ReadonlyArray<TextItem>): Line => {
  let rtlChars = 0
  let ltrChars = 0
  for (const item of items) {
    const letters = item.text.replace(/[^\p{L}]/gu, "").length
    if (item.rtl) rtlChars += letters
    else ltrChars += letters
  }
  const rtl = rtlChars > ltrChars
  // Items arrive in visual order; a right-to-left line is read from its right end.
  const ordered = rtl ? [...items].sort((a, b) => (b.x + b.width) - (a.x + a.width)) : items
  let text = ""
  let previous: TextItem | undefined
  for (const item of ordered) {
    if (previous !== undefined) {
      const gap = rtl ? previous.x - (item.x + item.width) : item.x - (previous.x + previous.width)
      const size = Math.max(previous.size, item.size)
      if (gap > spaceGap * size && !text.endsWith(" ") && !item.text.startsWith(" ")) text += " "
    }
    text += item.text
    previous = item
  }
  let x0 = Infinity
  let x1 = -Infinity
  for (const item of items) {
    x0 = Math.min(x0, item.x)
    x1 = Math.max(x1, item.x + item.width)
  }
  const size = dominantSize(items)
  const main = items.find((item) => Math.round(item.size * 2) / 2 === size) ?? items[0]!
  return { text: text.replace(/ {2,}/g, " ").trim(), x0, x1, y: main.y, size, rtl }
}

/**
 * Groups items on a common baseline (superscripts included) and cuts each baseline where a gap
 * is wider than a word space, so two columns sharing baselines stay apart.
 */
export const buildRows = (input: ReadonlyArray<TextItem>): Array<ReadonlyArray<Line>> => {
  const items = input
    .map((item) => ({ ...item, text: normalizeText(item.text) }))
    .filter((item) => item.text.trim() !== "" && item.size > 0)
    .sort((a, b) => a.y - b.y)
  const rows: Array<Row> = []
  for (const item of items) {
    const last = rows[rows.length - 1]
    if (last !== undefined && Math.abs(item.y - last.y) <= 0.5 * Math.max(item.size, last.size)) {
      last.items.push(item)
      if (item.size > last.size) {
        last.size = item.size
        last.y = item.y
      }
    } else {
      rows.push({ y: item.y, size: item.size, items: [item] })
    }
  }
  return rows.map((row) => {
    const sorted = row.items.sort((a, b) => a.x - b.x)
    const segments: Array<Line> = []
    let current: Array<TextItem> = []
    let end = -Infinity
    for (const item of sorted) {
      if (current.length > 0 && item.x - end > segmentGap * Math.max(item.size, current[0]!.size)) {
        segments.push(makeLine(current))
        current = []
        end = -Infinity
      }
      current.push(item)
      end = Math.max(end, item.x + item.width)
    }
    if (current.length > 0) segments.push(makeLine(current))
    // Pieces of a right-to-left baseline are read from the rightmost one.
    return segments.filter((segment) => segment.rtl).length * 2 > segments.length ? segments.reverse() : segments
  })
}

// ---------------------------------------------------------------------------------------------
// Reading order: tables, columns, figures
// ---------------------------------------------------------------------------------------------

const overlaps = (a0: number, a1: number, b0: number, b1: number): boolean => a0 < b1 && b0 < a1

/** Runs of two or more baselines cut into the same number (>= 3) of aligned cells. */
const findTables = (rows: ReadonlyArray<ReadonlyArray<Line>>): Array<readonly [start: number, end: number]> => {
  const runs: Array<readonly [number, number]> = []
  let start = -1
  const aligned = (a: ReadonlyArray<Line>, b: ReadonlyArray<Line>): boolean =>
    a.length === b.length && a.every((cell, i) => overlaps(cell.x0, cell.x1 + 1, b[i]!.x0, b[i]!.x1 + 1))
  for (let i = 0; i <= rows.length; i++) {
    const row = rows[i]
    const continues = row !== undefined && row.length >= 3 && start >= 0 && aligned(rows[i - 1]!, row)
    if (continues) continue
    if (start >= 0 && i - start >= 2) runs.push([start, i])
    start = row !== undefined && row.length >= 3 ? i : -1
  }
  return runs
}

/**
 * Finds a vertical gutter near the middle of the page that almost no line crosses, with enough
 * lines on both sides: the page is then read left column first (right first for RTL pages).
 */
export const findGutter = (lines: ReadonlyArray<Line>, pageWidth: number): number | undefined => {
  if (lines.length < 8) return undefined
  const minSide = Math.max(4, lines.length * 0.2)
  let best: number | undefined
  let bestCrossing = Infinity
  for (let x = pageWidth * 0.3; x <= pageWidth * 0.7; x += 2) {
    let crossing = 0
    let left = 0
    let right = 0
    for (const line of lines) {
      if (line.x1 <= x + 1) left++
      else if (line.x0 >= x - 1) right++
      else crossing++
    }
    if (left < minSide || right < minSide || crossing > Math.min(left, right) * 0.5) continue
    if (
      crossing < bestCrossing ||
      (crossing === bestCrossing && best !== undefined && Math.abs(x - pageWidth / 2) < Math.abs(best - pageWidth / 2))
    ) {
      best = x
      bestCrossing = crossing
    }
  }
  return best
}

/**
 * Rebuilds the reading order of one page: tables kept whole, columns read one after the other
 * between lines that span the gutter, figures placed before the first text below them.
 */
export const orderPage = (page: PageText): OrderedPage => {
  const rows = buildRows(page.items)
  const tables = findTables(rows)
  type Placed = { readonly item: PageItem; readonly x0: number; readonly x1: number; readonly y: number }
  const placed: Array<Placed> = []
  let t = 0
  for (let i = 0; i < rows.length; i++) {
    const table = tables[t]
    if (table !== undefined && i === table[0]) {
      const tableRows = rows.slice(table[0], table[1])
      const cells = tableRows.flat()
      placed.push({
        item: { _tag: "Table", rows: tableRows.map((row) => row.map((cell) => cell.text)), y: tableRows[0]![0]!.y },
        x0: Math.min(...cells.map((cell) => cell.x0)),
        x1: Math.max(...cells.map((cell) => cell.x1)),
        y: tableRows[0]![0]!.y
      })
      i = table[1] - 1
      t++
      continue
    }
    for (const line of rows[i]!) placed.push({ item: { _tag: "Line", line }, x0: line.x0, x1: line.x1, y: line.y })
  }
  const lines = placed.flatMap((p) => p.item._tag === "Line" ? [p.item.line] : [])
  const gutter = findGutter(lines, page.width)
  let ordered: Array<Placed>
  if (gutter === undefined) {
    ordered = placed
  } else {
    const rtlPage = lines.filter((line) => line.rtl).length > lines.length / 2
    ordered = []
    let left: Array<Placed> = []
    let right: Array<Placed> = []
    const flush = () => {
      ordered.push(...(rtlPage ? [...right, ...left] : [...left, ...right]))
      left = []
      right = []
    }
    for (const p of placed) {
      if (p.x1 <= gutter + 1) left.push(p)
      else if (p.x0 >= gutter - 1) right.push(p)
      else {
        flush()
        ordered.push(p)
      }
    }
    flush()
  }
  const items: Array<PageItem> = ordered.map((p) => p.item)
  for (const figure of page.figures) {
    const index = ordered.findIndex((p) => p.y > figure.y1 && overlaps(p.x0, p.x1, figure.x0, figure.x1))
    const item: PageItem = { _tag: "Figure", placed: figure }
    if (index < 0) items.push(item)
    else items.splice(items.indexOf(ordered[index]!.item), 0, item)
  }
  return { page: page.page, height: page.height, items }
}

// ---------------------------------------------------------------------------------------------
// Repeated headers and footers
// ---------------------------------------------------------------------------------------------

const pageNumber = /^(page\s*)?[-–—([]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?(\s*(of|\/)\s*\d{1,4})?$/i
/** The top and bottom bands of a page where running heads and folios live. */
const band = 0.1

const marginKey = (line: Line, height: number): string | undefined => {
  const position = line.y < height * band ? "top" : line.y > height * (1 - band) ? "bottom" : undefined
  if (position === undefined) return undefined
  return `${position}:${line.text.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ")}`
}

/**
 * Drops lines in the top and bottom bands that repeat (digits ignored, so "Page 3" matches
 * "Page 4") on at least 3 pages and 30% of the pages, and bare page numbers there.
 */
export const removeRunningHeads = (pages: ReadonlyArray<OrderedPage>): Array<OrderedPage> => {
  const textPages = pages.filter((page) => page.items.length > 0).length
  if (textPages < 2) return [...pages]
  const counts = new Map<string, number>()
  for (const page of pages) {
    const keys = new Set<string>()
    for (const item of page.items) {
      if (item._tag !== "Line") continue
      const key = marginKey(item.line, page.height)
      if (key !== undefined) keys.add(key)
    }
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const threshold = Math.max(3, textPages * 0.3)
  return pages.map((page) => ({
    ...page,
    items: page.items.filter((item) => {
      if (item._tag !== "Line") return true
      const key = marginKey(item.line, page.height)
      if (key === undefined) return true
      if (pageNumber.test(item.line.text.trim())) return false
      return (counts.get(key) ?? 0) < threshold
    })
  }))
}

// ---------------------------------------------------------------------------------------------
// Font sizes -> heading levels
// ---------------------------------------------------------------------------------------------

/** The most common font size, weighted by characters: the size of running text. */
export const bodySize = (pages: ReadonlyArray<OrderedPage>): number => {
  const weights = new Map<number, number>()
  for (const page of pages) {
    for (const item of page.items) {
      if (item._tag !== "Line") continue
      weights.set(item.line.size, (weights.get(item.line.size) ?? 0) + item.line.text.length)
    }
  }
  return heaviest(weights)
}

/** A line set this much larger than the body, short, and with letters, is a heading. */
const headingRatio = 1.15
const headingMaxChars = 160

const isHeadingCandidate = (line: Line, body: number): boolean =>
  line.size >= body * headingRatio && line.text.length <= headingMaxChars &&
  line.text.replace(/[^\p{L}]/gu, "").length >= 2

/** Larger sizes map to levels: the largest heading size is level 1, and so on up to 6. */
export const headingLevels = (pages: ReadonlyArray<OrderedPage>, body: number): Map<number, number> => {
  const sizes = new Set<number>()
  for (const page of pages) {
    for (const item of page.items) {
      if (item._tag === "Line" && isHeadingCandidate(item.line, body)) sizes.add(item.line.size)
    }
  }
  const levels = new Map<number, number>()
  ;[...sizes].sort((a, b) => b - a).forEach((size, index) => levels.set(size, Math.min(6, index + 1)))
  return levels
}

// ---------------------------------------------------------------------------------------------
// Outline -> heading lines
// ---------------------------------------------------------------------------------------------

const matchKey = (text: string): string => normalizeText(text).toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")

/** Heading lines found for outline entries, and entries with no visible line (inserted). */
interface OutlineMatch {
  readonly lines: Map<Line, { readonly level: number; readonly title: string; readonly first: boolean }>
  readonly missing: Map<number, Array<OutlineEntry>>
}

const matchOutline = (pages: ReadonlyArray<OrderedPage>, outline: ReadonlyArray<OutlineEntry>): OutlineMatch => {
  const lines: OutlineMatch["lines"] = new Map()
  const missing: OutlineMatch["missing"] = new Map()
  const byPage = new Map<number, OrderedPage>(pages.map((page) => [page.page, page]))
  const tryPage = (entry: OutlineEntry, pageNumber: number): boolean => {
    const page = byPage.get(pageNumber)
    if (page === undefined) return false
    const key = matchKey(entry.title)
    if (key === "") return false
    const pageLines = page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
    for (let i = 0; i < pageLines.length; i++) {
      const first = pageLines[i]!
      if (lines.has(first)) continue
      let joined = matchKey(first.text)
      if (joined === "" || !key.startsWith(joined)) continue
      const group = [first]
      while (joined.length < key.length && i + group.length < pageLines.length) {
        const next = matchKey(pageLines[i + group.length]!.text)
        if (next === "" || !key.startsWith(joined + next)) break
        joined += next
        group.push(pageLines[i + group.length]!)
      }
      if (joined === key || (joined.length >= 8 && joined.length >= key.length * 0.6)) {
        group.forEach((line, index) => lines.set(line, { level: entry.level, title: entry.title, first: index === 0 }))
        return true
      }
    }
    return false
  }
  for (const entry of outline) {
    if (tryPage(entry, entry.page) || tryPage(entry, entry.page + 1)) continue
    const list = missing.get(entry.page) ?? []
    list.push(entry)
    missing.set(entry.page, list)
  }
  return { lines, missing }
}

// ---------------------------------------------------------------------------------------------
// Lines -> blocks
// ---------------------------------------------------------------------------------------------

const bulletMarker = /^([•◦▪▫●○■□►▸‣⁃∙·*–—-])\s+(?=\S)/u
const orderedMarker = /^(\(?(\d{1,3}|[a-z])[.)])\s+(?=\S)/u

/** A list marker at the start of a line: bullets always, numbers "1." "2)" "(a)". */
export const listMarker = (
  text: string
): { readonly ordered: boolean; readonly number: number; readonly rest: string } | undefined => {
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

/** Options for turning pages into a document. */
export interface LayoutInput {
  /** Pages as read, or already put in reading order with `orderPage` (keeps memory low). */
  readonly pages: ReadonlyArray<PageText | OrderedPage>
  readonly outline: ReadonlyArray<OutlineEntry>
  readonly title: string | undefined
  readonly filename: string | undefined
}

/** An outline only wins over font sizes when it has real structure (a lone bookmark does not). */
const useOutline = (outline: ReadonlyArray<OutlineEntry>): boolean => outline.length >= 2

/** Reading order, headers/footers, headings, paragraphs, lists and tables for the whole document. */
export const layoutDocument = (input: LayoutInput): Document.Document => {
  const ordered = removeRunningHeads(input.pages.map((page) => "width" in page ? orderPage(page) : page))
  const body = bodySize(ordered)
  const outline = useOutline(input.outline) ? input.outline : []
  const levels = outline.length > 0 ? new Map<number, number>() : headingLevels(ordered, body)
  const matched = matchOutline(ordered, outline)
  const blocks: Array<Document.Block> = []
  for (const page of ordered) {
    blocks.push({ _tag: "PageBreak", page: page.page })
    const missing = matched.missing.get(page.page) ?? []
    blocks.push(...pageBlocks(page, body, levels, matched.lines, missing))
  }
  const merged = mergeSplitParagraphs(blocks)
  const text = merged.map((block) =>
    block._tag === "Paragraph" || block._tag === "Heading"
      ? block.text
      : block._tag === "List"
      ? block.items.join(" ")
      : ""
  ).join(" ")
  const firstHeading = merged.find((block): block is Document.Heading => block._tag === "Heading")
  const title = [input.title, input.filename, firstHeading?.text].map((t) => t?.trim() ?? "").find((t) => t !== "")
  return { title: title ?? "Untitled", language: detectLanguage(text), blocks: merged, pages: input.pages.length }
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

const pageBlocks = (
  page: OrderedPage,
  body: number,
  levels: ReadonlyMap<number, number>,
  outlineLines: OutlineMatch["lines"],
  missing: ReadonlyArray<OutlineEntry>
): Array<Document.Block> => {
  const blocks: Array<Document.Block> = []
  const pendingMissing = [...missing].sort((a, b) => (a.top ?? 0) - (b.top ?? 0))
  let paragraph: { text: string; maxX1: number } | undefined
  let list: { ordered: boolean; start: number; items: Array<string>; markerX: number } | undefined
  let heading: { level: number; text: string; lines: number; fromOutline: boolean } | undefined
  let previous: Line | undefined
  const flush = () => {
    if (paragraph !== undefined && paragraph.text.trim() !== "") {
      blocks.push({ _tag: "Paragraph", text: paragraph.text.trim() })
    }
    if (list !== undefined) blocks.push({ _tag: "List", ordered: list.ordered, start: list.start, items: list.items })
    if (heading !== undefined) {
      // A "heading" this long is a large-print passage (an author list, a lead), not a title.
      const text = heading.text.trim()
      blocks.push(
        text.length > headingMaxChars ? { _tag: "Paragraph", text } : { _tag: "Heading", level: heading.level, text }
      )
    }
    paragraph = undefined
    list = undefined
    heading = undefined
  }
  const insertMissing = (y: number) => {
    while (pendingMissing.length > 0 && (pendingMissing[0]!.top === undefined || pendingMissing[0]!.top! <= y)) {
      const entry = pendingMissing.shift()!
      flush()
      blocks.push({ _tag: "Heading", level: Math.min(6, entry.level), text: normalizeText(entry.title).trim() })
    }
  }
  for (const item of page.items) {
    if (item._tag === "Table") {
      insertMissing(item.y)
      flush()
      blocks.push({ _tag: "Table", rows: item.rows })
      previous = undefined
      continue
    }
    if (item._tag === "Figure") {
      flush()
      blocks.push(item.placed.figure)
      previous = undefined
      continue
    }
    const line = item.line
    insertMissing(line.y)
    const outlined = outlineLines.get(line)
    const level = outlined?.level ?? levels.get(isHeadingCandidate(line, body) ? line.size : -1)
    if (level !== undefined) {
      const title = outlined !== undefined ? normalizeText(outlined.title).trim() : line.text
      if (outlined !== undefined && !outlined.first && heading !== undefined) {
        previous = line
        continue
      }
      const continues = outlined === undefined && heading !== undefined && !heading.fromOutline &&
        heading.level === level && heading.lines < 3 && previous !== undefined &&
        line.y > previous.y && line.y - previous.y < line.size * 2
      if (continues) {
        heading!.text = joinLines(heading!.text, line.text)
        heading!.lines++
      } else {
        flush()
        heading = { level: Math.min(6, level), text: title, lines: 1, fromOutline: outlined !== undefined }
      }
      previous = line
      continue
    }
    if (heading !== undefined) {
      flush()
      previous = undefined
    }
    const marker = listMarker(line.text)
    const breaks = previous === undefined || breaksBefore(previous, line, paragraph?.maxX1)
    if (
      marker !== undefined &&
      (!marker.ordered || list !== undefined || paragraph === undefined || breaks || endsSentence(previous!.text))
    ) {
      if (list !== undefined && list.ordered === marker.ordered && !(breaks && line.y - previous!.y > line.size * 3)) {
        list.items.push(marker.rest)
      } else {
        flush()
        list = { ordered: marker.ordered, start: marker.number, items: [marker.rest], markerX: line.x0 }
      }
      previous = line
      continue
    }
    if (list !== undefined) {
      const hanging = line.x0 > list.markerX + line.size * 0.3
      const gapOk = previous !== undefined && line.y > previous.y && line.y - previous.y < line.size * 1.6
      if (hanging || (gapOk && !endsSentence(list.items[list.items.length - 1]!))) {
        list.items[list.items.length - 1] = joinLines(list.items[list.items.length - 1]!, line.text)
        previous = line
        continue
      }
      flush()
    }
    if (paragraph !== undefined && !breaks) {
      paragraph.text = joinLines(paragraph.text, line.text)
      paragraph.maxX1 = Math.max(paragraph.maxX1, line.x1)
    } else {
      flush()
      paragraph = { text: line.text, maxX1: line.x1 }
    }
    previous = line
  }
  flush()
  for (const entry of pendingMissing) {
    blocks.push({ _tag: "Heading", level: Math.min(6, entry.level), text: normalizeText(entry.title).trim() })
  }
  return blocks
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

// ---------------------------------------------------------------------------------------------
// Language
// ---------------------------------------------------------------------------------------------

const scripts: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/gu, "ja"],
  [/\p{Script=Hangul}/gu, "ko"],
  [/\p{Script=Han}/gu, "zh"],
  [/\p{Script=Arabic}/gu, "ar"],
  [/\p{Script=Hebrew}/gu, "he"],
  [/\p{Script=Greek}/gu, "el"],
  [/\p{Script=Cyrillic}/gu, "ru"],
  [/\p{Script=Thai}/gu, "th"],
  [/\p{Script=Devanagari}/gu, "hi"]
]

/**
 * Guesses the language from the script that dominates the letters; Latin text stays "en" since
 * telling Latin-script languages apart needs more than a script count.
 */
export const detectLanguage = (text: string): string => {
  const sample = text.slice(0, 200_000)
  const letters = sample.replace(/[^\p{L}]/gu, "").length
  if (letters === 0) return "en"
  const kana = (sample.match(scripts[0]![0]) ?? []).length
  const han = (sample.match(scripts[2]![0]) ?? []).length
  // Japanese mixes kana with kanji: any real share of kana makes Han text Japanese.
  if (kana > 0 && kana + han >= letters * 0.3) return "ja"
  for (const [pattern, language] of scripts) {
    const count = (sample.match(pattern) ?? []).length
    if (count >= letters * 0.3) return language
  }
  return "en"
}

/** Letters or digits in the text (used to tell an empty text layer). */
export const hasText = (items: ReadonlyArray<TextItem>): boolean =>
  items.some((item) => letter.test(item.text) || /\p{N}/u.test(item.text))

// ---------------------------------------------------------------------------------------------
// Text layer quality
// ---------------------------------------------------------------------------------------------

/** Counts over the non-space characters of a page's text, to tell a text layer that is not text. */
export interface TextQuality {
  /** Characters other than white space. */
  readonly characters: number
  /** Letters and digits, except those in the ranges of `suspicious`. */
  readonly wordCharacters: number
  /** Characters a font without a usable Unicode mapping comes out as (see `suspiciousCharacter`). */
  readonly suspicious: number
  /** Runs of two or more word characters. */
  readonly words: number
}

/**
 * What glyph ids of a font without a ToUnicode map turn into: pdf.js passes C0 control codes on,
 * pdftotext-like readers print Latin Extended-B, IPA, spacing modifiers and Greek numeral signs
 * (TAMReview's Cambria: U+01E1 for a comma, U+0373 for "1"); private-use and unassigned code
 * points and U+FFFD are never text either. Real text has few of them (Vietnamese ơ/ư, the okina).
 */
const suspiciousCharacter = /[\p{Cc}\p{Co}\p{Cn}\uFFFD\u0180-\u02FF\u0370-\u037D]/u
const wordCharacter = /[\p{L}\p{N}]/u
const space = /\s/u

/** Counts the characters of a page's items (raw, before normalisation strips control codes). */
export const textQuality = (items: ReadonlyArray<TextItem>): TextQuality => {
  let characters = 0
  let wordCharacters = 0
  let suspicious = 0
  let words = 0
  for (const item of items) {
    let run = 0
    for (const char of item.text) {
      const counted = !space.test(char)
      const isSuspicious = counted && suspiciousCharacter.test(char)
      const isWord = counted && !isSuspicious && wordCharacter.test(char)
      if (counted) characters++
      if (isSuspicious) suspicious++
      if (isWord) {
        wordCharacters++
        run++
      } else {
        if (run >= 2) words++
        run = 0
      }
    }
    if (run >= 2) words++
  }
  return { characters, wordCharacters, suspicious, words }
}

/**
 * Fewer characters than this are not judged: a title page, a caption or a table of symbols is
 * too short for shares to mean anything, and OCR (seconds a page) would not pay off.
 */
const minJudgedCharacters = 200
/**
 * Shares over the corpus: text pages have 0.89-0.97 word characters and no suspicious ones, the
 * unmapped pages of TAMReview 0.04-0.25 word characters and 0.63-0.92 suspicious ones. Symbols
 * in a math line ("∀x ∈ A: f(x) ≤ g(x)" is 0.4 word characters) must stay well above the floor.
 */
const maxSuspiciousShare = 0.3
const minWordShare = 0.15

/** The share of word characters among the non-space ones (1 for a page without any). */
const wordShare = (quality: TextQuality): number =>
  quality.characters === 0 ? 1 : quality.wordCharacters / quality.characters

/**
 * True when a page has a text layer that is not readable text: enough characters to judge, of
 * which many are what unmapped glyphs come out as, or few are letters or digits.
 */
export const isJunkTextLayer = (items: ReadonlyArray<TextItem>): boolean => isJunk(textQuality(items))

const isJunk = (quality: TextQuality): boolean =>
  quality.characters >= minJudgedCharacters &&
  (quality.suspicious / quality.characters >= maxSuspiciousShare || wordShare(quality) < minWordShare)

/** OCR that reads fewer words than this found a caption or specks, not the page's text. */
const minReadingWords = 20

/**
 * Whether another reading of a page (OCR) is better than its text layer by the same measure: it
 * is not junk itself, has a larger share of letters and digits, and has a reasonable amount of
 * words: at least `minReadingWords`, and letters and digits for a third of the layer's characters
 * (unmapped glyphs stand one for one for letters), so OCR that read only a figure's label or a
 * part of the page does not replace it.
 */
export const isBetterReading = (candidate: ReadonlyArray<TextItem>, current: ReadonlyArray<TextItem>): boolean => {
  const ocr = textQuality(candidate)
  const layer = textQuality(current)
  return !isJunk(ocr) && wordShare(ocr) > wordShare(layer) && ocr.words >= minReadingWords &&
    ocr.wordCharacters * 3 >= layer.characters
}
