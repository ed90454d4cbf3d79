/**
 * A font that names no face and flags no pitch (pdfTeX's Type 3 bitmap fonts from PK files: CMTT
 * set as a nameless Type 3) is fixed-pitch when its characters on the page are one width, over
 * enough distinct characters that a proportional face's equal digits do not pass. Measured per
 * character, so only on pages with such fonts.
 */
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"

/** Distinct characters, letters among them, whose equal advances make a face fixed-pitch. */
const enoughCharacters = 8
const enoughLetters = 4
/** Widths (in font sizes) this close are one pitch. */
const tolerance = 0.01
/** A fixed-pitch glyph's box may pass its advance by this much: a Type 3 bitmap's ink ("m", "q"). */
const overhang = 0.06
/** The share of characters whose boxes are the pitch exactly. */
const pitchShare = 0.75

/** A Latin code face's pitch, in font sizes (cmtt 0.525, Courier 0.6): an ideograph's em is no pitch, nor a zero width. */
const minPitch = 0.4
const maxPitch = 0.7

const letter = /\p{Script=Latin}/u

/**
 * Whether character widths (in font sizes) are one Latin pitch: three quarters of enough distinct
 * characters, Latin letters among them, as narrow as the narrowest, none much wider.
 */
export const evenPitch = (widths: ReadonlyMap<string, number>): boolean => {
  const values = [...widths.values()]
  if (values.length < enoughCharacters) return false
  if ([...widths.keys()].filter((c) => letter.test(c)).length < enoughLetters) return false
  const pitch = Math.min(...values)
  return pitch >= minPitch && pitch <= maxPitch && Math.max(...values) <= pitch + overhang &&
    values.filter((width) => width <= pitch + tolerance).length >= pitchShare * values.length
}

/**
 * The fonts of a text page whose characters' loose boxes (which span a glyph's advance, a Type 3
 * glyph's bitmap too when wider) are one pitch (`evenPitch`), in one pass over its characters,
 * each distinct character of a font measured once.
 */
export const fixedPitchFonts = (
  m: Pdfium,
  textPage: number,
  count: number,
  at: (index: number) => string,
  sizeAt: (index: number) => number
): ReadonlySet<number> => {
  const c = m.direct
  const widths = new Map<number, Map<string, number>>()
  const fonts = new Map<number, readonly [number, Map<string, number>]>()
  P.withBuffer(m, 16, (out) => {
    for (let i = 0; i < count; i++) {
      const char = at(i)
      if (char.trim() === "") continue
      const object = c.FPDFText_GetTextObject(textPage, i)
      if (object === 0) continue
      let known = fonts.get(object)
      if (known === undefined) {
        const font = c.FPDFTextObj_GetFont(object)
        let byChar = widths.get(font)
        if (byChar === undefined) widths.set(font, byChar = new Map())
        fonts.set(object, known = [sizeAt(i), byChar])
      }
      const [size, byChar] = known
      if (byChar.has(char) || !(size > 0) || c.FPDFText_GetLooseCharBox(textPage, i, out) === 0) continue
      byChar.set(char, Math.abs(P.float(m, out + 8) - P.float(m, out)) / size)
    }
  })
  return new Set([...widths].filter(([, byChar]) => evenPitch(byChar)).map(([font]) => font))
}
