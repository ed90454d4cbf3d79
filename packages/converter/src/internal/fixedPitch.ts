/** A nameless, unflagged font's pitch (pdfTeX's Type 3 bitmap CMTT), measured on a page's characters. */
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"

const enoughCharacters = 8
const enoughLetters = 4
const tolerance = 0.01
/** A fixed-pitch glyph's box may pass its advance by this much: a Type 3 bitmap's ink ("m", "q"). */
const overhang = 0.06
const pitchShare = 0.75

/** In font sizes (cmtt 0.525, Courier 0.6): an ideograph's em is no pitch. */
const minPitch = 0.4
const maxPitch = 0.7

const letter = /\p{Script=Latin}/u

/** Whether widths (in font sizes) by character are one Latin pitch: a proportional face's equal digits are not. */
export const evenPitch = (widths: ReadonlyMap<string, number>): boolean => {
  const values = [...widths.values()]
  if (values.length < enoughCharacters) return false
  if ([...widths.keys()].filter((c) => letter.test(c)).length < enoughLetters) return false
  const pitch = Math.min(...values)
  return pitch >= minPitch && pitch <= maxPitch && Math.max(...values) <= pitch + overhang &&
    values.filter((width) => width <= pitch + tolerance).length >= pitchShare * values.length
}

/** The fonts of a text page whose characters' loose boxes are one pitch, each distinct character measured once. */
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
