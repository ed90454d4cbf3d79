/** Which runs and lines are code: the code face, a roman comment after it, a fallback font's characters in it. */
import type { TextItem } from "./model.js"
import { Style } from "./model.js"

export const isMono = (item: TextItem): boolean => (item.style & Style.code) !== 0

/** A comment's start in a listing: what a roman comment follows in the code face. */
export const commentStart = /(?:#|\/\/|\/\*|--|;|%)$/

/** Whether a line is code whose comment is set in the text face (texinfo's `@r{}`, DocBook's `<lineannotation>`). */
export const commentedCode = (items: ReadonlyArray<TextItem>): boolean => {
  let code = 0
  while (code < items.length && isMono(items[code]!)) code++
  if (code === 0 || code === items.length) return false
  const lead = items.slice(0, code).map((item) => item.text).join(" ").trim()
  return commentStart.test(lead) && lead.replace(commentStart, "").trim().length >= 2
}

/**
 * A run of a line otherwise in the code face that a fallback font set: letters of another script,
 * or in a slanted face a brace or a backslash (TeX's math symbols: Sweave's listings), a quote
 * (an apostrophe in a listing's italic comment) or the mark of a wrapped line (Sphinx's, dblatex's).
 */
const fallbackRun = (item: TextItem): boolean =>
  !/[A-Za-z0-9]/.test(item.text) &&
  (/[^\p{Script=Latin}\p{Script=Common}]/u.test(item.text) ||
    ((item.style & Style.emphasis) !== 0 && /^(?:[{}\\'"-]|\u02D3|\u2190|\u2192){1,3}$/u.test(item.text.trim())))

/**
 * Whether a line is code some of whose characters the code face lacked and a fallback font set
 * (Courier has no Ethiopic): its Latin letters all in the code face, its other runs
 * `fallbackRun`s holding a small part of its characters.
 */
export const fallbackCode = (items: ReadonlyArray<TextItem>): boolean => {
  let latin = false
  let mono = 0
  let other = 0
  for (const item of items) {
    if (isMono(item)) {
      latin ||= /[A-Za-z]/.test(item.text)
      mono += item.text.length
    } else if (!fallbackRun(item)) return false
    else other += item.text.length
  }
  return latin && mono >= 3 * other
}

/**
 * A run's own character width when its font is fixed-pitch (its advance over its characters); a run a
 * printer driver left without advances (zero wide) gets Courier's.
 */
export const charWidthOf = (item: TextItem): number =>
  item.width > 0 ? item.width / Math.max(1, codePoints(item.text)) : 0.6 * item.size

/** How many code points a text has (what `[...text].length` counts), without the array. */
const codePoints = (text: string): number => {
  let count = text.length
  for (let i = 0; i + 1 < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0xD800 && code <= 0xDBFF) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xDC00 && next <= 0xDFFF) {
        count--
        i++
      }
    }
  }
  return count
}
