/**
 * Slide titles: a deck's pages start with their title, at one place and in one size on most of
 * them, set apart from what follows. Such a title is a heading whatever its size (Impress sets its
 * titles smaller than the bullets under them; beamer's frame titles are in no outline).
 */
import type { OutlinedLine } from "./headings.js"
import { listMarker } from "./lists.js"
import type { Line, OrderedPage } from "./model.js"
import { pageLines } from "./model.js"
import { letterCount, normalizeText } from "./text.js"

/** A title starts in this top share of its page. */
const topShare = 0.25
/** A title wraps over at most this many lines, each this close under the one before (in its size). */
const maxLines = 3
const maxLineGap = 1.5
const maxChars = 150
/** How far (points) titles' left edges, or centres, may stand apart and still be in one place. */
const placeSlack = 1.5
/** A deck has this many titled pages at least, and this share of its pages with text. */
const minPages = 4
const minShare = 0.5
/** Titles differ from page to page (a running head that was not removed repeats one or two texts). */
const minDistinct = 0.4

interface Candidate {
  readonly lines: ReadonlyArray<Line>
  readonly text: string
}

/** A deck's slide titles, their size, and the title of its first page when that is no titled slide. */
export interface SlideTitles {
  readonly size: number
  readonly titles: ReadonlyArray<Candidate>
  readonly deck: ReadonlyArray<Line>
}

const sameSize = (a: Line, b: Line): boolean => Math.abs(a.size - b.size) <= 0.25

/** The lines a page starts with, when they can be its title: near the top, short, then a break. */
const candidate = (page: OrderedPage): Candidate | undefined => {
  const lines = pageLines(page)
  const first = lines[0]
  if (first === undefined || first.y > page.height * topShare) return undefined
  const group = [first]
  let next = 1
  while (next < lines.length) {
    const line = lines[next]!
    const last = group[group.length - 1]!
    const under = line.y > last.y && line.y - last.y <= maxLineGap * line.size
    if (!sameSize(line, first) || !under || Math.abs(line.x0 - first.x0) > placeSlack) break
    if (group.length === maxLines) return undefined
    group.push(line)
    next++
  }
  const text = group.map((line) => normalizeText(line.text).trim()).join(" ")
  if (text.length > maxChars || letterCount(text) < 2 || listMarker(first.text, first.marks) !== undefined) {
    return undefined
  }
  return { lines: group, text }
}

/** The candidates standing where most do: the same size, and the same left edge or the same centre. */
const inPlace = (candidates: ReadonlyArray<Candidate>): Array<Candidate> => {
  let best: Array<Candidate> = []
  for (const anchor of candidates) {
    const first = anchor.lines[0]!
    const centre = (first.x0 + first.x1) / 2
    const sized = candidates.filter((other) => sameSize(other.lines[0]!, first))
    const left = sized.filter((other) => Math.abs(other.lines[0]!.x0 - first.x0) <= placeSlack)
    const centred = sized.filter((other) =>
      Math.abs((other.lines[0]!.x0 + other.lines[0]!.x1) / 2 - centre) <= placeSlack
    )
    const found = left.length >= centred.length ? left : centred
    if (found.length > best.length) best = found
  }
  return best
}

/** The slide titles when the pages are a deck's; undefined otherwise. */
export const findSlideTitles = (
  pages: ReadonlyArray<OrderedPage>,
  skip: (page: OrderedPage) => boolean
): SlideTitles | undefined => {
  const read = pages.filter((page) => !skip(page) && pageLines(page).length > 0)
  const candidates = read.flatMap((page) => candidate(page) ?? [])
  const titles = inPlace(candidates)
  if (titles.length < minPages || titles.length < minShare * read.length) return undefined
  if (new Set(titles.map((title) => title.text)).size < minDistinct * titles.length) return undefined
  const size = titles[0]!.lines[0]!.size
  const opening = titles.some((title) => title.lines[0] === pageLines(read[0]!)[0]) ? undefined : read[0]
  return { size, titles, deck: deckTitle(opening, size) }
}

/**
 * The level of a deck's slide titles: under the outline's deepest entries when there is an outline,
 * else the level of their size, or one under each larger heading size.
 */
export const slideLevel = (size: number, levels: ReadonlyMap<number, number>, outlineDepth: number): number => {
  if (outlineDepth > 0) return Math.min(6, outlineDepth + 1)
  const larger = [...levels.keys()].filter((other) => other > size + 0.25).length
  return levels.get(size) ?? Math.min(6, larger + 1)
}

/** A deck's title on a first page that is no titled slide: its largest lines, at least the titles' size. */
const deckTitle = (page: OrderedPage | undefined, size: number): Array<Line> => {
  const lines = page === undefined ? [] : pageLines(page)
  const largest = lines.reduce((max, line) => Math.max(max, line.size), 0)
  if (largest < size - 0.25) return []
  const start = lines.findIndex((line) => line.size === largest)
  const group = [lines[start]!]
  for (let i = start + 1; i < lines.length && group.length < maxLines; i++) {
    const line = lines[i]!
    const last = group[group.length - 1]!
    if (line.size !== largest || line.y <= last.y || line.y - last.y > 2 * largest) break
    group.push(line)
  }
  const text = group.map((line) => normalizeText(line.text).trim()).join(" ")
  return text.length <= maxChars && letterCount(text) >= 2 ? group : []
}

/** Each slide title's lines as headings at `level` (lines already headings by the outline are left). */
export const slideTitleLines = (
  found: SlideTitles,
  outlined: ReadonlyMap<Line, OutlinedLine>,
  level: number
): Map<Line, OutlinedLine> => {
  const lines = new Map<Line, OutlinedLine>()
  const deck = found.deck.some((line) => outlined.has(line)) ? [] : found.deck
  const deckText = deck.map((line) => normalizeText(line.text).trim()).join(" ")
  deck.forEach((line, index) => lines.set(line, { level: 1, title: deckText, first: index === 0, documentTitle: true }))
  const titles = found.titles
  for (const title of titles) {
    if (title.lines.some((line) => outlined.has(line))) continue
    title.lines.forEach((line, index) => lines.set(line, { level, title: title.text, first: index === 0 }))
  }
  return lines
}
