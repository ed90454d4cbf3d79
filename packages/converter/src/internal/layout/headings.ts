/** Headings: font sizes larger than the body's, or the PDF's outline matched to the lines it names. */
import { heaviest } from "./lines.js"
import { listMarker } from "./lists.js"
import type { Line, Mark, OrderedPage, OutlineEntry } from "./model.js"
import { Style } from "./model.js"
import { pageLines } from "./model.js"
import { letterCount, normalizeText } from "./text.js"
import { referencesInPlace } from "./titleReferences.js"

/** The most common distance between consecutive body-size lines, in font sizes. */
export const lineRatio = (pages: ReadonlyArray<OrderedPage>, body: number): number => {
  const weights = new Map<number, number>()
  for (const page of pages) {
    let previous: Line | undefined
    for (const item of page.items) {
      if (item._tag !== "Line") continue
      const line = item.line
      if (previous !== undefined && line.size === body && previous.size === body) {
        const ratio = Math.round((line.y - previous.y) / body * 20) / 20
        if (ratio >= 0.9 && ratio <= 2.5) weights.set(ratio, (weights.get(ratio) ?? 0) + 1)
      }
      previous = line
    }
  }
  return weights.size === 0 ? 1.2 : heaviest(weights)
}

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
export const headingRatio = 1.15
/** Longer "headings" are large-print passages (an author list, a lead), not titles. */
export const headingMaxChars = 160

/** Whether a line's size, length and letters make it a heading (its level comes from `headingLevels`). */
export const isHeadingCandidate = (line: Line, body: number): boolean =>
  line.size >= body * headingRatio && line.text.length <= headingMaxChars && letterCount(line.text) >= 2

/**
 * Larger sizes map to levels: the largest heading size is level 1, and so on up to 6. A size that
 * bulleted items are set in is the text's (slides set their bullets larger than their other text).
 */
export const headingLevels = (pages: ReadonlyArray<OrderedPage>, body: number): Map<number, number> => {
  const sizes = new Set<number>()
  const bulleted = new Set<number>()
  for (const page of pages) {
    for (const item of page.items) {
      if (item._tag !== "Line") continue
      if (isHeadingCandidate(item.line, body)) sizes.add(item.line.size)
      if (listMarker(item.line.text, item.line.marks)?.ordered === false) bulleted.add(item.line.size)
    }
  }
  const levels = new Map<number, number>()
  ;[...sizes].filter((size) => ![...bulleted].some((bullet) => Math.abs(bullet - size) < 0.25))
    .sort((a, b) => b - a).forEach((size, index) => levels.set(size, Math.min(6, index + 1)))
  return levels
}

/** An outline only wins over font sizes when it has real structure (a lone bookmark does not). */
export const useOutline = (outline: ReadonlyArray<OutlineEntry>): boolean => outline.length >= 2

const matchKey = (text: string): string => normalizeText(text).toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")

const appendixName = "(?:Appendix|APPENDIX|Annexe|ANNEXE)"
/** "Appendix B", "ANNEXE C": a title's appendix word, then its letter. */
export const appendixWord = new RegExp(`^${appendixName}\\s+(?=[A-Z]\\b)`, "u")

const labelName = `(?:${appendixName}|Chapter|CHAPTER|Part|PART)`
/** "Part II", "Chapter 3": a title's label word, then its number (which an outline's title may start with). */
const labelWord = new RegExp(`^${labelName}\\s+(?=(?:\\d+|[IVXLCDM]+|[A-Z])\\b)`, "u")
/** A visible section number starting a title: "1", "1.2", "A.3", "Appendix B", "Chapter 3:", "Part II." (then a space). */
const sectionNumber = new RegExp(
  `^(?:${labelName}\\s+(?:\\d+|[IVXLCDM]+|[A-Z])(?:\\.\\d+)*[.:]?|(?:\\d+|[A-Z])(?:\\.\\d+)*\\.?)(?=\\s+\\S)`,
  "u"
)

/** A line's text without the note references set in it ("TITLE3" where 3 is a note's label). */
export const withoutReferences = (line: Line): string => {
  const references = (line.marks ?? []).filter((mark) => mark.style === Style.footnote)
  return references.reduceRight((text, mark) => text.slice(0, mark.start) + text.slice(mark.end), line.text)
}

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== "").length

/** An outlined heading's title: the outline's, with the section number the page shows before it. */
export const headingTitle = (lineText: string, outlineTitle: string): string => {
  const title = normalizeText(outlineTitle).trim()
  // The page's own letters when they spell the same words: small capitals read as capitals.
  const line = normalizeText(lineText).trim()
  if (matchKey(line) === matchKey(title) && words(line) === words(title)) return line
  const number = sectionNumber.exec(lineText)?.[0]
  const shown = lineText.slice(number?.length ?? 0).trim()
  if (matchKey(shown) === matchKey(title) && words(shown) === words(title) && shown !== title) {
    return number === undefined ? shown : `${number.trim()} ${shown}`
  }
  // "APPENDIX B. MULTILINGUAL SUPPORT" where the bookmark says "B Multilingual Support".
  const titleNumber = sectionNumber.exec(title)?.[0]
  const titleRest = title.slice(titleNumber?.length ?? 0).trim()
  if (number !== undefined && titleNumber !== undefined && matchKey(shown) === matchKey(titleRest)) {
    return `${number.trim()} ${words(shown) === words(titleRest) ? shown : titleRest}`
  }
  if (number === undefined || title.startsWith(number)) return title
  // "Appendix A A sample session" where the bookmark says "A A sample session"; "Part II" over "II Syntax".
  const word = labelWord.exec(number)?.[0]
  if (word !== undefined && title.startsWith(number.slice(word.length))) return `${word}${title}`
  // A single capital is a section number only when the outline's title does not start the line with it.
  if (/^[A-Z]$/.test(number) && matchKey(lineText).startsWith(matchKey(title))) return title
  return `${number} ${title}`
}

/** An outlined heading's text, and the note references that end its line after the title (the page's). */
export const outlinedTitle = (line: Line, title: string): { text: string; marks: Array<Mark> } => {
  const trailing: Array<Mark> = []
  let end = line.text.trimEnd().length
  for (const mark of [...(line.marks ?? [])].reverse()) {
    if (mark.style !== Style.footnote || line.text.slice(mark.end, end).trim() !== "") break
    trailing.unshift(mark)
    end = mark.start
  }
  let text = headingTitle(withoutReferences(line), title)
  const inPlace = referencesInPlace(line, text)
  if (inPlace !== undefined) return inPlace
  const marks: Array<Mark> = []
  for (const mark of trailing) {
    const label = line.text.slice(mark.start, mark.end).trim()
    marks.push({ start: text.length, end: text.length + label.length, style: Style.footnote })
    text += label
  }
  return { text, marks }
}

/** A section number of two levels or more at the start of a title: "1.2", "0.6.3.1". */
const deepSectionNumber = /^(\d+(?:\.\d+)+)\.?\s+\S/

/** A bold numbered title wraps over at most this many lines and characters (a thesis's long section title). */
const wrappedLines = 2
const wrappedChars = 200

/**
 * The level of a short all-bold paragraph starting with a section number of two levels or more
 * (a browser's `<h4>` as bold running text): the number's depth. Undefined for anything else.
 */
export const boldNumberedLevel = (text: string, marks: ReadonlyArray<Mark>, lines: number): number | undefined => {
  if (lines > wrappedLines || text.length > (lines === 1 ? 120 : wrappedChars) || /[.:;,]$/.test(text)) return undefined
  return allBold(text, marks) ? sectionDepth(text) : undefined
}

/** An italic one-line paragraph "3.2.1 Chapters and Sections" (a thesis class's subsection): the number's depth. */
export const italicNumberedLevel = (text: string, marks: ReadonlyArray<Mark>, lines: number): number | undefined =>
  lines === 1 && text.length <= 120 && !/[.:;,]$/.test(text) && /^[\d.]+\s+\p{Lu}/u.test(text) &&
    allBold(text, marks, Style.emphasis)
    ? sectionDepth(text)
    : undefined

/** Whether a text is in one style throughout (code spans, in the code font, aside): bold unless told. */
export const allBold = (text: string, marks: ReadonlyArray<Mark>, style: number = Style.strong): boolean => {
  if (marks.length === 0 || marks[0]!.start !== 0 || (marks[0]!.style & style) === 0) return false
  let end = 0
  for (const mark of marks) {
    if ((mark.style & (style | Style.code | Style.footnote)) === 0 || text.slice(end, mark.start).trim() !== "") {
      return false
    }
    end = mark.end
  }
  return text.slice(end).trim() === ""
}

/** The depth of a section number of two levels or more starting a title ("1.2.3 Title": 3), capped at 6. */
export const sectionDepth = (text: string): number | undefined => {
  const number = deepSectionNumber.exec(text)?.[1]
  return number === undefined ? undefined : Math.min(6, number.split(".").length)
}

/** A chapter's number and a short capitalised title: "1 Overview", "2. REFERENCED DOCUMENTS". */
const chapterTitle = /^\d{1,2}\.?\s+\p{Lu}/u

/**
 * A spaced bold heading's number depth; 1 for a chapter's or an appendix's, so "1. SCOPE" stands over
 * "1.1 IDENTIFICATION" and "Appendix A: Vendors" beside "10. REFERENCES".
 */
export const titleNumberDepth = (text: string): number | undefined =>
  sectionDepth(text) ?? (chapterTitle.test(text) || appendixWord.test(text) ? 1 : undefined)

/** A section number of any depth starting a title: "2 Gallery", "2.13 Details", "Chapter 3: Files". */
const anySectionNumber = /^(?:(?:Chapter|CHAPTER)\s+(\d+(?:\.\d+)*)[.:]?|(\d+(?:\.\d+)*)\.?)\s+\S/

const sectionDigits = (text: string): string | undefined => {
  const found = anySectionNumber.exec(text)
  return found === null ? undefined : found[1] ?? found[2]
}

/** The depth of any section number starting a title ("2 Gallery": 1, "2.13 Details": 2), capped at 6. */
export const numberDepth = (text: string): number | undefined => {
  const number = sectionDigits(text)
  return number === undefined ? undefined : Math.min(6, number.split(".").length)
}

/** What turns a section number's depth into a level: most outlined headings' level minus their number's depth. */
export const numberingOffset = (outlined: ReadonlyMap<Line, OutlinedLine>): number => {
  const counts = new Map<number, number>()
  for (const [line, entry] of outlined) {
    const number = entry.first ? sectionDigits(line.text) : undefined
    if (number === undefined) continue
    const offset = entry.level - number.split(".").length
    counts.set(offset, (counts.get(offset) ?? 0) + 1)
  }
  return counts.size === 0 ? 0 : Math.max(0, heaviest(counts))
}

/** At least this share of a size's heading-like lines are the outline's when the size is a heading's. */
export const outlinedShare = 0.2

/**
 * Heading levels by size in an outlined document: each size takes the level most of its matched lines
 * have, so headings the outline does not list are found by size. A size the outline rarely names is
 * running text's too (a description's terms set a little larger than the text): it gets no level.
 */
export const outlineSizeLevels = (
  lines: ReadonlyMap<Line, OutlinedLine>,
  pages: ReadonlyArray<OrderedPage>,
  body: number
): Map<number, number> => {
  const counts = new Map<number, Map<number, number>>()
  const matched = new Map<number, number>()
  for (const [line, outlined] of lines) {
    matched.set(line.size, (matched.get(line.size) ?? 0) + 1)
    if (!outlined.first) continue
    const bySize = counts.get(line.size) ?? new Map<number, number>()
    bySize.set(outlined.level, (bySize.get(outlined.level) ?? 0) + 1)
    counts.set(line.size, bySize)
  }
  const candidates = new Map<number, number>()
  for (const page of pages) {
    for (const line of pageLines(page)) {
      if (isHeadingCandidate(line, body)) candidates.set(line.size, (candidates.get(line.size) ?? 0) + 1)
    }
  }
  const levels = new Map<number, number>()
  for (const [size, bySize] of counts) {
    const total = [...bySize.values()].reduce((a, b) => a + b, 0)
    const share = (matched.get(size) ?? 0) / Math.max(1, candidates.get(size) ?? 0)
    if (total >= 2 && share >= outlinedShare) levels.set(size, heaviest(bySize))
  }
  return levels
}

/** The match key of a line, without the section number the outline's title may lack. */
const lineKey = (text: string, key: string): string => {
  const full = matchKey(text)
  if (key.startsWith(full)) return full
  const word = appendixWord.exec(text)?.[0]
  if (word !== undefined && key.startsWith(matchKey(text.slice(word.length)))) return matchKey(text.slice(word.length))
  const number = sectionNumber.exec(text)?.[0]
  return number === undefined ? full : matchKey(text.slice(number.length))
}

/** The outline entry a heading line was matched to; `first` for the first line of a wrapped title. */
export interface OutlinedLine {
  readonly level: number
  readonly title: string
  readonly first: boolean
  /** The document's title, which the outline leaves out (`documentTitle`). */
  readonly documentTitle?: true
}

/** Heading lines found for outline entries, and entries with no visible line (inserted). */
export interface OutlineMatch {
  readonly lines: Map<Line, OutlinedLine>
  readonly missing: Map<number, Array<OutlineEntry>>
}

/** A bookmark this long that stops inside a line of the title was cut short (PDFMaker keeps 60 characters). */
const cutTitleLength = 40

/** The lines of a page that spell an entry's title (`cut`: it stops inside the last); undefined when none do. */
const findTitleLines = (
  lines: ReadonlyArray<Line>,
  key: string,
  taken: ReadonlyMap<Line, OutlinedLine>,
  long: boolean
): { group: Array<Line>; cut: boolean } | undefined => {
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!
    if (taken.has(first)) continue
    let joined = lineKey(withoutReferences(first), key)
    if (joined === "" || !key.startsWith(joined)) continue
    const group = [first]
    while (joined.length < key.length && i + group.length < lines.length) {
      const next = matchKey(withoutReferences(lines[i + group.length]!))
      if (next === "" || !key.startsWith(joined + next)) break
      joined += next
      group.push(lines[i + group.length]!)
    }
    const after = lines[i + group.length]
    if (
      long && joined.length < key.length && after !== undefined && after.size === first.size &&
      !taken.has(after) && matchKey(withoutReferences(after)).startsWith(key.slice(joined.length))
    ) return { group: [...group, after], cut: true }
    if (joined === key || (joined.length >= 8 && joined.length >= key.length * 0.6)) return { group, cut: false }
  }
  return undefined
}

/** Each outline entry matched to the lines of its destination page (or the next one). */
export const matchOutline = (pages: ReadonlyArray<OrderedPage>, outline: ReadonlyArray<OutlineEntry>): OutlineMatch => {
  const lines: OutlineMatch["lines"] = new Map()
  const missing: OutlineMatch["missing"] = new Map()
  const byPage = new Map<number, OrderedPage>(pages.map((page) => [page.page, page]))
  const tryPage = (entry: OutlineEntry, pageNumber: number): boolean => {
    const page = byPage.get(pageNumber)
    const key = matchKey(entry.title)
    if (page === undefined || key === "") return false
    const long = normalizeText(entry.title).trim().length >= cutTitleLength
    const found = findTitleLines(pageLines(page), key, lines, long)
    if (found === undefined) return false
    const title = found.cut
      ? found.group.map((line) => normalizeText(withoutReferences(line)).trim()).join(" ")
      : entry.title
    found.group.forEach((line, index) => lines.set(line, { level: entry.level, title, first: index === 0 }))
    return true
  }
  for (const entry of outline) {
    if (tryPage(entry, entry.page) || tryPage(entry, entry.page + 1)) continue
    const list = missing.get(entry.page) ?? []
    list.push(entry)
    missing.set(entry.page, list)
  }
  return { lines, missing }
}

/** A title wraps over at most this many lines. */
const maxTitleLines = 3

/**
 * A title the outline leaves out: the first page's largest lines before its sections, larger than all
 * of them (or, when the structure tree holds the sections, than every line of the other pages).
 */
export const documentTitle = (
  pages: ReadonlyArray<OrderedPage>,
  outlined: ReadonlyMap<Line, OutlinedLine>,
  body: number,
  tagged: boolean
): Array<Line> => {
  const page = pages.find((page) => pageLines(page).length > 0)
  const others = outlined.size > 0 || !tagged
    ? [...outlined.keys()]
    : pages.flatMap((other) => other === page ? [] : pageLines(other))
  if (page === undefined || others.length === 0) return []
  const largest = others.reduce((max, line) => Math.max(max, line.size), 0)
  const lines = pageLines(page)
  const end = lines.findIndex((line) => outlined.has(line))
  const before = end < 0 ? lines : lines.slice(0, end)
  const candidates = before.filter((line) => line.size > largest && isHeadingCandidate(line, body))
  if (candidates.length === 0) return []
  const size = Math.max(...candidates.map((line) => line.size))
  const group = [candidates.find((line) => line.size === size)!]
  for (let i = before.indexOf(group[0]!) + 1; i < before.length && group.length < maxTitleLines; i++) {
    const line = before[i]!
    const previous = group[group.length - 1]!
    if (line.size !== size || line.y <= previous.y || line.y - previous.y > size * 2) break
    group.push(line)
  }
  return group
}

/** The outline's matches under a `documentTitle` at level 1 (every level one deeper), or as they were. */
export const withDocumentTitle = (match: OutlineMatch, title: ReadonlyArray<Line>): OutlineMatch => {
  if (title.length === 0) return match
  const text = title.map((line) => normalizeText(line.text).trim()).join(" ")
  const lines: OutlineMatch["lines"] = new Map(
    title.map((line, index) => [line, { level: 1, title: text, first: index === 0, documentTitle: true }])
  )
  for (const [line, entry] of match.lines) lines.set(line, { ...entry, level: entry.level + 1 })
  const missing: OutlineMatch["missing"] = new Map(
    [...match.missing].map(([page, entries]) => [page, entries.map((entry) => ({ ...entry, level: entry.level + 1 }))])
  )
  return { lines, missing }
}
