/**
 * Headings set like bold running text (a browser's `<h4>`, `<h5>`): told from a bold one-line paragraph
 * by the extra space a browser puts around them.
 */
import { allBold } from "./headings.js"
import { heaviest } from "./lines.js"
import type { Line, OrderedPage } from "./model.js"
import { Style } from "./model.js"
import { letterCount } from "./text.js"

/** How much farther than paragraphs, in font sizes, a spaced heading stands from its neighbours. */
const minExtra = 0.25
/** More than this, and the line is something else (a title page, a caption apart from its figure). */
const maxExtra = 1

/** Longer bold lines are a sentence set in bold, not a title. */
const maxChars = 120

/** The most common baseline distance between body-size lines farther apart than the leading: the paragraph gap. */
export const paragraphGap = (
  pages: ReadonlyArray<OrderedPage>,
  body: number,
  lineRatio: number
): number | undefined => {
  const weights = new Map<number, number>()
  let count = 0
  for (const page of pages) {
    let previous: Line | undefined
    for (const item of page.items) {
      if (item._tag !== "Line") {
        previous = undefined
        continue
      }
      const line = item.line
      if (previous !== undefined && line.size === body && previous.size === body) {
        const dy = line.y - previous.y
        if (dy > body * lineRatio * 1.2 && dy < body * 4) {
          const key = Math.round(dy * 2) / 2
          weights.set(key, (weights.get(key) ?? 0) + 1)
          count++
        }
      }
      previous = line
    }
  }
  return count < 5 ? undefined : heaviest(weights)
}

/** A whole line in bold (or bold italic), at the body size, short, with letters, not a sentence or a list item. */
export const boldTitleLine = (line: Line, body: number): boolean => {
  return line.charWidth === undefined && allBold(line.text, line.marks ?? []) && Math.abs(line.size - body) <= 0.5 &&
    line.text.length <= maxChars && letterCount(line.text) >= 2 &&
    !/[.:;,]$/.test(line.text) && !/^[\u2022\u25E6\u25AA\u2013\u2014*+-]\s/.test(line.text)
}

/** Bold body-size lines with more space above and below them than paragraphs have (within `maxExtra`). */
export const spacedHeadings = (
  pages: ReadonlyArray<OrderedPage>,
  body: number,
  gap: number | undefined
): Set<Line> => {
  const found = new Set<Line>()
  if (gap === undefined) return found
  for (const page of pages) {
    const lines = page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
    lines.forEach((line, i) => {
      if (!boldTitleLine(line, body)) return
      const next = lines[i + 1]
      const previous = lines[i - 1]
      if (next === undefined) return
      const below = next.y - line.y
      if (below < gap + minExtra * body || below > gap + maxExtra * body) return
      if (previous !== undefined && line.y - previous.y < gap + minExtra * body) return
      found.add(line)
    })
  }
  return found
}

/** "1 Overview", "2. Basics of Text Processing": a chapter's number and a short capitalised title. */
const numberedTitle = /^\d{1,2}\.?\s+\p{Lu}/u

/**
 * Bold body-size lines of a chapter number and its title, alone on their line above a line that is
 * not bold (a plain TeX or groff section title, set in the text size over its first paragraph).
 */
export const numberedHeadings = (pages: ReadonlyArray<OrderedPage>, body: number): Set<Line> => {
  const found = new Set<Line>()
  for (const page of pages) {
    const lines = page.items.flatMap((item) => item._tag === "Line" ? [item.line] : [])
    lines.forEach((line, i) => {
      const next = lines[i + 1]
      if (next === undefined || !boldTitleLine(line, body) || !numberedTitle.test(line.text)) return
      if (
        line.text.length > 80 ||
        (next.marks ?? []).some((mark) => mark.start === 0 && (mark.style & Style.strong) !== 0)
      ) return
      if (next.y <= line.y || next.y - line.y > body * 3) return
      // A shorter line under it is a paragraph's only when that paragraph's first line is indented past the title.
      if (next.x1 <= line.x1 && next.x0 - line.x0 <= body) return
      found.add(line)
    })
  }
  return found
}
