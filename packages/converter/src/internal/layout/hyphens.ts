/** A line-end hyphen is a cut ("docu-ment") or a compound ("two-column"): the document's own words decide. */
import { hangulEdges } from "./koreanJoins.js"

/** The words a document writes whole (not cut at a line end), lower-cased, and how often. */
export interface Hyphenation {
  readonly words: ReadonlyMap<string, number>
  readonly compounds: ReadonlyMap<string, number>
}

const count = (counts: Map<string, number>, word: string): void => {
  counts.set(word, (counts.get(word) ?? 0) + 1)
}

/** A soft hyphen: the producer's own mark of a word cut at the line end. */
export const softHyphen = "\u00AD"

const wordPattern = /\p{L}+(?:[-\u2010]\p{L}+)*[-\u2010\u00AD]?/gu
const endsInHyphen = /[-\u2010\u00AD]$/

const nonAscii = /[\u0080-\uFFFF]/

const isAsciiLetter = (code: number): boolean => {
  const lower = code | 0x20
  return lower >= 0x61 && lower <= 0x7A
}

/**
 * `wordPattern`'s matches in an ASCII text, found without a regular expression (most lines of
 * most documents): letters, then hyphens each followed by letters, then maybe a hyphen.
 */
const asciiWords = (text: string, each: (word: string) => void): void => {
  const n = text.length
  let i = 0
  while (i < n) {
    if (!isAsciiLetter(text.charCodeAt(i))) {
      i++
      continue
    }
    let j = i + 1
    while (j < n && isAsciiLetter(text.charCodeAt(j))) j++
    while (j + 1 < n && text.charCodeAt(j) === 0x2D && isAsciiLetter(text.charCodeAt(j + 1))) {
      j += 2
      while (j < n && isAsciiLetter(text.charCodeAt(j))) j++
    }
    if (j < n && text.charCodeAt(j) === 0x2D) j++
    each(text.slice(i, j))
    i = j
  }
}

/** The whole words of lines in reading order (a compound's parts too); a word cut at a line end, and its rest, left out. */
export const collectWords = (lines: Iterable<string>): Hyphenation => {
  const words = new Map<string, number>()
  const compounds = new Map<string, number>()
  let cut = false
  let first = true
  const take = (word: string): void => {
    const tail = first && cut
    first = false
    const end = word.charCodeAt(word.length - 1)
    if (tail || end === 0x2D || end === 0x2010 || end === 0xAD) return
    const lower = word.toLowerCase()
    if (lower.includes("-") || lower.includes("\u2010")) {
      const compound = lower.replace(/\u2010/g, "-")
      count(compounds, compound)
      for (const part of compound.split("-")) count(words, part)
    } else count(words, lower)
  }
  for (const text of lines) {
    first = true
    if (nonAscii.test(text)) {
      const matches = [...text.matchAll(wordPattern)].map((match) => match[0])
      // A Hangul word at a line's edge may be half of one cut between syllables: not a word of the document.
      const edges = hangulEdges(text)
      const from = edges.start ? 1 : 0
      const to = edges.end ? matches.length - 1 : matches.length
      for (let i = from; i < to; i++) take(matches[i]!)
    } else asciiWords(text, take)
    cut = endsInHyphen.test(text.trimEnd())
  }
  return { words, compounds }
}

const acronym = /^\p{Lu}{2,}$/u

// Inflections of a compound's second part: "double-quote" written, "double-" "quotes" cut at a line end.
const endings = ["s", "es", "d", "ed"]

const compoundCount = (compounds: ReadonlyMap<string, number>, head: string, rest: string): number => {
  let total = compounds.get(`${head}-${rest}`) ?? 0
  if (rest.length < 4) return total
  for (const ending of endings) {
    total += compounds.get(`${head}-${rest}${ending}`) ?? 0
    if (rest.endsWith(ending)) total += compounds.get(`${head}-${rest.slice(0, -ending.length)}`) ?? 0
  }
  return total
}

/** The document writes whole a word the joined one starts with, three letters or more past the cut ("typeset" for "type-" "setting"). */
const writesStem = (words: ReadonlyMap<string, number>, head: string, rest: string): boolean => {
  const joined = head + rest
  for (let end = head.length + 3; end < joined.length; end++) if (words.has(joined.slice(0, end))) return true
  return false
}

/**
 * Whether a line-end hyphen between `before` and `after` is part of a compound: the document writes the compound
 * more often than the joined word, or both halves whole (or a second half of five letters or more) and never the
 * joined word; nor do typesetters cut a hyphenated word or an acronym ("MIT-style").
 */
export const keepsHyphen = (hyphenation: Hyphenation | undefined, before: string, after: string): boolean => {
  if (hyphenation === undefined) return false
  const head = before.toLowerCase()
  const rest = after.toLowerCase()
  const joined = hyphenation.words.get(head + rest) ?? 0
  const compound = compoundCount(hyphenation.compounds, head, rest)
  if (compound > joined) return true
  if (joined > 0 || writesStem(hyphenation.words, head, rest)) return false
  if (rest.length < 2) return false
  if (head.length === 1) return true
  const start = before.lastIndexOf("-") + 1
  if (start > 0 || acronym.test(before.slice(start))) return true
  const last = head.slice(start)
  return last.length >= 2 && hyphenation.words.has(last) && hyphenation.words.has(rest) ||
    last.length >= 3 && rest.length >= 5 && hyphenation.words.has(rest)
}
