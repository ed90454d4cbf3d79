/**
 * Characters PDFium could not map to Unicode (FPDFText_HasUnicodeMapError) that it gives as their
 * raw code, a control character the layout strips ("rst time" for "first time"): their text is
 * read from the glyph names of the document's Type 3 fonts (see `type3Fonts`). PDFium names no
 * Type 3 font, so a page's font is tied to the fonts of the file by its codes: those that define
 * every code the font shows on the page; a code is given text only when all of them agree on it.
 */
import { glyphText, isControlCode } from "./glyphNames.js"
import type { Pdfium } from "./pdfium.js"
import type { Type3Font } from "./type3Fonts.js"

/** A control character, as PDFium gives an unmapped code below 32 or from 127 to 159 (tab and line ends are its own). */
const isControl = (character: string): boolean => {
  const code = character.length === 1 ? character.charCodeAt(0) : 0x20
  return isControlCode(code) && code !== 0x09 && code !== 0x0A && code !== 0x0D
}

/** What PDFium writes that is not a code of the font: the hyphen it marks, spaces it adds between words. */
const notCodes = new Set([0x02, 0x20, 0xFFFE])

/** The text of `code` in a font that shows `shown` codes on the page; `undefined` when the fonts do not tell or disagree. */
export const codeText = (
  fonts: ReadonlyArray<Type3Font>,
  code: number,
  shown: ReadonlySet<number>
): string | undefined => {
  const naming = fonts.filter((font) => font.has(code))
  const fitting = naming.filter((font) => [...shown].every((other) => font.has(other)))
  const texts = new Set((fitting.length > 0 ? fitting : naming).map((font) => glyphText(font.get(code)!)))
  const [text] = texts
  return texts.size === 1 ? text : undefined
}

/**
 * Whether every file font a page's font fits agrees with PDFium's reading of its codes as text: each
 * code's name gives that character (a control code's, some text).
 */
const confirms = (fonts: ReadonlyArray<Type3Font>, shown: ReadonlySet<number>): boolean => {
  const fitting = fonts.filter((font) => [...shown].every((code) => font.has(code)))
  return fitting.length > 0 && fitting.every((font) =>
    [...shown].every((code) => {
      const name = font.get(code)!
      return isControlCode(code) ? glyphText(name) !== undefined : glyphText(name) === String.fromCharCode(code)
    })
  )
}

/** What the file's Type 3 fonts tell of a page's unmapped characters. */
export interface NamedGlyphs {
  /** The text of each unmapped character the fonts name, by its index. */
  readonly named: Map<number, string>
  /** The page's fonts (PDFium's handles) whose codes the file's fonts confirm as read: not junk. */
  readonly confirmed: ReadonlySet<number>
}

/**
 * What the fonts tell of a text page's unmapped characters; nothing when the page has no unmapped
 * control character (the fonts are then not read).
 */
export const namedGlyphs = (
  m: Pdfium,
  textPage: number,
  count: number,
  at: (index: number) => string,
  fonts: () => ReadonlyArray<Type3Font>
): NamedGlyphs => {
  const named = new Map<number, string>()
  const confirmed = new Set<number>()
  const c = m.direct
  const unmapped: Array<number> = []
  for (let i = 0; i < count; i++) {
    if (isControl(at(i)) && c.FPDFText_HasUnicodeMapError(textPage, i) === 1) unmapped.push(i)
  }
  const all = unmapped.length === 0 ? [] : fonts()
  if (all.length === 0) return { named, confirmed }
  // The codes each font shows on the page (PDFium's Unicode of a Type 3 font's character is its code).
  const fontOf = new Map<number, number>()
  const shown = new Map<number, Set<number>>()
  const font = (index: number): number => {
    const object = c.FPDFText_GetTextObject(textPage, index)
    let found = fontOf.get(object)
    if (found === undefined) fontOf.set(object, found = object === 0 ? 0 : c.FPDFTextObj_GetFont(object))
    return found
  }
  for (let i = 0; i < count; i++) {
    const character = at(i)
    const code = character.length === 1 ? character.charCodeAt(0) : 0xFFFF
    if (code > 0xFF || notCodes.has(code)) continue
    const f = font(i)
    let codes = shown.get(f)
    if (codes === undefined) shown.set(f, codes = new Set())
    codes.add(code)
  }
  for (const index of unmapped) {
    const found = codeText(all, at(index).charCodeAt(0), shown.get(font(index)) ?? new Set())
    if (found !== undefined) named.set(index, found)
  }
  for (const [handle, codes] of shown) if (handle !== 0 && confirms(all, codes)) confirmed.add(handle)
  return { named, confirmed }
}
