/** Page furniture (running heads and feet, folios, print headers and footers) in the top and bottom bands. */
import { placedHeads } from "./chapterHeads.js"
import { asciiDigits, sequenceFolios } from "./folios.js"
import { addHeadSpots } from "./headSpots.js"
import type { Line, OrderedPage } from "./model.js"

/** A folio: "3", "iv", "- 3 -", "Page 3", "3 of 7", "3/7", "2 sur 7", "Seite 2 von 7". */
const pageNumber =
  /^(?:page|p\.|seite|página|pagina)?\s*[-–—([]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?(?:\s*(?:of|\/|sur|von|de|di|van|из|\|)\s*\d{1,4})?$/i
/** A URL alone (a browser prints the page's address in its footer). */
const url = /^(?:https?|file):\/\/\S+$/i
/** A date, with or without a time, as a browser prints it in its header. */
const dateTime = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:,?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?)?$/i
/** A listing's or a table's note at a page break, as Sphinx sets it: not the document's text. */
const continuation = /^\(?(?:continued from previous page|continue[sd] on next page)\)?$/i
/** The top and bottom bands of a page where furniture lives. */
const band = 0.1
/** Baselines this close (points) are one position on every page. */
const samePlace = 1.5
/** A line repeated at one place on this many pages is furniture (a chapter's running head). */
const minPlacedRepeats = 3

/** A line's text with numbers (arabic and roman) as one placeholder: "Chapter 3 - 45" matches "Chapter 3 - 46". */
const textKey = (text: string): string =>
  asciiDigits(text).toLowerCase().replace(/\d+/g, "#").replace(/\b[ivxlcdm]{1,7}\b/g, "#").replace(/\s+/g, " ").trim()

const position = (line: Line, height: number): "top" | "bottom" | undefined =>
  line.y < height * band ? "top" : line.y > height * (1 - band) ? "bottom" : undefined

/** A page counter ("2 of 7", "2/7"): a browser or a print driver printed the page. */
const counter = /\d\s*(?:of|\/|sur|von|de|di|van|из)\s*\d/i

/** Furniture by form alone: a folio, or a URL or date on a page with a counter (a browser's header and footer). */
export const isFurnitureText = (text: string, printed: boolean): boolean => {
  const trimmed = asciiDigits(text.trim())
  return pageNumber.test(trimmed) || (printed && (url.test(trimmed) || dateTime.test(trimmed)))
}

const countPages = (pages: ReadonlyArray<OrderedPage>, keys: (line: Line, height: number) => Array<string>) => {
  const counts = new Map<string, number>()
  for (const page of pages) {
    const seen = new Set<string>()
    for (const item of page.items) {
      if (item._tag === "Line") { for (const key of keys(item.line, page.height)) seen.add(key) }
    }
    for (const key of seen) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

const bandKey = (line: Line, height: number): Array<string> => {
  const where = position(line, height)
  return where === undefined ? [] : [`${where}:${textKey(line.text)}`]
}

/** A numbered title's lead: "Chapter 3:" of "Chapter 3: Installing", up to two words then the number. */
const numberedLead = /^\p{L}+(?:\s+\p{L}+)?\s+(?:\d+|[IVXLCDM]+|[A-Z])\b[.:]?/u

/** The keys at the line's place and the neighbouring one: its text, and the lead of a numbered title. */
const placedKeys = (line: Line, height: number): Array<string> => {
  if (position(line, height) === undefined) return []
  const at = Math.round(line.y / samePlace)
  const lead = numberedLead.exec(line.text)?.[0]
  const keys = [textKey(line.text), ...(lead !== undefined ? [`lead:${textKey(lead)}`] : [])]
  return keys.flatMap((key) => [`${at}:${key}`, `${at + 1}:${key}`])
}

/** The arabic numbers of a line, in order. */
const numbersOf = (text: string): Array<number> => (asciiDigits(text).match(/\d+/g) ?? []).map(Number)

/**
 * Whether two lines of one key repeat as a running head does: each number the same (a chapter's) or in
 * step with the pages (a folio's). "Example 1:" then "Example 3:" on the next page are titles.
 */
const inStep = (a: ReadonlyArray<number>, pageA: number, b: ReadonlyArray<number>, pageB: number): boolean =>
  a.length === b.length && a.every((n, i) => n === b[i] || n - b[i]! === pageA - pageB)

type Placed = Map<string, Array<{ readonly page: number; readonly numbers: ReadonlyArray<number> }>>

/** The lines of each place's key (`placedKeys`), with their page's index and their numbers. */
const placedLines = (pages: ReadonlyArray<OrderedPage>): Placed => {
  const placed: Placed = new Map()
  pages.forEach((page, index) => {
    for (const item of page.items) {
      if (item._tag !== "Line") continue
      // Only the bands' lines have keys: the body's are not searched for numbers.
      const keys = placedKeys(item.line, page.height)
      if (keys.length === 0) continue
      const numbers = numbersOf(item.line.text)
      for (const key of keys) {
        const list = placed.get(key) ?? []
        list.push({ page: index, numbers })
        placed.set(key, list)
      }
    }
  })
  return placed
}

/** On how many pages a place's key recurs. */
const pagesWith = (placed: Placed, key: string): number =>
  new Set((placed.get(key) ?? []).map((other) => other.page)).size

/** On how many pages the line's key recurs in step with it (`inStep`). */
const stepRepeats = (placed: Placed, key: string, line: Line, page: number): number => {
  const numbers = numbersOf(line.text)
  const pages = (placed.get(key) ?? []).filter((other) => inStep(numbers, page, other.numbers, other.page))
  return new Set(pages.map((other) => other.page)).size
}

/** A head or foot stands this many of its sizes from the page's nearest other baseline, at least. */
const apartGap = 2.5

/** A page's first (top band) or last (bottom band) baseline of two runs or more, set apart: a head's halves. */
const apartPairs = (page: OrderedPage, minRuns = 2): Array<Line> => {
  const lines = page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
  if (lines.length < 3) return []
  const ys = page.items.flatMap((item) =>
    item._tag === "Line"
      ? [item.line.y]
      : item._tag === "Table" || item._tag === "Contents"
      ? [item.y]
      : [item.placed.y0, item.placed.y1]
  )
  const apart = (y: number, where: "top" | "bottom"): Array<Line> => {
    const on = lines.filter((line) => Math.abs(line.y - y) < samePlace)
    if (on.length < minRuns || position(on[0]!, page.height) !== where) return []
    const size = Math.max(...on.map((line) => line.size))
    const gaps = ys.map((other) => Math.abs(other - y)).filter((gap) => gap >= samePlace)
    return gaps.length > 0 && Math.min(...gaps) >= apartGap * size ? on : []
  }
  return [...apart(Math.min(...ys), "top"), ...apart(Math.max(...ys), "bottom")]
}

const spotKeys = (line: Line): Array<string> => {
  const at = Math.round(line.y / samePlace)
  return [`${at}:${textKey(line.text)}`, `${at + 1}:${textKey(line.text)}`]
}

/** Whether a line shares its baseline with a line found to be furniture. */
const besideFurniture = (line: Line, furniture: ReadonlySet<Line>): boolean => {
  for (const other of furniture) if (Math.abs(other.y - line.y) < samePlace) return true
  return false
}

/** Drops the bands' furniture (lines repeated across pages, numbers ignored; folios, URLs, dates) and returns it. */
export const removeRunningHeads = (
  pages: ReadonlyArray<OrderedPage>
): { readonly pages: Array<OrderedPage>; readonly removed: Array<Line> } => {
  const textPages = pages.filter((page) => page.items.length > 0).length
  const anywhere = countPages(pages, bandKey)
  const placed = placedLines(pages)
  const threshold = Math.max(3, textPages * 0.3)
  const repeats = textPages <= 3 ? Math.max(2, textPages) : minPlacedRepeats
  const folios = sequenceFolios(pages)
  const heads = placedHeads(pages)
  const pairs = pages.map((page) => apartPairs(page))
  const paired = new Map<string, number>()
  for (const lines of pairs) {
    for (const key of new Set(lines.flatMap(spotKeys))) paired.set(key, (paired.get(key) ?? 0) + 1)
  }
  const repeatedKeys = [...anywhere].flatMap(([key, count]) =>
    count >= threshold && /\p{L}/u.test(key) && /\S\s+\S/u.test(key) ? [key.slice(key.indexOf(":") + 1)] : []
  )
  const bandRepeated = (line: Line): boolean => {
    const key = textKey(line.text)
    return textPages >= 2 && repeatedKeys.some((known) => key.startsWith(`${known} `))
  }
  const isFurniture = (line: Line, height: number, printed: boolean, page: number): boolean => {
    if (folios.has(line) || heads.has(line) || continuation.test(line.text.trim())) return true
    const where = position(line, height)
    if (where === undefined) return false
    if (isFurnitureText(line.text, printed)) return true
    if (textPages < 2) return false
    // Either band: a running head set at the foot of a chapter's first page (groff -me, LaTeX's plain style).
    const key = textKey(line.text)
    if ((anywhere.get(`top:${key}`) ?? 0) + (anywhere.get(`bottom:${key}`) ?? 0) >= threshold) return true
    if (!/\p{L}.*\p{L}/u.test(line.text)) return false
    const keys = placedKeys(line, height)
    // A lead ("Chapter #:") must recur as often as a running head shared by the whole document.
    return keys.some((key) =>
      key.includes(":lead:")
        ? pagesWith(placed, key) >= threshold
        : stepRepeats(placed, key, line, page) >= repeats
    )
  }
  const furnitures = pages.map((page, p) => {
    const printed = page.items.some((item) =>
      item._tag === "Line" && position(item.line, page.height) !== undefined &&
      counter.test(asciiDigits(item.line.text)) &&
      pageNumber.test(asciiDigits(item.line.text.trim()))
    )
    const furniture = new Set<Line>()
    // A pair of halves seen on another page too: the whole baseline is furniture.
    const repeated = pairs[p]!.filter((line) => spotKeys(line).some((key) => (paired.get(key) ?? 0) >= 2))
    if (repeated.length >= 2) { for (const line of pairs[p]!) furniture.add(line) }
    // A baseline set apart that starts with a line repeated in a band on many pages (the journal line at
    // every foot, at page 1's head before the preprint's date): the whole baseline.
    const apart = apartPairs(page, 1)
    for (const line of apart) {
      if (!bandRepeated(line)) continue
      for (const other of apart) if (Math.abs(other.y - line.y) < samePlace) furniture.add(other)
    }
    for (const item of page.items) {
      if (item._tag === "Line" && isFurniture(item.line, page.height, printed, p)) furniture.add(item.line)
    }
    // A running head's other half (the title beside "Trovato et al."), on alternate pages only.
    for (const item of page.items) {
      if (item._tag !== "Line" || furniture.has(item.line) || !besideFurniture(item.line, furniture)) continue
      if (placedKeys(item.line, page.height).some((key) => pagesWith(placed, key) >= 2)) furniture.add(item.line)
    }
    return furniture
  })
  if (textPages >= 4) addHeadSpots(pages, furnitures, (line, height) => position(line, height) !== undefined)
  const removed: Array<Line> = []
  const kept = pages.map((page, p) => ({
    ...page,
    items: page.items.filter((item) => {
      if (item._tag !== "Line" || !furnitures[p]!.has(item.line)) return true
      removed.push(item.line)
      return false
    })
  }))
  return { pages: kept, removed }
}
