/** A heading's note references kept where the page sets them, inside its title as at its end. */
import type { Line, Mark } from "./model.js"
import { Style } from "./model.js"
import { normalizeText } from "./text.js"

/**
 * The line's own words with its references where they stand ("AIAA∗ LaTeX Manual†"), when the
 * title is those words: a reference inside a title marks it as much as one ending it.
 */
export const referencesInPlace = (line: Line, title: string): { text: string; marks: Array<Mark> } | undefined => {
  const references = (line.marks ?? []).filter((mark) => mark.style === Style.footnote)
  if (references.length === 0) return undefined
  let text = ""
  let from = 0
  const marks: Array<Mark> = []
  for (const mark of references) {
    text += normalizeText(line.text.slice(from, mark.start))
    if (marks.length === 0) text = text.trimStart()
    const label = line.text.slice(mark.start, mark.end).trim()
    marks.push({ start: text.length, end: text.length + label.length, style: Style.footnote })
    text += label
    from = mark.end
  }
  text = (text + normalizeText(line.text.slice(from))).trimEnd()
  const words = marks.reduceRight((rest, mark) => rest.slice(0, mark.start) + rest.slice(mark.end), text)
  return words === title ? { text, marks } : undefined
}
