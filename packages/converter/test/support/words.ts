/**
 * Word-level comparison of extracted texts: tokens of letters and digits, case-folded, so
 * punctuation, Markdown markup and its escapes never count.
 */

/** Markdown back to plain text: escapes, heading and list markers, table pipes. */
export const stripMarkdown = (markdown: string): string =>
  markdown
    .replace(/\\([\\`*_[\]<>~#+=.|)(!-])/g, "$1")
    .replace(/^#{1,6} /gm, "")
    .replace(/^(?:- |\d+\. )/gm, "")
    .replace(/^\|(?: --- \|)+$/gm, "")
    .replace(/ ?\| ?/g, " ")

/** A typesetter's hyphen at a line end joins the word the layout rejoins too. */
export const dehyphenate = (text: string): string => text.replace(/(\p{L})-\r?\n\s*(\p{Ll})/gu, "$1$2")

/** The words of a text, NFKC-normalised and case-folded. */
export const words = (text: string): Array<string> =>
  text.normalize("NFKC").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "")

/** Share of the reference's words (counted with multiplicity) that the candidate also has. */
export const recall = (reference: ReadonlyArray<string>, candidate: ReadonlyArray<string>): number => {
  if (reference.length === 0) return 1
  const available = new Map<string, number>()
  for (const word of candidate) available.set(word, (available.get(word) ?? 0) + 1)
  let found = 0
  for (const word of reference) {
    const count = available.get(word) ?? 0
    if (count > 0) {
      found++
      available.set(word, count - 1)
    }
  }
  return found / reference.length
}

/** Share of the reference's distinct words found anywhere in the candidate (order-insensitive). */
export const setRecall = (reference: ReadonlyArray<string>, candidate: ReadonlyArray<string>): number => {
  const distinct = new Set(reference)
  if (distinct.size === 0) return 1
  const have = new Set(candidate)
  let found = 0
  for (const word of distinct) if (have.has(word)) found++
  return found / distinct.size
}

/**
 * Words made of ASCII, Latin-1 and Latin Extended-A letters and digits. Fonts without a
 * ToUnicode map make pdftotext print glyph ids as unrelated code points (TAMReview's Cambria
 * comes out as U+01E1 for a comma, U+0373 for "1"); such tokens are noise, not text to find.
 */
export const latinWords = (list: ReadonlyArray<string>): Array<string> =>
  list.filter((word) => /^[\p{N}a-z\u00C0-\u017F]+$/u.test(word))
