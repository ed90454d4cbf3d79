/**
 * Notes set under a table (or under the lines of one read as paragraphs) rather than at the page's
 * foot: a paragraph led by a label that the blocks just above show, "†" beside a cell's word or a
 * raised "a", becomes the footnote those labels refer to.
 */
import type * as Document from "../../Document.js"
import { Style } from "../../Document.js"

/** The symbols a note under a table is labelled with; a dagger-led paragraph is a note even when nothing refers to it. */
const symbols = "*\u2217\u2020\u2021\u00A7\u00B6\u2016"
const symbolLead = new RegExp(`^([${symbols}]{1,3})\\s*(?=[\\p{L}\\p{N}("'\\u201C\\u2018])`, "u")
const asterisks = /^[*\u2217]+$/u
const symbolLabel = new RegExp(`^[${symbols}]{1,3}$`, "u")
const otherLead = /^(\p{Nd}{1,2}|\p{Ll})\s+(?=\S)/u
/** Labels never referred to that still lead a note: a dagger starts no sentence. */
const alwaysNotes = /^[\u2020\u2021\u2016]+$/
/** How many blocks above a note its references may stand in (a caption, a header, rows read as paragraphs). */
const reach = 6

type Marked = Document.Paragraph | Document.Table

/**
 * How a note's label is set: a symbol; a raised figure or letter, or one on the line; or (LaTeX's
 * minipage notes) a letter in italics set close to the word it follows and to its note's text.
 */
type Kind = "symbol" | "other" | "italic"

/** Whether a mark is one italic letter (in any script: "a", "آ"). */
const italicLetter = (text: string, mark: Document.Mark): boolean =>
  (mark.style & Style.emphasis) !== 0 && (mark.style & Style.code) === 0 &&
  /^\p{L}$/u.test(text.slice(mark.start, mark.end))

/** A paragraph's leading label and where its text starts. */
const leadLabel = (
  block: Document.Paragraph
): { readonly label: string; readonly cut: number; readonly kind: Kind } | undefined => {
  const first = block.marks?.[0]
  const italic = first !== undefined && first.start === 0 && italicLetter(block.text, first)
    ? /^\s?(?=\p{L})/u.exec(block.text.slice(first.end))
    : null
  if (italic !== null) {
    return { label: block.text.slice(0, first!.end), cut: first!.end + italic[0].length, kind: "italic" }
  }
  if (first !== undefined && first.start === 0 && first.style === Style.footnote) {
    const rest = block.text.slice(first.end)
    return rest.trim() === "" ? undefined : {
      label: block.text.slice(0, first.end).trim(),
      cut: block.text.length - rest.trimStart().length,
      kind: symbolLabel.test(block.text.slice(0, first.end).trim()) ? "symbol" : "other"
    }
  }
  const symbol = symbolLead.exec(block.text)
  if (symbol !== null) return { label: symbol[1]!, cut: symbol[0].length, kind: "symbol" }
  const other = otherLead.exec(block.text)
  return other === null ? undefined : { label: other[1]!, cut: other[0].length, kind: "other" }
}

const isSpace = (c: string | undefined): boolean => c === undefined || /\s/u.test(c)
const closing = /[\s.,;:)\]]/u

/**
 * Where `label` stands in `text` as a reference: a raised label, an italic letter set after a word,
 * or (a symbol) one set after a word ("Band-Aid*.") or alone between spaces ("cswh †"), outside
 * code; not at the text's start.
 */
const referencesIn = (
  text: string,
  marks: ReadonlyArray<Document.Mark>,
  label: string,
  kind: Kind
): Array<{ readonly start: number; readonly end: number }> => {
  const found: Array<{ start: number; end: number }> = []
  for (const mark of marks) {
    const raised = mark.style === Style.footnote && text.slice(mark.start, mark.end).trim() === label
    const italic = kind === "italic" && mark.start > 0 && italicLetter(text, mark) &&
      text.slice(mark.start, mark.end) === label && !isSpace(text[mark.start - 1]) &&
      (mark.end === text.length || closing.test(text[mark.end]!))
    if (raised || italic) found.push({ start: mark.start, end: mark.end })
  }
  if (kind !== "symbol") return found
  for (let at = text.indexOf(label, 1); at > 0; at = text.indexOf(label, at + label.length)) {
    const end = at + label.length
    const before = text[at - 1]
    const after = text[end]
    if (symbols.includes(before!) || (after !== undefined && symbols.includes(after))) continue
    const attached = !isSpace(before) && (after === undefined || closing.test(after))
    // An asterisk alone is a wildcard or an operator more often than a reference.
    const alone = isSpace(before) && isSpace(after) && !asterisks.test(label)
    const inside = marks.some((mark) =>
      mark.start < end && mark.end > at && ((mark.style & Style.code) !== 0 || mark.style === Style.footnote)
    )
    if ((attached || alone) && !inside) found.push({ start: at, end })
  }
  return found
}

/** `marks` with footnote marks over `spans`, a style mark a span falls in cut around it. */
const withSpans = (
  marks: ReadonlyArray<Document.Mark>,
  spans: ReadonlyArray<{ readonly start: number; readonly end: number }>
): Array<Document.Mark> => {
  let out: Array<Document.Mark> = [...marks]
  for (const span of spans) {
    if (out.some((mark) => mark.style === Style.footnote && mark.start === span.start)) continue
    out = out.flatMap((mark) =>
      mark.start < span.end && mark.end > span.start
        ? [
          ...(mark.start < span.start ? [{ ...mark, end: span.start }] : []),
          ...(mark.end > span.end ? [{ ...mark, start: span.end }] : [])
        ]
        : [mark]
    )
    out.push({ start: span.start, end: span.end, style: Style.footnote })
  }
  return out.sort((a, b) => a.start - b.start)
}

/** The block with `label`'s references marked, or undefined when it shows none. */
const referring = (block: Marked, label: string, kind: Kind): Marked | undefined => {
  if (block._tag === "Paragraph") {
    const spans = referencesIn(block.text, block.marks ?? [], label, kind)
    return spans.length === 0 ? undefined : { ...block, marks: withSpans(block.marks ?? [], spans) }
  }
  let any = false
  const marks = block.rows.map((row, r) =>
    row.map((cell, c) => {
      const own = block.marks?.[r]?.[c] ?? []
      // A cell holding only the symbol: a column of marks beside the cells they refer to.
      const alone = kind === "symbol" && cell.trim() === label
      const spans = alone
        ? [{ start: cell.indexOf(label), end: cell.indexOf(label) + label.length }]
        : referencesIn(cell, own, label, kind)
      if (spans.length > 0) any = true
      return spans.length === 0 ? own : withSpans(own, spans)
    })
  )
  return any ? { ...block, marks } : undefined
}

/** The note's text without its label, its marks shifted. */
const noteOf = (block: Document.Paragraph, label: string, cut: number): Document.Footnote => {
  const text = block.text.slice(cut)
  const marks = (block.marks ?? []).flatMap((mark) =>
    mark.end <= cut || mark.style === Style.footnote
      ? []
      : [{ ...mark, start: Math.max(0, mark.start - cut), end: mark.end - cut }]
  )
  return { _tag: "Footnote", label, text, ...(marks.length > 0 ? { marks } : {}) }
}

/** The blocks with each note under a table made the footnote its references (marked in the blocks above) refer to. */
export const tableNotes = (blocks: ReadonlyArray<Document.Block>): Array<Document.Block> => {
  const out = [...blocks]
  for (let i = 1; i < out.length; i++) {
    const block = out[i]!
    if (block._tag !== "Paragraph") continue
    const lead = leadLabel(block)
    if (lead === undefined) continue
    const changed = new Map<number, Marked>()
    let sawTable = false
    for (let j = i - 1; j >= 0 && j >= i - reach; j--) {
      const above = out[j]!
      if (above._tag === "Footnote") continue
      if (above._tag !== "Paragraph" && above._tag !== "Table") break
      // An earlier note of the same label ends what this one may refer to.
      if (above._tag === "Paragraph" && leadLabel(above)?.label === lead.label) break
      sawTable ||= above._tag === "Table"
      const marked = referring(above, lead.label, lead.kind)
      if (marked !== undefined) changed.set(j, marked)
    }
    const unreferred = lead.kind === "symbol" && alwaysNotes.test(lead.label)
    if (changed.size === 0 && !unreferred) continue
    // A letter, a figure or an asterisk leads a note only under a table (a dagger's or an italic
    // letter's note may be under rows read as text).
    if ((lead.kind === "other" || asterisks.test(lead.label)) && !sawTable) continue
    for (const [j, marked] of changed) out[j] = marked
    out[i] = noteOf(block, lead.label, lead.cut)
  }
  return out
}
