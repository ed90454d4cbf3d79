/** Text layer quality: whether a page's text layer is readable text, and whether OCR read it better. */
import type { TextItem } from "./model.js"

/** Letters or digits in the text (used to tell an empty text layer). */
export const hasText = (items: ReadonlyArray<TextItem>): boolean =>
  items.some((item) => /[\p{L}\p{N}]/u.test(item.text))

/** Counts over the non-space characters of a page's text, to tell a text layer that is not text. */
export interface TextQuality {
  /** Characters other than white space. */
  readonly characters: number
  /** Letters and digits, except those in the ranges of `suspicious`. */
  readonly wordCharacters: number
  /** Characters a font without a usable Unicode mapping comes out as (see `suspiciousCharacter`). */
  readonly suspicious: number
  /** Runs of two or more word characters. */
  readonly words: number
}

/**
 * What glyph ids of a font without a ToUnicode map turn into: PDFium and pdf.js pass C0 control codes on,
 * pdftotext-like readers print Latin Extended-B, IPA, spacing modifiers and Greek numeral signs
 * (TAMReview's Cambria: U+01E1 for a comma, U+0373 for "1"); private-use and unassigned code
 * points and U+FFFD are never text either. Real text has few of them (Vietnamese ơ/ư, the okina).
 */
const suspiciousCharacter = /[\p{Cc}\p{Co}\p{Cn}\uFFFD\u0180-\u02FF\u0370-\u037D]/u
const wordCharacter = /[\p{L}\p{N}]/u
const space = /\s/u
const asciiWord = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5A) || (code >= 0x61 && code <= 0x7A)

/** Counts the characters of a page's items (raw, before normalisation strips control codes). */
export const textQuality = (items: ReadonlyArray<TextItem>): TextQuality => {
  const tally = { characters: 0, wordCharacters: 0, suspicious: 0, words: 0 }
  for (const item of items) count(item.text, tally)
  return tally
}

const count = (text: string, tally: { -readonly [K in keyof TextQuality]: number }): void => {
  let run = 0
  for (const char of text) {
    const code = char.charCodeAt(0)
    // ASCII, most of any page, without the Unicode property tests.
    const counted = code < 0x80 ? code > 0x20 || (code < 0x09 || (code > 0x0D && code < 0x20)) : !space.test(char)
    const isSuspicious = counted && (code < 0x80 ? code < 0x20 || code === 0x7F : suspiciousCharacter.test(char))
    const isWord = counted && !isSuspicious &&
      (code < 0x80 ? asciiWord(code) : wordCharacter.test(char))
    if (counted) tally.characters++
    if (isSuspicious) tally.suspicious++
    if (isWord) {
      tally.wordCharacters++
      run++
    } else {
      if (run >= 2) tally.words++
      run = 0
    }
  }
  if (run >= 2) tally.words++
}

/** A font's characters on a page: letters and digits, and characters that are not text. */
export interface FontCharacters {
  letters: number
  junk: number
}

/**
 * Adds a run of one font to its tally: all junk when the PDF engine flags it `unmapped`. U+FFFD is
 * not: a font's own Unicode map gives it for glyphs that have no text (ornaments), which OCR
 * cannot give back either.
 */
export const countFontRun = (font: FontCharacters, text: string, unmapped: boolean): void => {
  const tally = { characters: 0, wordCharacters: 0, suspicious: 0, words: 0 }
  count(text, tally)
  if (unmapped) font.junk += tally.characters
  else {
    font.letters += tally.wordCharacters
    font.junk += tally.suspicious - replacements(text)
  }
}

const replacements = (text: string): number => {
  let n = 0
  for (let at = text.indexOf("\uFFFD"); at >= 0; at = text.indexOf("\uFFFD", at + 1)) n++
  return n
}

/**
 * The junk of a page: that of its fonts that give no letter or digit. A font that maps some
 * glyphs to letters has a Unicode map, and those it leaves out (OpenType alternates, ornaments)
 * have no text OCR could give back; a font that maps none is text only OCR can read.
 */
export const fontJunk = (fonts: Iterable<FontCharacters>): number => {
  let junk = 0
  for (const font of fonts) if (font.letters === 0) junk += font.junk
  return junk
}

/**
 * Fewer characters than this are not judged: a title page, a caption or a table of symbols is
 * too short for shares to mean anything, and OCR (seconds a page) would not pay off.
 */
const minJudgedCharacters = 200
/**
 * Shares over the corpus: text pages have 0.89-0.97 word characters and no suspicious ones, the
 * unmapped pages of TAMReview 0.04-0.25 word characters and 0.63-0.92 suspicious ones. Symbols
 * in a math line ("∀x ∈ A: f(x) ≤ g(x)" is 0.4 word characters) must stay well above the floor.
 */
const maxSuspiciousShare = 0.3
const minWordShare = 0.15

/** The share of word characters among the non-space ones (1 for a page without any). */
const wordShare = (quality: TextQuality): number =>
  quality.characters === 0 ? 1 : quality.wordCharacters / quality.characters

/**
 * True when a page has a text layer that is not readable text: enough characters to judge, of
 * which many are junk, or few are letters or digits while some are junk (`junk`: the fonts'
 * verdict, `fontJunk`; else the characters that look like unmapped glyphs). A page of leader
 * dots, numbers or code has no junk and is text however few letters it has.
 */
export const isJunkTextLayer = (items: ReadonlyArray<TextItem>, junk?: number): boolean =>
  isJunk(textQuality(items), junk)

const isJunk = (quality: TextQuality, junk = quality.suspicious): boolean => {
  const suspicious = Math.min(quality.characters, junk)
  return quality.characters >= minJudgedCharacters && (
    suspicious / quality.characters >= maxSuspiciousShare ||
    (suspicious > 0 && wordShare(quality) < minWordShare)
  )
}

/** OCR that reads fewer words than this found a caption or specks, not the page's text. */
const minReadingWords = 20

/**
 * Whether another reading of a page (OCR) is better than its text layer by the same measure: it
 * is not junk itself, has a larger share of letters and digits, and has a reasonable amount of
 * words: at least `minReadingWords`, and letters and digits for a third of the layer's characters
 * (unmapped glyphs stand one for one for letters), so OCR that read only a figure's label or a
 * part of the page does not replace it.
 */
export const isBetterReading = (candidate: ReadonlyArray<TextItem>, current: ReadonlyArray<TextItem>): boolean => {
  const ocr = textQuality(candidate)
  const layer = textQuality(current)
  return !isJunk(ocr) && wordShare(ocr) > wordShare(layer) && ocr.words >= minReadingWords &&
    ocr.wordCharacters * 3 >= layer.characters
}
