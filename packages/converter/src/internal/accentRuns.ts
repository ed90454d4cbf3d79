/**
 * TeX through dvips sets an accent as a glyph of its own, a run drawn over its letter after or
 * before the run holding it ("oe," then "¨" over the "o"): in the order drawn it would read
 * "Joe, ̈". The accent is put after its letter as a combining mark, which normalisation composes.
 */
import { spacingAccents } from "./layout/text.js"

/** The combining mark of a lone spacing accent (the grave too: a backtick drawn over a letter is one). */
export const combiningAccent = (text: string): string | undefined => {
  // Every accent is one character: a run's whole text is not looked up as a key (asked of every run).
  if (text.length !== 1) return undefined
  return text === "`" ? "\u0300" : Object.hasOwn(spacingAccents, text) ? spacingAccents[text] : undefined
}

/** Where a run's characters lie in its text: page indices `start`..`end` from text offset `offset`. */
export interface CharSpan {
  readonly start: number
  readonly end: number
  readonly offset: number
}

const letter = /^\p{L}$/u
const combining = /[\u0300-\u036F]/

/**
 * The text with `mark` after the letter whose box (`box(index)`: its left and right on the page)
 * holds `centre`, and the spans with the offsets after it moved; undefined when no letter does.
 */
export const markLetterAt = (
  text: string,
  spans: ReadonlyArray<CharSpan>,
  centre: number,
  mark: string,
  at: (index: number) => string,
  box: (index: number) => readonly [number, number]
): { readonly text: string; readonly spans: Array<CharSpan> } | undefined => {
  for (const span of spans) {
    let offset = span.offset
    for (let i = span.start; i < span.end; i++) {
      const char = at(i)
      offset += char.length
      // Marks put in before are the text's, not the page's: the next character comes after them.
      while (combining.test(text[offset] ?? "")) offset++
      if (!letter.test(char)) continue
      const [left, right] = box(i)
      if (centre < Math.min(left, right) || centre > Math.max(left, right)) continue
      return {
        text: text.slice(0, offset) + mark + text.slice(offset),
        spans: spans.map((other) =>
          other.offset > span.offset ? { ...other, offset: other.offset + mark.length } : other
        )
      }
    }
  }
  return undefined
}

/**
 * A run's characters `start`..`end` as text, each grave drawn over the letter after it (TeX's "`a"
 * for "à") put on that letter; a backtick beside a letter (code) stays.
 */
export const gravesOnLetters = (
  start: number,
  end: number,
  at: (index: number) => string,
  box: (index: number) => readonly [number, number]
): string => {
  let text = ""
  for (let i = start; i < end; i++) {
    const char = at(i)
    if (char === "`" && i + 1 < end && letter.test(at(i + 1))) {
      const [left, right] = box(i)
      const [from, to] = box(i + 1)
      const centre = (left + right) / 2
      if (centre >= Math.min(from, to) && centre <= Math.max(from, to)) {
        text += `${at(i + 1)}\u0300`
        i++
        continue
      }
    }
    text += char
  }
  return text
}
