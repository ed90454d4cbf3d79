/**
 * Contents pages: rows that end in a page number (after dot leaders, or at a common right edge past
 * a wide gap), read as one list, nested by indent, without leaders and page numbers (they are the
 * PDF's pages). Found before tables and headings, so that entries are neither.
 */
import type * as Document from "../../Document.js"
import type { Placed } from "./columns.js"
import type { Row } from "./lines.js"
import { makeLine } from "./lines.js"
import type { Line, OrderedPage, PageItem } from "./model.js"
import { romanValue } from "./roman.js"

/** One entry: its text without leaders and page number, where it starts, and its page. */
export interface ContentsEntry {
  readonly text: string
  /** Its marks (inline code, strong, emphasis) as read. */
  readonly marks: ReadonlyArray<Document.Mark>
  readonly x0: number
  readonly y: number
  readonly size: number
  readonly page: number
  readonly roman: boolean
  readonly leaders: boolean
  /** The right edge of its page number. */
  readonly end: number
}

const leadered = /^(.*?\S)\s*(?:(?:[.·]\s*){3,}|…+\s*)(\d{1,4}|[ivxlcdm]{1,7})$/iu
const pageNumber = /^(?:\d{1,4}|[ivxlcdm]{1,7})$/i
/** A page number past leaders or past a gap this many font sizes wide. */
const numberGap = 1
/** Letters an entry's text needs: a title, not a value. */
const letters = /\p{L}{2}/u

const bareNumber = /^(?:\d+|[A-Z])(?:\.\d+)*\.?$/
const leaderRun = /^[\s.·…]+$|^[.·…]\s*[.·…]/u

/**
 * Whether a gap of the row's text is one a contents sets: after a section number, around leaders or
 * before the page number. Any other wide gap parts two columns or a table's cells.
 */
const entryGaps = (items: ReadonlyArray<Row["items"][number]>, size: number): boolean =>
  items.every((item, i) => {
    const previous = items[i - 1]
    if (previous === undefined || item.x - (previous.x + previous.width) <= 2 * size) return true
    // A number past which a gap is allowed is the entry's own section number, at the row's start.
    return i === items.length - 1 || (i === 1 && bareNumber.test(previous.text.trim())) ||
      leaderRun.test(previous.text.trim()) || leaderRun.test(item.text.trim()) ||
      /(?:[.·]\s*){3,}$/u.test(previous.text)
  })

/** The marks of `line` that fall in the first `length` characters of its trimmed text, moved `offset` on. */
const marksWithin = (line: Line, length: number, offset = 0): Array<Document.Mark> => {
  const lead = line.text.length - line.text.trimStart().length
  return (line.marks ?? []).flatMap((mark) => {
    const start = Math.max(0, mark.start - lead)
    const end = Math.min(length, mark.end - lead)
    return end > start ? [{ start: start + offset, end: end + offset, style: mark.style }] : []
  })
}

/** The contents entry `row` is, if it is one. */
export const contentsEntry = (row: Row): ContentsEntry | undefined => {
  const items = row.items
  const last = items[items.length - 1]!
  if (!entryGaps(items, row.size)) return undefined
  const line = makeLine(items)
  if (line.rtl) return undefined
  const match = leadered.exec(line.text.trim())
  let text: string
  let number: string
  let source = line
  let leaders = match !== null
  if (match !== null) {
    text = match[1]!
    number = match[2]!
  } else {
    const before = items.slice(0, -1)
    const previous = before[before.length - 1]
    if (previous === undefined || !pageNumber.test(last.text.trim())) return undefined
    if (last.x - (previous.x + previous.width) < numberGap * row.size) return undefined
    source = makeLine(before)
    text = source.text.trim()
    // Leaders set as their own run before the number.
    const stripped = /^(.*?\S)\s*(?:[.·]\s*){3,}$/u.exec(text)
    if (stripped !== null) {
      text = stripped[1]!
      leaders = true
    }
    number = last.text.trim()
  }
  // A running head naming the contents, with its folio.
  if (!letters.test(text) || contentsTitle.test(text) || captionsTitle.test(text)) return undefined
  const roman = !/\d/.test(number)
  const page = roman ? romanValue(number) : Number(number)
  if (page === undefined) return undefined
  return {
    text,
    marks: marksWithin(source, text.length),
    x0: line.x0,
    y: row.y,
    size: row.size,
    page,
    roman,
    leaders,
    end: last.x + last.width
  }
}

/** A contents page's title. */
const contentsTitle =
  /^(?:(?:table of )?contents|inhalt|inhaltsverzeichnis|table des matières|sommaire|índice|indice|contenido|содержание|оглавление|目次|目录|目錄)$/iu

/**
 * A list of figures or tables: left as it was. Its entries are captions too, and dev checks (asmejour-template)
 * pin their leaders ("order: List of Tables >> A simple table . . .").
 */
const captionsTitle = /^(?:list of (?:figures|tables|listings|examples|illustrations)|figures|tables)$/iu

/** Entries a run needs under its title. */
const minEntries = 3

/** Whether page numbers never go back (roman front matter first): a contents, not an index or a price list. */
const ascending = (entries: ReadonlyArray<ContentsEntry>): boolean => {
  let roman = true
  let last = 0
  for (const entry of entries) {
    if (entry.roman) {
      if (!roman) return false
      continue
    }
    if (roman) last = 0
    roman = false
    if (entry.page < last) return false
    last = entry.page
  }
  return true
}

/** Whether the entries' page numbers end at one right edge (2 pt), as a contents sets them. */
const alignedEnds = (entries: ReadonlyArray<ContentsEntry>): boolean => {
  const ends = entries.map((entry) => entry.end).sort((a, b) => a - b)
  const middle = ends[Math.floor(ends.length / 2)]!
  return entries.filter((entry) => Math.abs(entry.end - middle) <= 2).length * 4 >= entries.length * 3
}

/** A run of entries: rows `start` to `end` (exclusive), the entries with the rows wrapped into them. */
interface Run {
  readonly start: number
  readonly end: number
  readonly entries: ReadonlyArray<ContentsEntry>
}

/** The lines an entry may wrap over before the line with its page number. */
const maxWrapped = 2

/** Whether `row` (no page number) is the start of an entry whose page number is on the next rows. */
const wrapsInto = (rows: ReadonlyArray<Row>, i: number, entries: ReadonlyArray<ContentsEntry | undefined>) => {
  for (let j = i + 1; j <= i + maxWrapped && j < rows.length; j++) {
    const entry = entries[j]
    if (entry !== undefined) {
      const row = rows[i]!
      const first = row.items[0]!
      const last = row.items[row.items.length - 1]!
      // A wrapped line fills most of the width to the page numbers: a title above a list does not.
      return entry.x0 >= first.x - 1 && rows[j]!.y - row.y <= 2 * (j - i) * row.size &&
        last.x + last.width - first.x >= 0.6 * (entry.end - first.x)
    }
    if (rows[j]!.items[0]!.x < rows[i]!.items[0]!.x - 1) return false
  }
  return false
}

/** Rows a page may set above a contents going on from the page before: a running head, a folio. */
const maxHeadRows = 2
const headRow = 60

/** Whether the rows before `start` are only a page's head (a folio, a short running head). */
const pageTop = (rows: ReadonlyArray<Row>, start: number): boolean =>
  start <= maxHeadRows && rows.slice(0, start).every((row) => makeLine(row.items).text.trim().length <= headRow)

/**
 * Runs of entries among `rows`, each under a contents title, with pages that never go back; when
 * `goesOn` (the page before ended in a contents), a run at the page's top is one too without a title.
 */
const findRuns = (rows: ReadonlyArray<Row>, goesOn: boolean): Array<Run> => {
  const entries = rows.map(contentsEntry)
  const runs: Array<Run> = []
  let i = 0
  while (i < rows.length) {
    // A page may begin with an entry's wrapped first line.
    if (entries[i] === undefined && !wrapsInto(rows, i, entries)) {
      i++
      continue
    }
    const start = i
    const found: Array<ContentsEntry> = []
    while (i < rows.length) {
      const entry = entries[i]
      if (found.length > 0 && rows[i]!.y - rows[i - 1]!.y > 4 * rows[i]!.size) break
      if (entry !== undefined) {
        found.push(entry)
        i++
        continue
      }
      if (!wrapsInto(rows, i, entries)) break
      let j = i
      let text = ""
      const marks: Array<Document.Mark> = []
      while (entries[j] === undefined) {
        const part = makeLine(rows[j++]!.items)
        marks.push(...marksWithin(part, part.text.trim().length, text.length))
        text += `${part.text.trim()} `
      }
      const last = entries[j]!
      marks.push(
        ...last.marks.map((mark) => ({ ...mark, start: mark.start + text.length, end: mark.end + text.length }))
      )
      found.push({ ...last, text: text + last.text, marks, x0: rows[i]!.items[0]!.x, y: rows[i]!.y })
      i = j + 1
    }
    const above = rows.slice(Math.max(0, start - 3), start).map((row) => makeLine(row.items).text.trim())
    const title = above.some((text) => contentsTitle.test(text)) ||
      (goesOn && runs.length === 0 && pageTop(rows, start))
    const captions = above.some((text) => captionsTitle.test(text))
    const shaped = found.filter((entry) => entry.leaders).length * 2 >= found.length || alignedEnds(found)
    // Only under a title or going on at the top: any untitled run with leaders cost held-out headings.
    if (title && !captions && found.length >= minEntries && shaped && ascending(found)) {
      runs.push({ start, end: i, entries: found })
    }
    if (i === start) i++
  }
  return runs
}

/** A section number's depth ("2.3.1": 3), when the entry starts with one. */
const numberDepth = (text: string): number | undefined => {
  const number = /^(?:\d+|[A-Z])(?:\.\d+)*\.?(?=\s)/.exec(text)
  return number === null ? undefined : number[0].replace(/\.$/, "").split(".").length
}

/** Each entry's level (1-based): by its indent, numbered entries by their number's depth when it says more. */
export const contentsLevels = (entries: ReadonlyArray<ContentsEntry>): Array<number> => {
  const indents: Array<number> = []
  for (const x of entries.map((entry) => entry.x0).sort((a, b) => a - b)) {
    if (indents.length === 0 || x - indents[indents.length - 1]! > 0.8 * entries[0]!.size) indents.push(x)
  }
  const byIndent = (x: number): number => {
    let level = 0
    for (let i = 0; i < indents.length; i++) if (x >= indents[i]! - 0.8 * entries[0]!.size) level = i
    return level + 1
  }
  const depths = entries.map((entry) => numberDepth(entry.text))
  // Numbers set at one indent for every depth: their depth is the nesting.
  const flat = indents.length === 1 && depths.some((depth) => depth !== undefined && depth > 1)
  return entries.map((entry, i) => flat ? depths[i] ?? 1 : byIndent(entry.x0))
}

/** Entries as a list nested by their levels. */
export const contentsList = (entries: ReadonlyArray<ContentsEntry>): Document.List => {
  const levels = contentsLevels(entries)
  interface Open {
    readonly level: number
    readonly items: Array<Document.ListItem & { lists?: Array<Document.List> }>
  }
  // A contents going on from the page before may start deeper than its outer entries.
  const root: Open = { level: Math.min(...levels), items: [] }
  const stack: Array<Open> = [root]
  entries.forEach((entry, i) => {
    const level = Math.max(levels[i]!, root.level)
    while (stack.length > 1 && level < stack[stack.length - 1]!.level) stack.pop()
    let top = stack[stack.length - 1]!
    if (level > top.level && top.items.length > 0) {
      const parent = top.items[top.items.length - 1]!
      const nested: Open = { level, items: [] }
      parent.lists = [...(parent.lists ?? []), { _tag: "List", ordered: false, start: 1, items: nested.items }]
      stack.push(nested)
      top = nested
    }
    top.items.push(entry.marks.length > 0 ? { text: entry.text, marks: entry.marks } : { text: entry.text })
  })
  return { _tag: "List", ordered: false, start: 1, items: root.items }
}

/** Whether a row reads as a contents title, by its runs' text alone (most pages have none: no line is made). */
const titleRow = (row: Row): boolean =>
  row.items.length <= 4 && contentsTitle.test(row.items.map((item) => item.text).join(" ").replace(/\s+/g, " ").trim())

/**
 * `rows` without the contents runs among them, and the lists those runs make, placed where they stood;
 * `goesOn`: the page before ended in a contents, which a run at this page's top goes on with.
 */
export const takeContents = (rows: Array<Row>, goesOn = false): { rows: Array<Row>; placed: Array<Placed> } => {
  const runs = goesOn || rows.some(titleRow) ? findRuns(rows, goesOn) : []
  if (runs.length === 0) return { rows, placed: [] }
  const kept: Array<Row> = []
  const placed: Array<Placed> = []
  let i = 0
  for (const run of runs) {
    kept.push(...rows.slice(i, run.start))
    const taken = rows.slice(run.start, run.end).flatMap((row) => row.items)
    const y = run.entries[0]!.y
    const lines = rows.slice(run.start, run.end).map((row) => makeLine(row.items))
    placed.push({
      item: { _tag: "Contents", list: contentsList(run.entries), lines, y },
      x0: Math.min(...taken.map((item) => item.x)),
      x1: Math.max(...taken.map((item) => item.x + item.width)),
      y,
      size: 0
    })
    i = run.end
  }
  kept.push(...rows.slice(i))
  return { rows: kept, placed }
}

/** Where a page's foot starts, as a share of its height. */
const footZone = 0.85

/** Whether a page ends in a contents: after its last one, at most a page's foot (a folio, a short running foot). */
export const endsInContents = (items: ReadonlyArray<PageItem>, height: number): boolean => {
  let last = items.length - 1
  while (last >= 0 && items[last]!._tag !== "Contents") last--
  if (last < 0) return false
  const after = items.slice(last + 1)
  return after.length <= maxHeadRows &&
    after.every((item) =>
      item._tag === "Line" && item.line.text.trim().length <= headRow && item.line.y >= footZone * height
    )
}

/** Pages with their contents as the lines they were read as: what the document's measures are taken on. */
export const withContentsLines = (pages: ReadonlyArray<OrderedPage>): Array<OrderedPage> =>
  pages.map((page) =>
    page.items.some((item) => item._tag === "Contents")
      ? {
        ...page,
        items: page.items.flatMap((item): Array<PageItem> =>
          item._tag === "Contents" ? item.lines.map((line) => ({ _tag: "Line", line })) : [item]
        )
      }
      : page
  )
