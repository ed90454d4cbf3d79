/** Folios found by their sequence (one offset of folio minus page index on many pages), in or beyond the bands. */
import { heaviest } from "./lines.js"
import type { Line, OrderedPage } from "./model.js"
import { Style } from "./model.js"
import { romanValue } from "./roman.js"

/** A folio alone: "12", "- 12 -", "Page 12", "12 of 40", "12/40". */
const bareFolio = /^(?:page\s+)?[-–—([]?\s*(\d{1,4})\s*[-–—)\]]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i
/** A folio at either end of a running head: "4 Chapter 1. Overview", "Page 25 May 12, 1996", "1.2. Usage 5". */
const leadingNumber = /^(?:page\s+)?(\d{1,4})\s+\S/i
const trailingNumber = /\S\s+(\d{1,4})$/

const zeros = [0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xe50, 0xed0, 0xf20]
  .concat([0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0xff10])

/** The text with other scripts' digits (Arabic, Persian, Indic, Thai, ...) as ASCII ones: "۱۲" -> "12". */
export const asciiDigits = (text: string): string =>
  text.replace(/\p{Nd}/gu, (char) => {
    const code = char.codePointAt(0)!
    const zero = zeros.find((z) => code >= z && code < z + 10)
    return zero === undefined ? char : String(code - zero)
  })

/** The top and bottom bands of a page, where a folio shares its line with a running head. */
const band = 0.1
/** A running head beside a folio found alone may stand a little lower (an A4 page's wider margin). */
const besideBand = 0.15
/** Baselines this close (points) are one. */
const sameBaseline = 1.5
/** A sequence holds on this many pages, and this share of those with text, at least. */
const minPages = 3
const minShare = 0.3
/** A folio is set at most this many times the size most folios have: a chapter's number set large is none. */
const maxGrowth = 1.5

interface Candidate {
  readonly line: Line
  readonly value: number
}

const inBand = (line: Line, height: number, share = band): boolean =>
  line.y < height * share || line.y > height * (1 - share)

/** The lines of a page on its first and its last baseline. */
const extremeLines = (lines: ReadonlyArray<Line>): Array<Line> => {
  if (lines.length === 0) return []
  let top = Infinity
  let bottom = -Infinity
  for (const line of lines) {
    top = Math.min(top, line.y)
    bottom = Math.max(bottom, line.y)
  }
  return lines.filter((line) => line.y - top < sameBaseline || bottom - line.y < sameBaseline)
}

/** Whether the line starts with a raised mark (a note's label set as its reference is). */
const raisedLead = (line: Line): boolean =>
  line.marks?.some((mark) => mark.start === 0 && mark.style === Style.footnote) === true

/** The folio numbers a page's extreme lines may hold. */
const candidates = (lines: ReadonlyArray<Line>, height: number): Array<Candidate> =>
  extremeLines(lines).flatMap((line): Array<Candidate> => {
    const text = asciiDigits(line.text.trim())
    const bare = bareFolio.exec(text)?.[1]
    if (bare !== undefined) return [{ line, value: Number(bare) }]
    // A foot (a first page's "TITLE 1") may stand higher than a head may stand low: under a section's "1 Title".
    if (!inBand(line, height) && line.y < height * (1 - besideBand)) return []
    // A raised leading number is a foot note's label (note 1 on page 1), never a folio.
    const lead = raisedLead(line) ? undefined : leadingNumber.exec(text)?.[1]
    return [lead, trailingNumber.exec(text)?.[1]].flatMap((value) =>
      value === undefined ? [] : [{ line, value: Number(value) }]
    )
  })

const pageLinesOf = (page: OrderedPage): Array<Line> =>
  page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])

const edgeRoman = /^([ivx]{1,6})\s+\S|\S\s+([ivx]{1,6})$/

/**
 * Running feet ending (or heads starting) with a roman folio in step with the pages on 3 pages or more ("Getting
 * Started iv"): the front matter's own sequence, too short for the share the arabic one must have.
 */
const romanFolios = (pages: ReadonlyArray<OrderedPage>, found: Set<Line>): void => {
  const perPage = pages.map((page) =>
    extremeLines(pageLinesOf(page)).flatMap((line): Array<Candidate> => {
      if (!inBand(line, page.height, besideBand)) return []
      const match = edgeRoman.exec(line.text.trim())
      const value = romanValue(match?.[1] ?? match?.[2] ?? "")
      return value === undefined ? [] : [{ line, value }]
    })
  )
  const counts = new Map<number, number>()
  perPage.forEach((list, i) => {
    for (const offset of new Set(list.map((c) => c.value - pages[i]!.page))) {
      counts.set(offset, (counts.get(offset) ?? 0) + 1)
    }
  })
  for (const [offset, count] of counts) {
    if (count < minPages) continue
    perPage.forEach((list, i) => {
      for (const c of list) if (c.value - pages[i]!.page === offset) found.add(c.line)
    })
  }
}

/** The folios of the page sequence most pages agree on (`minPages`, `minShare`), and the heads beside them. */
export const sequenceFolios = (pages: ReadonlyArray<OrderedPage>): Set<Line> => {
  const found = new Set<Line>()
  romanFolios(pages, found)
  const perPage = pages.map((page) => candidates(pageLinesOf(page), page.height))
  const counts = new Map<number, number>()
  perPage.forEach((list, i) => {
    for (const offset of new Set(list.map((c) => c.value - pages[i]!.page))) {
      counts.set(offset, (counts.get(offset) ?? 0) + 1)
    }
  })
  let offset: number | undefined
  let best = 0
  for (const [key, count] of counts) {
    if (count > best) {
      offset = key
      best = count
    }
  }
  const textPages = pages.filter((page) => page.items.some((item) => item._tag === "Line")).length
  if (offset === undefined || best < Math.max(minPages, minShare * textPages)) return found
  const sizes = new Map<number, number>()
  pages.forEach((page, i) => {
    for (const c of perPage[i]!) {
      if (c.value === page.page + offset) sizes.set(c.line.size, (sizes.get(c.line.size) ?? 0) + 1)
    }
  })
  const usual = heaviest(sizes)
  pages.forEach((page, i) => {
    const folios = perPage[i]!.filter((c) => c.value === page.page + offset && c.line.size <= usual * maxGrowth)
    if (folios.length === 0) return
    for (const folio of folios) found.add(folio.line)
    // The running head beside the folio on its baseline (a title at the other margin).
    for (const line of pageLinesOf(page)) {
      if (!inBand(line, page.height, besideBand)) continue
      if (folios.some((folio) => Math.abs(folio.line.y - line.y) < sameBaseline)) found.add(line)
    }
  })
  return found
}
