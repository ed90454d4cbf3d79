/** What makes rows a glossary (an acronym list): short terms, descriptions mostly unwrapped, no contents. */
import { markerOnly } from "./lines.js"
import { Style } from "./model.js"

/** In font sizes: a glossary's rows (and a description's wrapped lines) are at most this far apart. */
export const maxRowGap = 2.6
/** In points: terms start at one x, descriptions at one x, within this. */
export const slack = 2
const minRows = 3
export const maxLines = 3
const maxTermLength = 32
const maxTermWords = 4
/** A number, letter or numeral alone (a footnote's, a section's, a list item's): no term. */
const numbering = /^[([]?(?:\d+|[a-z]|[ivxlc]+)(?:\.\d+)*[.)\]]?$/iu
/** A term ending so is a sentence's or a clause's start, not a term. */
const closing = /[.,;:!?]$/
/** Page numbers only, or dot leaders: a contents. */
const pageNumber = /^[\divxlc]+$/iu
const leaders = /(?:\.\s?){4}|…/u

/** A glossary's term: up to four words and 32 characters, not code, no list marker, no closing punctuation. */
export const isTerm = (term: string, style: number): boolean => {
  const words = term.split(/\s+/u)
  return term !== "" && term.length <= maxTermLength && words.length <= maxTermWords && !closing.test(term) &&
    !markerOnly.test(words[0]!) && !numbering.test(term) && (style & Style.code) === 0
}

/** Whether descriptions so read are a glossary's: not mostly wrapped, not page numbers (a contents). */
export const isGlossary = (descriptions: ReadonlyArray<{ readonly description: string; readonly lines: number }>) =>
  descriptions.length >= minRows && descriptions.filter((entry) => entry.lines > 1).length * 2 <= descriptions.length &&
  !descriptions.every((entry) => pageNumber.test(entry.description)) &&
  !descriptions.some((entry) => leaders.test(entry.description))
