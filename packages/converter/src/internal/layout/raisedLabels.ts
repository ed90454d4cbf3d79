/** A footnote's reference raised above its line: the labels a page sets at a note's reference. */
import type { TextItem } from "./model.js"

/** A footnote's label as a page sets it at the reference: a number (in any script's digits) or a note symbol. */
export const noteLabel = /^(?:\p{Nd}{1,3}|[*\u2217\u2020\u2021\u00A7\u00B6\u2016]{1,3})$/u

/** A label set in the line's own size is raised at least this share of it (troff's and Word's raised marks). */
const fullSizeRaise = 0.3

/** Whether a run is a footnote's label raised above the line of `main`, set smaller or raised well clear of it. */
export const isRaisedLabel = (item: TextItem, main: TextItem): boolean =>
  (raisedMark(item.text.trim()) || raisedLetter.test(item.text.trim())) && item.y < main.y - 0.15 * main.size &&
  (item.size < 0.85 * main.size ||
    item.size <= main.size + 0.5 && item.y < main.y - fullSizeRaise * main.size && noteLabel.test(item.text.trim()))

/**
 * A raised mark's text: a note label, question marks where the font left a note symbol unmapped
 * (elsarticle's star), or a letter and a parenthesis (AIP's "a)", raised only as a note's label).
 */
const raisedMark = (text: string): boolean => noteLabel.test(text) || /^(?:\?{1,3}|\p{Ll}\))$/u.test(text)

/** One small letter raised alone (a table's notes: "Curveᵃ"); an exponent it may also be, which a note of its label on the page tells apart. */
export const raisedLetter = /^[a-z]$/

/** The labels of several notes raised as one run, commas between them ("1,∗"); undefined for any other run. */
export const raisedLabels = (item: TextItem, main: TextItem): Array<string> | undefined => {
  if (item.size >= 0.85 * main.size || item.y >= main.y - 0.15 * main.size || !item.text.includes(",")) return undefined
  const parts = item.text.split(",")
  return parts.every((part) => raisedMark(part.trim())) ? parts : undefined
}
