/**
 * Korean sets a space between words, but a line may also break between two syllables of one word,
 * with no hyphen. At a line end between Hangul, the document's own words and Korean's particles decide.
 */
import type { Hyphenation } from "./hyphens.js"

const hangul = /\p{Script=Hangul}/u
const lastWord = /\p{L}+$/u
const firstWord = /^\p{L}+/u

// Particles and verb endings written on the word before: a line starting with one alone goes on that word.
const particles = new Set([
  "으로",
  "로",
  "에서",
  "에게",
  "에",
  "을",
  "를",
  "은",
  "는",
  "가",
  "의",
  "와",
  "과",
  "도",
  "만",
  "까지",
  "부터",
  "보다",
  "처럼",
  "이다",
  "이며",
  "하다",
  "하고",
  "하는",
  "하지",
  "하여",
  "하며",
  "한다",
  "할",
  "된다",
  "되는"
])

// A word of two syllables or more ending in a particle is whole ("패키지에", "내는", "지정해서").
const particleEnd = /\p{L}[는은를을에의며면서]$/u

/** Whether the two Hangul sides of a line break are two words (a space) rather than one cut between syllables. */
export const hangulSpace = (hyphenation: Hyphenation | undefined, left: string, right: string): boolean => {
  const head = lastWord.exec(left)?.[0] ?? ""
  const rest = firstWord.exec(right)?.[0] ?? ""
  if (head === "" || rest === "") return false
  const words = hyphenation?.words
  if ((words?.get((head + rest).toLowerCase()) ?? 0) > 0) return false
  if (particles.has(rest)) return false
  if (particleEnd.test(head)) return true
  return words !== undefined && (words.has(head.toLowerCase()) || words.has(rest.toLowerCase()))
}

/** A line's text starts or ends in Hangul: its word there may be half of one cut at the line end. */
export const hangulEdges = (text: string): { readonly start: boolean; readonly end: boolean } => ({
  start: hangul.test(text.trimStart().slice(0, 1)),
  end: hangul.test(text.trimEnd().slice(-1))
})

export const isHangul = (char: string): boolean => hangul.test(char)
