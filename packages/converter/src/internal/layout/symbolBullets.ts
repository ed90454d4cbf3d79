/**
 * Bullets in a symbol or dingbat font, which older producers map to an ordinary character ("!",
 * "§"): a lone such glyph leading its line before text is given back as "•".
 */
import type { TextItem } from "./model.js"

/** A `TextItem.style` bit pageText sets on runs of a symbol font, and clears here: no rule after this sees it. */
export const symbolFace = 1 << 8

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

const isMarker = (glyph: TextItem, items: ReadonlyArray<TextItem>): boolean => {
  const text = glyph.text.trim()
  if ([...text].length !== 1 || notMarker.test(text)) return false
  const end = glyph.x + glyph.width
  const followed = items.some((item) =>
    item !== glyph && (item.style & symbolFace) === 0 && sameLine(item, glyph) &&
    item.x >= end - 0.1 * item.size && item.x - end <= maxGap * item.size
  )
  return followed &&
    !items.some((item) =>
      item !== glyph && sameLine(item, glyph) && item.x < glyph.x &&
      glyph.x - (item.x + item.width) < minLead * glyph.size
    )
}

/** The page's runs, index for index: symbol-font glyphs that mark an item become "•", and no run keeps `symbolFace`. */
export const symbolBullets = (items: ReadonlyArray<TextItem>): Array<TextItem> =>
  items.map((item) => {
    if ((item.style & symbolFace) === 0) return item
    return isMarker(item, items)
      ? { ...item, text: "•", style: 0 }
      : { ...item, style: item.style & ~symbolFace }
  })
