/**
 * A font's style (fixed pitch, bold, italic) from its descriptor, italic angle and name (a TeX font's
 * flags rarely mark it fixed-pitch: CMTT is named, not flagged).
 */
import { Style } from "./layout/model.js"
import { symbolFace, symbolFont, symbolicFace, symbolicOnly } from "./layout/symbolBullets.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"

/** PDF font descriptor flags (PDF 32000, 9.8.2). */
const fixedPitchFlag = 1
const italicFlag = 64
const forceBoldFlag = 1 << 18

/** The typewriter faces of txfonts and newtx (Sphinx's LaTeX), and cm-super's (T1 LaTeX without Latin Modern). */
const monoName =
  /mono|courier|monaco|nimbusmon|consol|typewriter|menlo|inconsolata|sourcecodepro|firacode|cmtt|cmsltt|cmitt|lmmono|sfmt|sftt|sfit\d|sfst\d|ectt|t(?:1|c)?xb?tt|andale|lucidaconsole|\btt\d/i
const boldName = /bold|black|heavy|demi|cmbx|cmb\d|cmssbx|sfbx|sfsx|t(?:1|c)?xbtt/i
const italicName = /italic|oblique|cmti|cmsl|cmitt|sfti|sfsl|sfit\d|sfst\d|slanted|kursiv/i
/** Proportional families by name: Apple's pstopdf flags its MacRoman Times fixed-pitch (the face of "fi" and "fl"). */
const proportionalName =
  /^(?:times|helvetica|arial|georgia|palatino|garamond|bookman|newcentury|verdana|tahoma|calibri|cambria)/i
/** Normal weight by name: PDFium guesses weight from StemV, which dvips + Ghostscript set as high for CMR12 as CMBX12. */
const regularName =
  /regular|roman|book|medium|light|thin|regu\b|^(?:cm|lm|ec|tc|sf)[a-z]*\d|^t[13]?x[a-z]+$|^(?:times|helvetica|courier)(?:-oblique|-italic)?$/i

/** The `Style` bits a font's name tells (a subset prefix "ABCDEF+" ignored). */
export const nameStyle = (name: string): number => {
  const base = name.replace(/^[A-Z]{6}\+/, "")
  return (monoName.test(base) ? Style.code : 0) | (boldName.test(base) ? Style.strong : 0) |
    (italicName.test(base) ? Style.emphasis : 0)
}

const latin1 = new TextDecoder("latin1")

/** The `Style` bits of a font from its name, descriptor flags, PDFium's weight and italic angle. */
export const faceStyle = (name: string, flags: number, weight: number, angle: number): number => {
  let style = nameStyle(name)
  const base = name.replace(/^[A-Z]{6}\+/, "")
  if (flags > 0 && (flags & fixedPitchFlag) !== 0 && !proportionalName.test(base)) style |= Style.code
  if ((weight >= 600 && !regularName.test(base)) || (flags > 0 && (flags & forceBoldFlag) !== 0)) style |= Style.strong
  if ((flags > 0 && (flags & italicFlag) !== 0) || angle !== 0) style |= Style.emphasis
  return style
}

/** A font's base name as PDFium gives it ("" for a Type 3 font without one). */
export const fontName = (m: Pdfium, font: number): string =>
  P.withBuffer(m, 256, (buffer) => {
    const length = m.direct.FPDFFont_GetBaseFontName(font, buffer, 256)
    return length > 1 ? latin1.decode(m.pdfium.HEAPU8.subarray(buffer, buffer + length - 1)) : ""
  })

export const fontStyle = (m: Pdfium, font: number): number => {
  if (font === 0) return 0
  const c = m.direct
  const name = fontName(m, font)
  const angle = P.withBuffer(m, 4, (out) => c.FPDFFont_GetItalicAngle(font, out) ? P.int(m, out) : 0)
  const flags = c.FPDFFont_GetFlags(font)
  return faceStyle(name, flags, c.FPDFFont_GetWeight(font), angle) |
    (symbolFont(name) ? symbolFace : 0) | (symbolicOnly(flags) ? symbolicFace : 0)
}
