/**
 * Section titles underlined in the text face (a word processor's, printed through a PostScript
 * driver): a short line alone on its baseline with a rule drawn just under it from its first letter
 * to its last. Where a document has such titles, a title-cased line set like them, standing apart
 * from its neighbours, is one whose underline was left off.
 */
import type { Line, OrderedPage, Rule } from "./model.js"
import { pageLines } from "./model.js"
import { letterCount } from "./text.js"

const maxChars = 80
/** The rule's top under the baseline, in font sizes: an underline sits in the descenders. */
const maxDrop = 0.45
/** How far, in font sizes, the rule's ends may stand from the line's. */
const endSlack = 0.5
/** Space above and below a title without its underline, in font sizes from baseline to baseline. */
const minApart = 1.6

const underlines = (line: Line, rule: Rule): boolean =>
  rule.y0 >= line.y - 0.05 * line.size && rule.y0 <= line.y + maxDrop * line.size &&
  Math.abs(rule.x0 - line.x0) <= endSlack * line.size && Math.abs(rule.x1 - line.x1) <= endSlack * line.size

/** A title's shape: letters, not a sentence, not a list item or a link. */
const titleText = (text: string): boolean =>
  text.length <= maxChars && letterCount(text) >= 2 && /^[\p{Lu}\d]/u.test(text) && !/[.:;,]$/.test(text) &&
  !/(?:https?:|www\.|@)/.test(text)

/** Every word of four letters or more starts with a capital; no "Label: value" pair. */
const titleCased = (text: string): boolean =>
  !/:\s/.test(text) && text.split(/\s+/).every((word) => !/^\p{L}{4}/u.test(word) || /^\p{Lu}/u.test(word))

const alone = (line: Line, lines: ReadonlyArray<Line>): boolean =>
  !lines.some((other) => other !== line && Math.abs(other.y - line.y) < line.size)

/** Lines at least the body size, alone on their baseline, whose whole width one rule underlines. */
export const underlinedHeadings = (pages: ReadonlyArray<OrderedPage>, body: number): Set<Line> => {
  const found = new Set<Line>()
  for (const page of pages) {
    const rules = page.separators ?? []
    if (rules.length === 0) continue
    const lines = pageLines(page)
    for (const line of lines) {
      if (line.charWidth !== undefined || line.size < body - 0.5 || !titleText(line.text)) continue
      if (alone(line, lines) && rules.some((rule) => underlines(line, rule))) found.add(line)
    }
  }
  if (found.size < 2) return found
  const shapes = [...found]
  const likeThem = (line: Line): boolean =>
    shapes.some((title) => Math.abs(title.size - line.size) <= 0.25 && Math.abs(title.x0 - line.x0) <= 1)
  for (const page of pages) {
    const lines = pageLines(page)
    lines.forEach((line, i) => {
      if (found.has(line) || line.charWidth !== undefined || !titleText(line.text) || !titleCased(line.text)) return
      const above = lines[i - 1]
      const below = lines[i + 1]
      // Over a paragraph of more than one line, starting at its margin (not a list of one-line entries).
      const then = lines[i + 2]
      if (below === undefined || then === undefined || below.y - line.y < minApart * line.size) return
      if (then.y - below.y >= minApart * line.size || Math.abs(below.x0 - line.x0) > 1) return
      if (above !== undefined && line.y - above.y < minApart * line.size) return
      if (likeThem(line) && alone(line, lines)) found.add(line)
    })
  }
  return found
}
