/**
 * Bullets in a symbol or dingbat font, which older producers map to an ordinary character ("!",
 * "§", "Þ") or to a private-use code: a lone such glyph leading its line before text is given back as "•".
 */
import { isControlCode } from "../glyphNames.js"
import type { TextItem } from "./model.js"

/** A `TextItem.style` bit pageText sets on runs of a symbol font, and clears here: no rule after this sees it. */
export const symbolFace = 1 << 8
/**
 * A `TextItem.style` bit for runs of a font whose descriptor says symbolic and not nonsymbolic (a dingbat
 * font under any name, as Distiller writes Wingdings), cleared here like `symbolFace`.
 */
export const symbolicFace = 1 << 9
const anySymbol = symbolFace | symbolicFace

/** PDF font descriptor flags (PDF 32000, 9.8.2): TeX marks every font symbolic, so its text is never nonsymbolic. */
export const symbolicOnly = (flags: number): boolean => flags > 0 && (flags & 4) !== 0 && (flags & 32) === 0

const symbolName = /symbol|wingding|webding|dingbat|marlett/i
/** TeX's math symbol fonts (LMMathSymbols) map their glyphs right, and set footnote marks ("†", "§") at line starts. */
const mathName = /math/i

/** Whether a font's name is that of a symbol or dingbat font (a subset prefix "ABCDEF+" ignored). */
export const symbolFont = (name: string): boolean => {
  const base = name.replace(/^[A-Z]{6}\+/, "")
  return symbolName.test(base) && !mathName.test(base)
}

/** What a symbol font's glyph may truly be in running text: a digit, a Greek letter, a bracket or an operator (not an arrow). */
const notMarker = /^(?:[\p{N}\p{Script=Greek}\p{Ps}\p{Pe}]|(?![\u2190-\u21FF])\p{Sm})$/u
/** In the text's size: the widest gap between the glyph and its text (a hanging indent), and the nearest run before it. */
const maxGap = 3
const minLead = 1

const sameLine = (a: TextItem, b: TextItem): boolean => Math.abs(a.y - b.y) <= 0.5 * Math.max(a.size, b.size)

/** A glyph leading its line, before text of another font within `maxGap` (and at least `minGap` of its size off, if given). */
const leads = (glyph: TextItem, items: ReadonlyArray<TextItem>, others: number, minGap: number): boolean => {
  const text = glyph.text.trim()
  if ([...text].length !== 1 || notMarker.test(text)) return false
  const end = glyph.x + glyph.width
  const followed = items.some((item) =>
    item !== glyph && (item.style & others) === 0 && sameLine(item, glyph) &&
    item.x >= end + (minGap - 0.1) * item.size && item.x - end <= maxGap * item.size
  )
  return followed &&
    !items.some((item) =>
      item !== glyph && sameLine(item, glyph) && item.x < glyph.x &&
      glyph.x - (item.x + item.width) < minLead * glyph.size
    )
}

/**
 * A font flagged symbolic may be a text face (TeX's custom-encoded fonts beside WinAnsi ones set "A" before
 * a word): its glyph is a bullet only hanging half an em before its text, with another such glyph on the
 * page (a deck's levels each take their own dingbat, a level's one may stand once).
 */
const hangingGap = 0.5
const dingbatMarker = (glyph: TextItem, items: ReadonlyArray<TextItem>): boolean =>
  leads(glyph, items, anySymbol, hangingGap) &&
  items.some((other) =>
    other !== glyph && (other.style & symbolicFace) !== 0 && !sameLine(other, glyph) &&
    leads(other, items, anySymbol, hangingGap)
  )

const isMarker = (glyph: TextItem, items: ReadonlyArray<TextItem>): boolean =>
  (glyph.style & symbolFace) !== 0 || (glyph.style & symbolicFace) === 0
    ? leads(glyph, items, symbolFace, 0)
    : dingbatMarker(glyph, items)

/** A private-use code is no character of running text, whatever font it is in. */
const privateUse = /^\p{Co}$/u
/** A control code is a bullet only on its text's baseline at its size: a raised smaller one is a note's mark. */
const onBaseline = (glyph: TextItem, items: ReadonlyArray<TextItem>): boolean =>
  items.some((item) =>
    item !== glyph && item.x > glyph.x && Math.abs(item.y - glyph.y) <= 0.15 * item.size &&
    glyph.size >= 0.9 * item.size && item.x - (glyph.x + glyph.width) <= maxGap * item.size
  )

/** The page's runs, index for index: symbol-font glyphs that mark an item become "•", and no run keeps either flag. */
export const symbolBullets = (items: ReadonlyArray<TextItem>): Array<TextItem> =>
  items.map((item) => {
    const text = item.text.trim()
    // How PDFium gives a bitmap font's glyph it cannot name (pdfTeX's PK bullet: U+0088); the text is trimmed, so no tab.
    const unnamed = text.length === 1 && isControlCode(text.charCodeAt(0))
    if ((item.style & anySymbol) === 0 && !privateUse.test(text) && !unnamed) return item
    return isMarker(item, items) && (!unnamed || onBaseline(item, items))
      ? { ...item, text: "•", style: 0 }
      : { ...item, style: item.style & ~anySymbol }
  })
