/** What a note looks like: words, not a formula's raised pieces; a label of its own; labels in sequence. */
import type { Note } from "./footnotes.js"
import type { Line } from "./model.js"
import { Style } from "./model.js"

/** Whether a note's text holds two letters or figures at least: a lone "t" or "2 +" is a formula's piece, not a note. */
export const hasWords = (note: Note): boolean => {
  let count = 0
  for (const [i, line] of note.lines.entries()) {
    count += (i === 0 ? line.text.slice(note.cut) : line.text).match(/[\p{L}\p{N}]/gu)?.length ?? 0
    if (count >= 2) return true
  }
  return false
}

/** Whether a line starts with a label of its own (a note's text set in bold starts with no label). */
export const startsLabelled = (line: Line): boolean => {
  const first = line.marks?.[0]
  return first !== undefined && first.start === 0 && first.style === Style.footnote
}

/** Whether `a` and `b` are numbers in sequence ("3" then "4"). */
export const follows = (a: string | undefined, b: string): boolean =>
  a !== undefined && /^\d+$/.test(ascii(a)) && /^\d+$/.test(ascii(b)) && Number(ascii(b)) === Number(ascii(a)) + 1

/** Superscript digits (a font's superior figures) and other scripts' digits ("۱۲") as ASCII ones. */
const ascii = (label: string): string =>
  label.replace(/[\u00B9\u00B2\u00B3\u2070\u2074-\u2079]|\p{Nd}/gu, (c) => {
    const superscript = superscripts.indexOf(c)
    if (superscript >= 0) return String(superscript)
    const code = c.codePointAt(0)!
    const zero = digitZeros.find((z) => code >= z && code < z + 10)
    return zero === undefined ? c : String(code - zero)
  })
const superscripts = "\u2070\u00B9\u00B2\u00B3\u2074\u2075\u2076\u2077\u2078\u2079"
/** The zeros of the decimal digits of the scripts most documents use (Unicode sets each run of ten in order). */
const digitZeros = [
  0x30,
  0x660,
  0x6F0,
  0x966,
  0x9E6,
  0xA66,
  0xAE6,
  0xBE6,
  0xC66,
  0xCE6,
  0xD66,
  0xE50,
  0xED0,
  0xF20,
  0x1040,
  0x17E0,
  0xFF10
]
