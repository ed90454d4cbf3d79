/**
 * pdfTeX writes a TeX bitmap (PK) font as a Type 3 font whose glyph names are its codes (`/a28`),
 * which tell nothing: such a font is read as a T1 (Cork) text font when its codes say so. Below 32,
 * T1 has quotes, dashes and the f-ligatures (16-31) where OT1 has ligatures (11-15) then accents and
 * foreign letters, and math fonts have Greek (cmmi) or symbols (cmsy); a font with lowercase
 * letters whose codes below 32 are all among T1's text characters, none below 16, is taken as T1.
 */

import { isControlCode } from "./glyphNames.js"

/** T1's text characters below 32 (and its section sign) by code, as glyph names. */
const t1 = new Map<number, string>([
  [16, "quotedblleft"],
  [17, "quotedblright"],
  [21, "endash"],
  [22, "emdash"],
  [27, "ff"],
  [28, "fi"],
  [29, "fl"],
  [30, "ffi"],
  [31, "ffl"],
  [159, "section"]
])

/** Lowercase letters a text font shows at least (math fonts aside, a font with so few is a heading's or a label's). */
const minLetters = 3

const codeName = /^a(\d+)$/

const unicodeName = (code: number): string => `uni${code.toString(16).toUpperCase().padStart(4, "0")}`

/**
 * The font's names with T1's where the font is a TeX bitmap font taken as T1 (its other codes named
 * as the characters at those codes, where T1 sets its letters); the names as they are otherwise.
 */
export const texBitmapNames = (names: ReadonlyMap<number, string>): ReadonlyMap<number, string> => {
  let letters = 0
  for (const [code, name] of names) {
    if (codeName.exec(name)?.[1] !== String(code)) return names
    if (isControlCode(code) && !t1.has(code)) return names
    if (code >= 97 && code <= 122) letters++
  }
  if (letters < minLetters) return names
  return new Map([...names.keys()].map((code) => [code, t1.get(code) ?? unicodeName(code)]))
}
