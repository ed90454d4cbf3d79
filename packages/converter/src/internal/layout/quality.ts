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
 * What glyph ids of a font without a ToUnicode map turn into (C0 controls, Latin Extended-B, IPA,
 * spacing modifiers, Greek numeral signs), and code points never text; real text has few of them.
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

/** A character's kind: a space, not text, a letter or digit, or other text. */
const blank = 1
const suspicious = 2
const word = 3
const other = 4

/** Each BMP character's kind once its property tests ran (0: not yet): a CJK page repeats few characters many times. */
const kinds = new Uint8Array(0x10000)

const kindOf = (char: string): number => {
  const code = char.charCodeAt(0)
  // ASCII, most of any page, without the Unicode property tests.
  if (code < 0x80) {
    if (!(code > 0x20 || code < 0x09 || (code > 0x0D && code < 0x20))) return blank
    return code < 0x20 || code === 0x7F ? suspicious : asciiWord(code) ? word : other
  }
  const known = char.length === 1 ? kinds[code]! : 0
  if (known !== 0) return known
  const kind = space.test(char)
    ? blank
    : suspiciousCharacter.test(char)
    ? suspicious
    : wordCharacter.test(char)
    ? word
    : other
  if (char.length === 1) kinds[code] = kind
  return kind
}

const count = (text: string, tally: { -readonly [K in keyof TextQuality]: number }): void => {
  let run = 0
  for (const char of text) {
    const kind = kindOf(char)
    const counted = kind !== blank
    const isSuspicious = kind === suspicious
    const isWord = kind === word
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

/** Adds a run of one font to its tally: all junk when flagged `unmapped`; U+FFFD is not (ornaments, no text). */
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

/** The junk of a page: that of its fonts that give no letter or digit (what the others leave out, OCR cannot read). */
export const fontJunk = (fonts: Iterable<FontCharacters>): number => {
  let junk = 0
  for (const font of fonts) if (font.letters === 0) junk += font.junk
  return junk
}

/** Fewer characters than this are not judged: shares mean nothing there, and OCR would not pay off. */
const minJudgedCharacters = 200
/** Between the shares of the corpus's text pages and its unmapped ones (README); a math line stays above the floor. */
const maxSuspiciousShare = 0.3
const minWordShare = 0.15

/** The share of word characters among the non-space ones (1 for a page without any). */
const wordShare = (quality: TextQuality): number =>
  quality.characters === 0 ? 1 : quality.wordCharacters / quality.characters

/**
 * Whether a page's text layer is not readable text: many junk characters, or few letters or digits and
 * some junk (`junk`: the fonts' verdict). Without junk, a page is text however few letters it has.
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
 * Whether OCR's reading beats the text layer by the same measure, with words enough (`minReadingWords`,
 * a third of the layer's characters), so a reading of only a figure's label does not replace the page.
 */
export const isBetterReading = (candidate: ReadonlyArray<TextItem>, current: ReadonlyArray<TextItem>): boolean => {
  const ocr = textQuality(candidate)
  const layer = textQuality(current)
  return !isJunk(ocr) && wordShare(ocr) > wordShare(layer) && ocr.words >= minReadingWords &&
    ocr.wordCharacters * 3 >= layer.characters
}
