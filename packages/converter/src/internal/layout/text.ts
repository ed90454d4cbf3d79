/** Text normalisation and the joining of lines into running text. */

// XML 1.0 forbids these; PDFs carry them (control codes from broken encodings, lone surrogates).
const xmlInvalid = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/**
 * NFKC turns ligatures and Arabic presentation forms into base letters; control characters and
 * soft hyphens are noise in extracted text.
 */
export const normalizeText = (text: string): string =>
  text.normalize("NFKC").replace(xmlInvalid, "").replace(/\u00AD/g, "").replace(/[\t\n\r\f\v\u00A0]/g, " ")

const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/** Text that starts with a lower-case letter (a sentence going on). */
export const lowerStart = /^\p{Ll}/u

/** Letters glued by a hyphen at a line end are one word split by the typesetter. */
export const joinLines = (left: string, right: string): string => {
  const a = left.trimEnd()
  const b = right.trimStart()
  if (a === "") return b
  if (b === "") return a
  if (/\p{L}-$/u.test(a) && lowerStart.test(b)) {
    return a.slice(0, -1) + b
  }
  if (cjk.test(a.slice(-1)) && cjk.test(b.slice(0, 1))) return a + b
  return `${a} ${b}`
}

const terminal = /[.!?:;。！？：”"'’)\]]$/u

/** True when the text ends like the end of a sentence (a paragraph may end there). */
export const endsSentence = (text: string): boolean => terminal.test(text.trimEnd())

/** Count of letters in a text. */
export const letterCount = (text: string): number => text.replace(/[^\p{L}]/gu, "").length
