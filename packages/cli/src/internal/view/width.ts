/**
 * Widths in terminal columns, counted by `string-width` (escape sequences none, combining marks
 * none, East Asian wide and fullwidth characters and emoji two). Lines that fit never wrap, so a redraw that
 * moves the cursor up by its own line count lands where it started.
 */

import stringWidth from "string-width"
import stripAnsi from "strip-ansi"

const segmenter = new Intl.Segmenter()

/** The characters as a person sees them (grapheme clusters): a base letter and its marks stay together. */
const graphemes = (text: string): Array<string> => Array.from(segmenter.segment(text), (part) => part.segment)

export const charWidth = (char: string): number => stringWidth(char)

export const stripEscapes = (text: string): string => stripAnsi(text)

/** Control characters (a file name may hold any) would move the cursor: shown as `?`. */
export const printable = (text: string): string => text.replace(/\p{Cc}/gu, "?")

/** Columns the text takes on screen (escape sequences take none). */
export const width = (text: string): number => stringWidth(text)

/** Cuts plain text (no escapes) to at most `columns`, ending with `…` when cut. */
export const truncate = (text: string, columns: number): string => {
  if (columns <= 0) return ""
  if (width(text) <= columns) return text
  let kept = ""
  let used = 0
  for (const char of graphemes(text)) {
    const w = charWidth(char)
    if (used + w > columns - 1) break
    kept += char
    used += w
  }
  return `${kept}…`
}

/** Cuts plain text from the start (`…ng/path/name.pdf`): the end of a path says most. */
export const truncateStart = (text: string, columns: number): string => {
  if (columns <= 0) return ""
  if (width(text) <= columns) return text
  const chars = graphemes(text)
  let kept = ""
  let used = 0
  for (let i = chars.length - 1; i >= 0; i--) {
    const w = charWidth(chars[i]!)
    if (used + w > columns - 1) break
    kept = chars[i] + kept
    used += w
  }
  return `…${kept}`
}

/** Pads plain text with spaces to exactly `columns` (cutting it when longer). */
export const fit = (text: string, columns: number): string => {
  const cut = truncate(text, columns)
  return cut + " ".repeat(Math.max(0, columns - width(cut)))
}
