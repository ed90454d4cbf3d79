/**
 * A page's text as positioned runs, from PDFium's text API: the characters in bulk
 * (FPDFText_GetText), cut into runs where the text object changes (one run per show operation,
 * as a PDF places text), then a few calls per run for its box, baseline and size, never per character
 * (but for a nameless font's pitch, see `fixedPitchFonts`).
 */
import type { CharSpan } from "./accentRuns.js"
import { combiningAccent, gravesOnLetters, markLetterAt } from "./accentRuns.js"
import { fixedPitchFonts } from "./fixedPitch.js"
import { fontName, fontStyle } from "./fontStyle.js"
import type { TextItem } from "./layout.js"
import { spaceGap } from "./layout/lines.js"
import { Style } from "./layout/model.js"
import type { FontCharacters } from "./layout/quality.js"
import { countFontRun, fontJunk } from "./layout/quality.js"
import { unshadowed } from "./layout/shadows.js"
import { symbolBullets, symbolicFace } from "./layout/symbolBullets.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import type { Type3Font } from "./type3Fonts.js"
import { namedGlyphs } from "./unmappedGlyphs.js"

/** Device units per point when mapping page coordinates (FPDF_PageToDevice answers in integers). */
const precision = 16

const rtlLetter = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/gu
const letter = /\p{L}/gu

/** Whether most letters of a run are right-to-left ones. */
const isRtl = (text: string): boolean => {
  const rtl = text.match(rtlLetter)?.length ?? 0
  return rtl > 0 && rtl * 2 > (text.match(letter)?.length ?? 0)
}

/**
 * PDFium writes a hyphen that ends a line (FPDFText_IsHyphen) as U+FFFE, a noncharacter the
 * layout would strip, leaving "com pile": it is given back as the hyphen the page shows, so that
 * the layout's rule for hyphens at line ends rejoins the word.
 */
const lineEndHyphen = /\uFFFE/g

/**
 * FPDFText_GetUnicode answers 2 (a control code the layout would strip, leaving "sub mitted") for
 * the hyphen that FPDFText_GetText writes as U+FFFE.
 */
const hyphenCode = 2

/**
 * The characters one at a time (FPDFText_GetUnicode): a character without a Unicode value is an
 * empty string, so that index `i` stays character `i`.
 */
const charactersOneByOne = (m: Pdfium, textPage: number, count: number): Array<string> => {
  const chars: Array<string> = []
  for (let i = 0; i < count; i++) {
    const code = m.FPDFText_GetUnicode(textPage, i)
    chars.push(code === 0 ? "" : code === hyphenCode ? "-" : String.fromCodePoint(code).replace(lineEndHyphen, "-"))
  }
  return chars
}

/** A page's characters by index: one, and the text of a run of them. */
interface Characters {
  readonly at: (index: number) => string
  readonly slice: (start: number, end: number) => string
}

const surrogate = /[\uD800-\uDFFF]/

/** Characters held one string each (a page with surrogate pairs, or read one at a time). */
const ofArray = (chars: ReadonlyArray<string>): Characters => ({
  at: (index) => chars[index]!,
  slice: (start, end) => chars.slice(start, end).join("")
})

/**
 * The characters of a text page by index: FPDFText_GetText's bulk string, sliced per run when it has
 * one unit per character (cheapest); split when it has surrogate pairs; read one character at a time
 * when it skipped unmapped glyphs, which would shift every later index.
 */
const characters = (m: Pdfium, textPage: number, count: number): Characters => {
  const text = textInBulk(m, textPage, count)
  if (text.length === count && !surrogate.test(text)) {
    return { at: (index) => text[index]!, slice: (start, end) => text.slice(start, end) }
  }
  const split = splitCharacters(text, count)
  return ofArray(split.length === count ? split : charactersOneByOne(m, textPage, count))
}

const textInBulk = (m: Pdfium, textPage: number, count: number): string =>
  P.withBuffer(m, (count + 1) * 4, (buffer) => {
    const units = m.direct.FPDFText_GetText(textPage, 0, count, buffer)
    return P.readUtf16(m, buffer, units).replace(lineEndHyphen, "-")
  })

/** The characters of a text, a pair of surrogates as one, at most `count`. */
const splitCharacters = (text: string, count: number): Array<string> => {
  const chars: Array<string> = []
  for (let i = 0; i < text.length && chars.length < count; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0xD800 && code <= 0xDBFF && i + 1 < text.length) {
      chars.push(text.slice(i, i + 2))
      i++
    } else {
      chars.push(text[i]!)
    }
  }
  return chars
}

/** A slanted run this many times the size of the page's level text is a watermark ("DRAFT", a company's name). */
const watermarkSize = 1.5

/** The page's runs less large slanted ones, whose letters would read as short lines across the body. */
const withoutWatermarks = (
  items: Array<TextItem>,
  mcids: Array<number> | undefined,
  slanted: ReadonlySet<TextItem>
): { items: Array<TextItem>; mcids: Array<number> | undefined } => {
  if (slanted.size === 0) return { items, mcids }
  const level = items.filter((item) => !slanted.has(item)).map((item) => item.size).sort((a, b) => a - b)
  const body = level.length > 0 ? level[Math.floor(level.length / 2)]! : 0
  const keep = items.map((item) => !slanted.has(item) || body === 0 || item.size < watermarkSize * body)
  return { items: items.filter((_, i) => keep[i]), mcids: mcids?.filter((_, i) => keep[i]) }
}

/** A word's end and the next word's start: a gap before punctuation is TeX's italic correction ("*col*."), not a space. */
const wordEnd = /[\p{L}\p{N}\p{Pe}\p{Pf}.,;:!?]$/u
const wordStart = /^[\p{L}\p{N}]/u

/**
 * Whether the word space PDFium found between a run and the one before it on its baseline (from
 * their glyphs' advances) is one the runs' boxes hide: a loose box holds the ink that overhangs
 * the advance (an italic "f": "a *function*"), so the layout would see too narrow a gap. Not
 * between two fixed-pitch runs, whose gaps count spaces.
 */
const spaceHidden = (last: TextItem, text: string, x: number, y: number, style: number, size: number): boolean => {
  const gap = x - (last.x + last.width)
  // As the line rules measure it: against the larger of the two sizes.
  const em = Math.max(size, last.size)
  return !last.rtl && !isRtl(text) && Math.abs(y - last.y) < 0.1 * em && gap <= spaceGap * em &&
    gap > -spaceGap * em && wordEnd.test(last.text) && wordStart.test(text) &&
    (last.style & style & Style.code) === 0
}

export interface PageText {
  readonly items: Array<TextItem>
  /** Characters that are not text, of fonts that give no letter or digit (see `fontJunk`). */
  readonly junk: number
  /** Each run's marked content (see `structTree.markedContent`), when it was asked for. */
  readonly mcids: Array<number> | undefined
}

/**
 * The text runs of a loaded page, in top-down page coordinates, in the order the page draws
 * them; with `marked`, each run's marked content too (asked once per text object), and runs of
 * two marked contents are never joined.
 */
/** In font sizes: a gap inside a run wider than this parts two cells: LaTeX's two \\tabcolsep are 1.2 at 10 pt and 1.1 at 11 pt, a section number's quad 1.0. */
const cellGap = 1.05

export const pageText = (
  m: Pdfium,
  page: number,
  width: number,
  height: number,
  marked?: (textObject: number) => number,
  /** Heights between a table's rules (top-down): only there is a run split at its wide gaps. */
  ruled: ReadonlyArray<readonly [number, number]> = [],
  /** The document's Type 3 fonts, read when a page has characters PDFium could not map (see `namedGlyphs`). */
  type3: () => ReadonlyArray<Type3Font> = () => []
): PageText => {
  const mcids: Array<number> | undefined = marked === undefined ? undefined : []
  const textPage = m.direct.FPDFText_LoadPage(page)
  if (textPage === 0) return { items: [], junk: 0, mcids }
  try {
    const count = m.direct.FPDFText_CountChars(textPage)
    if (count <= 0) return { items: [], junk: 0, mcids }
    const read = characters(m, textPage, count)
    const { confirmed, named } = namedGlyphs(m, textPage, count, read.at, type3)
    const chars = named.size === 0 ? read : ofArray(Array.from({ length: count }, (_, i) => named.get(i) ?? read.at(i)))
    return P.withBuffer(m, 64, (out) => {
      const c = m.direct
      const items: Array<TextItem> = []
      // Each run's characters by page index, for an accent drawn apart from its letter (see `accentRuns`).
      const spans: Array<Array<CharSpan>> = []
      let mcid = 0
      // Whether PDFium put a space between the current run's object and the one before it.
      let spaced = false
      // Whether the run before was an accent put on its letter: PDFium's space after it is no word's.
      let accented = false
      const fonts = new Map<number, FontCharacters>()
      let diagonal = false
      const slanted = new Set<TextItem>()
      const deviceWidth = Math.ceil(width * precision)
      const deviceHeight = Math.ceil(height * precision)
      const toPage = (x: number, y: number): readonly [number, number] => {
        c.FPDF_PageToDevice(page, 0, 0, deviceWidth, deviceHeight, 0, x, y, out + 48, out + 52)
        return [P.int(m, out + 48) / precision, P.int(m, out + 52) / precision]
      }
      // A page whose /Rotate turns it a quarter: the PDF's x axis runs down the page.
      const rotated = toPage(0, 0)[1] !== toPage(100, 0)[1]
      // Fonts are shared by many runs: each one's style is asked once per page.
      const styles = new Map<number, number>()
      let even: ReadonlySet<number> | undefined
      const styleOf = (font: number): number => {
        let style = styles.get(font)
        if (style === undefined) {
          style = fontStyle(m, font)
          if ((style & Style.code) === 0 && font !== 0 && fontName(m, font) === "") {
            even ??= fixedPitchFonts(m, textPage, count, chars.at, sizeAt)
            if (even.has(font)) style |= Style.code
          }
          styles.set(font, style)
        }
        return style
      }
      // The font size is the Tf operand; the text matrix scales it (TeX sets 1 and scales).
      const sizeAt = (index: number): number => {
        c.FPDFText_GetMatrix(textPage, index, out + 32)
        return c.FPDFText_GetFontSize(textPage, index) * (Math.hypot(P.float(m, out + 40), P.float(m, out + 44)) || 1)
      }
      const inRuled = (index: number): boolean => {
        c.FPDFText_GetCharOrigin(textPage, index, out, out + 8)
        const y = toPage(P.double(m, out), P.double(m, out + 8))[1]
        return ruled.some(([y0, y1]) => y > y0 && y < y1)
      }
      const run = (start: number, end: number, object: number) => {
        const font = c.FPDFTextObj_GetFont(object)
        const style = styleOf(font)
        c.FPDFText_GetMatrix(textPage, start, out + 32)
        const turn = Math.abs(Math.atan2(P.float(m, out + 36), P.float(m, out + 32)) * 180 / Math.PI) % 90
        diagonal = turn > 15 && turn < 75
        if (marked !== undefined) mcid = marked(object)
        let characters = fonts.get(font)
        if (characters === undefined) fonts.set(font, characters = { letters: 0, junk: 0 })
        const unmapped = !confirmed.has(font) && c.FPDFText_HasUnicodeMapError(textPage, start) === 1
        countFontRun(characters, chars.slice(start, end), unmapped)
        spaced = start > 0 && chars.at(start - 1) === " " && c.FPDFText_GetTextObject(textPage, start - 1) === 0
        // A space in a fixed-pitch run may stand for several (TeX and PDFium write one for any
        // gap): its words are placed one by one, and the line rules count the spaces between.
        if ((style & Style.code) !== 0) {
          let from = start
          for (let i = start; i <= end; i++) {
            if (i < end && chars.at(i) !== " ") continue
            if (i > from) piece(from, i, style)
            from = i + 1
          }
          return
        }
        // Between a table's rules a proportional run may be a whole row (pdfTeX): split at its cell gaps.
        let from = start
        let em = 0
        const between = ruled.length > 0 && inRuled(start)
        for (let i = start + 1; between && i < end - 1; i++) {
          if (chars.at(i) !== " ") continue
          let after = i + 1
          while (after < end && chars.at(after) === " ") after++
          if (after === end) break
          if (em === 0) em = sizeAt(start)
          c.FPDFText_GetLooseCharBox(textPage, i - 1, out)
          const left = P.float(m, out + 8)
          c.FPDFText_GetLooseCharBox(textPage, after, out)
          if (P.float(m, out) - left > cellGap * em) {
            piece(from, i, style)
            from = after
          }
          i = after
        }
        piece(from, end, style)
      }
      const looseX = (index: number): readonly [number, number] => {
        c.FPDFText_GetLooseCharBox(textPage, index, out)
        return [toPage(P.float(m, out), 0)[0], toPage(P.float(m, out + 8), 0)[0]]
      }
      const piece = (start: number, end: number, style: number) => {
        const raw = chars.slice(start, end)
        const drawn = rotated || !raw.includes("`") ? raw : gravesOnLetters(start, end, chars.at, looseX)
        if (drawn.trim() === "") return
        c.FPDFText_GetCharOrigin(textPage, start, out, out + 8)
        const originX = P.double(m, out)
        const baseline = P.double(m, out + 8)
        // Loose boxes span each glyph's advance, not its ink: the gap between two runs is then the
        // space the PDF left, not the side bearings of narrow glyphs ("l", "i" in a monospace font).
        c.FPDFText_GetLooseCharBox(textPage, start, out)
        const firstLeft = P.float(m, out)
        const firstRight = P.float(m, out + 8)
        const firstTop = P.float(m, out + 4)
        const firstBottom = P.float(m, out + 12)
        c.FPDFText_GetLooseCharBox(textPage, end - 1, out)
        const lastLeft = P.float(m, out)
        const lastRight = P.float(m, out + 8)
        const lastTop = P.float(m, out + 4)
        const lastBottom = P.float(m, out + 12)
        const size = sizeAt(start)
        const left = Math.min(firstLeft, lastLeft)
        const right = Math.max(firstRight, lastRight)
        let [x0, y] = toPage(left, baseline)
        let [x1] = toPage(right, baseline)
        if (rotated) {
          // A page turned a quarter sets its lines along the PDF's y axis: the run spans its boxes' corners.
          y = toPage(originX, baseline)[1]
          const ends = [firstTop, firstBottom, lastTop, lastBottom].map((v) => toPage(originX, v)[0])
          x0 = Math.min(...ends)
          x1 = Math.max(...ends)
        }
        let last = items[items.length - 1]
        // An accent's run sits on its letter's line, raised at most a little.
        const level = !rotated && last !== undefined && Math.abs(y - last.y) <= 0.5 * size
        const accent = level ? combiningAccent(drawn.trim()) : undefined
        if (accent !== undefined && last !== undefined) {
          const marked = markLetterAt(last.text, spans[spans.length - 1]!, (x0 + x1) / 2, accent, chars.at, looseX)
          if (marked !== undefined) {
            items[items.length - 1] = { ...last, text: marked.text }
            spans[spans.length - 1] = marked.spans
            accented = true
            return
          }
        }
        const before = level && last !== undefined ? combiningAccent(last.text.trim()) : undefined
        const under = before === undefined || last === undefined
          ? undefined
          : markLetterAt(drawn, [{ start, end, offset: 0 }], last.x + last.width / 2, before, chars.at, looseX)
        if (under !== undefined) {
          // The accent drawn first is dropped: its mark is in this run now.
          items.pop()
          spans.pop()
          mcids?.pop()
          last = items[items.length - 1]
        }
        const shown = under?.text ?? drawn
        const text = spaced && !accented && last !== undefined &&
            spaceHidden(last, shown, Math.min(x0, x1), y, style, size)
          ? ` ${shown}`
          : shown
        spaced = false
        accented = false
        const span: CharSpan = { start, end, offset: text.length - shown.length }
        const item: TextItem = {
          text,
          x: Math.min(x0, x1),
          y,
          width: Math.abs(x1 - x0),
          size,
          rtl: isRtl(text),
          style
        }
        // Some producers (Chromium) place each glyph of a word as its own text object: abutting
        // runs of one style on one baseline are one run (the symbolic-only flag is no style: a
        // ligature's glyph may sit in such a subset beside its word's).
        if (
          last !== undefined && !item.rtl && !last.rtl && ((last.style ^ item.style) & ~symbolicFace) === 0 &&
          last.size === item.size &&
          last.y === item.y && Math.abs(item.x - (last.x + last.width)) < 0.05 * size &&
          (mcids === undefined || mcids[mcids.length - 1] === mcid)
        ) {
          items[items.length - 1] = {
            text: last.text + text,
            x: last.x,
            y: last.y,
            width: item.x + item.width - last.x,
            size: last.size,
            rtl: false,
            style: last.style
          }
          spans[spans.length - 1]!.push({ ...span, offset: span.offset + last.text.length })
        } else {
          items.push(item)
          spans.push([span])
          mcids?.push(mcid)
          if (diagonal) slanted.add(item)
        }
      }
      let start = 0
      let object = c.FPDFText_GetTextObject(textPage, 0)
      for (let i = 1; i <= count; i++) {
        const next = i < count ? c.FPDFText_GetTextObject(textPage, i) : -1
        if (next === object) continue
        // Characters PDFium generated (line ends, spaces between objects) belong to no object.
        if (object !== 0) run(start, i, object)
        start = i
        object = next
      }
      const keep = unshadowed(items, mcids)
      const read = keep.includes(false)
        ? { items: items.filter((_, i) => keep[i]), mcids: mcids?.filter((_, i) => keep[i]) }
        : { items, mcids }
      const kept = withoutWatermarks(read.items, read.mcids, slanted)
      return { items: symbolBullets(kept.items), mcids: kept.mcids, junk: fontJunk(fonts.values()) }
    })
  } finally {
    m.direct.FPDFText_ClosePage(textPage)
  }
}
