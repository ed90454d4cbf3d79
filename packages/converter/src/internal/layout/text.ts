/** Text normalisation and the joining of lines into running text. */
import type { Hyphenation } from "./hyphens.js"
import { keepsHyphen } from "./hyphens.js"
import { hangulSpace, isHangul } from "./koreanJoins.js"

// XML 1.0 forbids these; PDFs carry them (control codes from broken encodings, lone surrogates).
const xmlInvalid = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** Text every step of `normalizeText` leaves as it is (most runs): no ligature, accent, control or soft hyphen. */
const printableAscii = /^[\x20-\x7E]*$/

/**
 * NFKC for ligatures and presentation forms; control characters and soft hyphens dropped, but for
 * one ending a run after a letter: the producer's mark of a word cut at the line end.
 */
export const normalizeText = (text: string): string => printableAscii.test(text) ? text : normalizeOther(text)

// Full-width punctuation is Chinese and Japanese text's own ("，" "（"), not a presentation form: NFKC
// would make it ASCII.
const fullWidthPunctuation = /[\uFF01-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF60]/
const notFullWidthPunctuation = /[^\uFF01-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF60]+/g

const compatibilityForms = (text: string): string =>
  fullWidthPunctuation.test(text)
    ? text.replace(notFullWidthPunctuation, (run) => run.normalize("NFKC"))
    : text.normalize("NFKC")

const normalizeOther = (text: string): string =>
  compatibilityForms(composeAccents(misreadLigatures(text))).replace(xmlInvalid, "").replace(
    /\u00AD(?!\s*$)|(?<!\p{L})\u00AD/gu,
    ""
  )
    .replace(
      /[\t\n\r\f\v\u00A0]/g,
      " "
    )

/** Word's ToUnicode names Calibri's ligatures as rare Latin letters ("HarmaƩan"), never themselves after a lower-case letter. */
const ligatureLetters: Record<string, string> = { "Ʃ": "tt", "Ɵ": "ti", "ƫ": "tti", "Ō": "ft" }
const misreadLigature = /(?<=[a-z])[ƩƟƫŌ]/g

/** The letters of the ligatures Word's ToUnicode gives as other Latin letters (see `ligatureLetters`). */
export const misreadLigatures = (text: string): string =>
  text.replace(misreadLigature, (letter) => ligatureLetters[letter] ?? letter)

/** Spacing accents as TeX sets them (a glyph of its own over the letter) and their combining marks. */
export const spacingAccents: Record<string, string> = {
  "\u00A8": "\u0308",
  "\u00B4": "\u0301",
  "\u02C6": "\u0302",
  "\u02DC": "\u0303",
  "\u00AF": "\u0304",
  "\u02D8": "\u0306",
  "\u02D9": "\u0307",
  "\u02DA": "\u030A",
  "\u02DD": "\u030B",
  "\u02C7": "\u030C",
  "\u00B8": "\u0327"
}

/** Letters and accents the PDF drew apart, composed (NFC: "naïve", not "naı̈ve"). */
const composeAccents = (text: string): string =>
  /[\u0131\u0237\u00A8\u00B4\u02C6\u02DC\u00AF\u02D8-\u02DD\u02C7\u00B8]/u.test(text)
    ? text
      .replace(
        /([\u00A8\u00B4\u02C6\u02DC\u00AF\u02D8\u02D9\u02DA\u02DD\u02C7\u00B8])(\p{L})/gu,
        (_, accent: string, letter: string) => `${letter}${spacingAccents[accent]}`
      )
      .replace(/\u0131(?=[\u0300-\u036F])/g, "i")
      .replace(/\u0237(?=[\u0300-\u036F])/g, "j")
    : text

const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
// CJK punctuation and full-width forms ("，" "。" "、" "（") sit between ideographs with no space either.
const cjkOrPunctuation =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3001-\u303F\uFF01-\uFF60]/u

/** Text that starts with a lower-case letter (a sentence going on). */
export const lowerStart = /^\p{Ll}/u

export interface JoinedParts {
  readonly text: string
  readonly kept: number
  readonly offset: number
  readonly lead: number
}

const lineEndHyphen = /(\p{L}+(?:-\p{L}+)*)[-\u2010]$/u
const leadingLetters = /^\p{L}+/u
const suspended = /^(?:or|and)\s/u
const keptHyphen = /(?:(?:https?:\/\/|www\.)\S*|(?<![\p{L}\p{N}.,-])\p{N}+)[-\u2010]$/u

/** A hyphen before a capital is a cut when the document writes the joined word whole: FOP's "AVER-" "AGE_WIDTH". */
const writesWhole = (hyphenation: Hyphenation | undefined, before: string, after: string | undefined): boolean => {
  if (hyphenation === undefined || after === undefined) return false
  const head = before.slice(before.lastIndexOf("-") + 1).toLowerCase()
  const rest = after.toLowerCase()
  const joined = hyphenation.words.get(head + rest) ?? 0
  return joined > 0 && joined > (hyphenation.compounds.get(`${head}-${rest}`) ?? 0)
}

/**
 * Two lines as running text. A hyphen between letters at the end of the left one is a cut when the
 * right goes on in lower case unless `hyphenation` says it is a compound (a capital: `writesWhole`); before a digit or
 * "or" ("pre- or post-") it is kept. `literal` (code, pieces of one baseline) joins with a space.
 */
export const joinParts = (
  left: string,
  right: string,
  literal = false,
  hyphenation?: Hyphenation
): JoinedParts => {
  const a = left.trimEnd()
  const lead = right.length - right.trimStart().length
  const b = right.trimStart()
  if (a === "") return { text: b, kept: 0, offset: 0, lead }
  if (b === "") return { text: a, kept: a.length, offset: a.length, lead }
  if (a.endsWith("\u00AD")) {
    if (literal) return { text: `${a.slice(0, -1)} ${b}`, kept: a.length - 1, offset: a.length, lead }
    return { text: a.slice(0, -1) + b, kept: a.length - 1, offset: a.length - 1, lead }
  }
  // A hyphen ending a URL or a number ("32-" "bit") is the text's own: no typesetter cuts them there.
  if (!literal && keptHyphen.test(a.slice(-256)) && /^[\p{L}\p{N}]/u.test(b)) {
    return { text: a + b, kept: a.length, offset: a.length, lead }
  }
  // Only the end of a (a paragraph's text so far) is read: joins stay linear in its length.
  const hyphen = literal || !(a.endsWith("-") || a.endsWith("\u2010")) ? null : lineEndHyphen.exec(a.slice(-64))
  if (hyphen !== null) {
    const after = leadingLetters.exec(b)?.[0]
    if (suspended.test(b)) return { text: `${a} ${b}`, kept: a.length, offset: a.length + 1, lead }
    const cut = lowerStart.test(b) ?
      !keepsHyphen(hyphenation, hyphen[1]!, after ?? "") :
      writesWhole(hyphenation, hyphen[1]!, after)
    if (cut) return { text: a.slice(0, -1) + b, kept: a.length - 1, offset: a.length - 1, lead }
    if (/^[\p{L}\p{N}]/u.test(b)) return { text: a + b, kept: a.length, offset: a.length, lead }
  }
  if (!literal && cjk.test(a.slice(-1)) && cjk.test(b.slice(0, 1))) {
    const spaced = isHangul(a.slice(-1)) && isHangul(b.slice(0, 1)) && hangulSpace(hyphenation, a.slice(-64), b)
    if (!spaced) return { text: a + b, kept: a.length, offset: a.length, lead }
  }
  if (
    !literal && cjkOrPunctuation.test(a.slice(-1)) && cjkOrPunctuation.test(b.slice(0, 1)) && !isHangul(b.slice(0, 1))
  ) {
    return { text: a + b, kept: a.length, offset: a.length, lead }
  }
  return { text: `${a} ${b}`, kept: a.length, offset: a.length + 1, lead }
}

/** Letters glued by a hyphen at a line end are one word split by the typesetter. */
export const joinLines = (left: string, right: string, hyphenation?: Hyphenation): string =>
  joinParts(left, right, false, hyphenation).text

const terminal = /[.!?:;。！？：”"'’)\]]$/u

export const endsSentence = (text: string): boolean => terminal.test(text.trimEnd())

const letter = /\p{L}/u

/** Letters in a text, without a copy of it. */
export const letterCount = (text: string): number => {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) {
      const lower = code | 0x20
      if (lower >= 0x61 && lower <= 0x7A) count++
    } else {
      const point = text.codePointAt(i)!
      if (point > 0xFFFF) i++
      if (letter.test(String.fromCodePoint(point))) count++
    }
  }
  return count
}

/** The characters a list item's bullet is set in (a regular expression class's contents). */
export const bulletCharacters = "•◦▪▫●○■□►▸‣⁃∙·*–—-"
