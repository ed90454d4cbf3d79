/**
 * Bold section headings set a little smaller than the text (REVTeX's "I. INTRODUCTION", "A. Scope",
 * "1. Notes"): numbered or in capitals, with a heading's space around them. Their numbering styles
 * nest in the usual outline order, so "II." stands over "A." over "1." over "a.".
 */
import { allBold, appendixWord } from "./headings.js"
import { labelAt } from "./labels.js"
import type { Line, OrderedPage } from "./model.js"
import { letterCount } from "./text.js"

/** How much smaller than the body, in points, such a heading may be set. */
const maxShrink = 1.5
/** How much farther than paragraphs, in font sizes of the body, the heading stands from its neighbours. */
const minExtra = 0.25
const maxExtra = 2
const maxChars = 100

/** Numbering styles from the outermost: "I.", "A.", "1.", "1.1", "a.", "i."; an arabic number's depth ends its name. */
const outerFirst: Readonly<Record<string, number>> = { upperRoman: 0, upper: 1, lower: 10, lowerRoman: 11 }
const outlineOrder = (kind: string): number =>
  kind.startsWith("arabic") ? 1 + Number(kind.slice("arabic".length)) : outerFirst[kind] ?? 12

const arabic = /^(\d+(?:\.\d+)*)\.?\s+\S/u

/** A numbering style and the number it gives the heading: roman and letter readings of "I." are both kept. */
interface Numbering {
  readonly kind: string
  readonly number: number
}

const numberings = (text: string): Array<Numbering> => {
  const digits = arabic.exec(text)?.[1]
  if (digits !== undefined) {
    const parts = digits.split(".")
    return [{ kind: `arabic${parts.length}`, number: Number(parts[parts.length - 1]) }]
  }
  if (appendixWord.test(text)) return []
  return (labelAt(text)?.readings ?? []).map((reading) => ({ kind: reading.kind, number: reading.number }))
}

const capitals = (text: string): boolean => {
  const letters = text.replace(/[^\p{L}]/gu, "")
  return letters.length >= 4 && letters === letters.toUpperCase()
}

const headingShape = (line: Line, body: number): boolean =>
  line.charWidth === undefined && line.size < body && line.size >= body - maxShrink &&
  line.text.length <= maxChars && letterCount(line.text) >= 2 && allBold(line.text, line.marks ?? []) &&
  !/[.;,]$/.test(line.text) &&
  (numberings(line.text).length > 0 || appendixWord.test(line.text) || capitals(line.text))

/** The line under a heading line that wraps its title: at its size and margin (or centre), right below it. */
const wrapOf = (line: Line, next: Line | undefined): Line | undefined =>
  next !== undefined && next.size === line.size && next.y > line.y && next.y - line.y < line.size * 1.6 &&
    (Math.abs(next.x0 - line.x0) < line.size || Math.abs(next.x0 + next.x1 - line.x0 - line.x1) < line.size) &&
    letterCount(next.text) >= 2
    ? next
    : undefined

/** The headings' lines (a wrapped title's both) and their depth under the document's top numbering (0). */
export const smallHeadings = (
  pages: ReadonlyArray<OrderedPage>,
  body: number,
  gap: number | undefined,
  lineRatio: number
): Map<Line, number> => {
  const found = new Map<Line, string | undefined>()
  if (gap === undefined) return new Map()
  const last = new Map<string, number>()
  const kindOf = (text: string): string | undefined => {
    const readings = numberings(text)
    // "I." after "H." is a letter, after nothing or "IV." a roman number; "i." starting a sequence is roman.
    const chosen = readings.find((reading) => last.get(reading.kind) === reading.number - 1) ??
      readings.find((reading) => reading.number === 1 && reading.kind.endsWith("Roman")) ??
      readings.find((reading) => reading.number === 1) ?? readings.find((reading) => last.has(reading.kind)) ??
      readings[0]
    if (chosen !== undefined) last.set(chosen.kind, chosen.number)
    return chosen?.kind
  }
  for (const page of pages) {
    const lines = page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
    lines.forEach((line, i) => {
      if (found.has(line) || !headingShape(line, body)) return
      const previous = lines[i - 1]
      if (previous !== undefined && previous.y < line.y && line.y - previous.y < gap + minExtra * body) return
      // A title ending in a colon goes on in the line under it.
      const wrap = /:$/.test(line.text) ? wrapOf(line, lines[i + 1]) : undefined
      if (/:$/.test(line.text) && wrap === undefined) return
      const end = wrap ?? line
      const next = lines[i + (wrap === undefined ? 1 : 2)]
      // Last in its column (the text goes on in the next one), it has only the space above to go by.
      if (next === undefined || next.y > end.y) {
        const below = next === undefined ? undefined : next.y - end.y
        // Two lines' space is enough where paragraph gaps are wide (display equations widen them).
        const least = Math.min(gap + minExtra * body, 2 * lineRatio * body)
        if (below === undefined || below < least || below > gap + maxExtra * body) return
      } else if (previous === undefined) return
      const kind = kindOf(line.text)
      found.set(line, kind)
      if (wrap !== undefined) found.set(wrap, kind)
    })
  }
  const kinds = [...new Set(found.values())].flatMap((kind) => kind === undefined ? [] : [kind])
  kinds.sort((a, b) => outlineOrder(a) - outlineOrder(b))
  return new Map([...found].map(([line, kind]) => [line, kind === undefined ? 0 : kinds.indexOf(kind)]))
}
