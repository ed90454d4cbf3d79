/** The blocks one line (or a title) makes: a heading, a large-print passage, a definition term. */
import type * as Document from "../../Document.js"
import type { Rich } from "./inline.js"
import type { OutlineEntry } from "./model.js"
import { Style } from "./model.js"
import { normalizeText } from "./text.js"

export const outlineHeading = (entry: OutlineEntry): Document.Heading => ({
  _tag: "Heading",
  level: Math.min(6, entry.level),
  text: normalizeText(entry.title).trim()
})

/** A heading with the code spans and note references of its title (that it is bold goes without saying). */
export const headingOf = (level: number, rich: Rich): Document.Heading => {
  const marks = rich.marks.filter((mark) => (mark.style & (Style.code | Style.footnote)) !== 0)
  return { _tag: "Heading", level, text: rich.text, ...(marks.length > 0 ? { marks } : {}) }
}

/** A large-print passage read as a heading at first: its code spans and note references stay (its weight is its print's). */
export const passageOf = (rich: Rich): Document.Paragraph => {
  const marks = rich.marks.filter((mark) => (mark.style & (Style.code | Style.footnote)) !== 0)
  return { _tag: "Paragraph", text: rich.text, ...(marks.length > 0 ? { marks } : {}) }
}

export const termOf = (rich: Rich): Document.Term => ({
  _tag: "Term",
  text: rich.text,
  ...(rich.marks.length > 0 ? { marks: rich.marks } : {})
})
