/**
 * References set on the line, not raised: a note symbol glued to a word ("Allman*", "UNIX†", as
 * troff sets them) or a number glued to CJK text ("…なります。1"), when a note of the page has that label.
 */
import type { Line, Mark, PageItem } from "./model.js"
import { Style } from "./model.js"

const symbols = "*\\u2217\\u2020\\u2021\\u00A7\\u00B6\\u2016"
const digits = "\\p{Nd}\\u00B9\\u00B2\\u00B3\\u2070\\u2074-\\u2079"
const cjk = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303F\\uFF01-\\uFF60"
/** A symbol after a word or its punctuation (never after a backslash: troff's `\**` is code), then a space or punctuation. */
const symbolReference = new RegExp(`(?<=[^\\s\\\\${symbols}])([${symbols}]{1,3})(?=$|[\\s.,;:!?)\\]])`, "gu")
/** A number right after CJK text, then a space, CJK text or the line's end. */
const numberReference = new RegExp(`(?<=[${cjk}])([${digits}]{1,3})(?=$|\\s|[${cjk}])`, "gu")

/** A reference candidate: the item it is in, where, and its label. */
export interface Glued {
  readonly index: number
  readonly start: number
  readonly end: number
  readonly label: string
}

/** The glued references of a prose line (not those already raised). */
export const gluedReferences = (line: Line, index: number): Array<Glued> => {
  if (line.charWidth !== undefined) return []
  const found: Array<Glued> = []
  for (const pattern of [symbolReference, numberReference]) {
    for (const match of line.text.matchAll(pattern)) {
      const start = match.index
      const end = start + match[1]!.length
      const raised = (line.marks ?? []).some((mark) =>
        mark.style === Style.footnote && mark.start < end && mark.end > start
      )
      if (!raised) found.push({ index, start, end, label: match[1]! })
    }
  }
  return found
}

/** The items with the first glued references of each label marked, as many as its notes no raised reference answers. */
export const markGlued = (
  items: ReadonlyArray<PageItem>,
  wanted: ReadonlyMap<string, number>
): ReadonlyArray<PageItem> => {
  const left = new Map(wanted)
  const added = new Map<number, Array<Mark>>()
  for (const item of items) {
    if (item._tag !== "Line") continue
    for (const mark of item.line.marks ?? []) {
      if (mark.style !== Style.footnote) continue
      const label = item.line.text.slice(mark.start, mark.end).trim()
      left.set(label, (left.get(label) ?? 0) - 1)
    }
  }
  items.forEach((item, index) => {
    if (item._tag !== "Line") return
    for (const glued of gluedReferences(item.line, index)) {
      const count = left.get(glued.label) ?? 0
      if (count <= 0) continue
      left.set(glued.label, count - 1)
      added.set(index, [...(added.get(index) ?? []), { start: glued.start, end: glued.end, style: Style.footnote }])
    }
  })
  if (added.size === 0) return items
  return items.map((item, index) => {
    const marks = added.get(index)
    if (marks === undefined || item._tag !== "Line") return item
    // A style mark around a reference is cut around it: a reference is never also emphasis.
    const cut = (item.line.marks ?? []).flatMap((mark) =>
      marks.reduce<Array<Mark>>((parts, ref) =>
        parts.flatMap((part) =>
          part.start < ref.end && part.end > ref.start
            ? [{ ...part, end: ref.start }, { ...part, start: ref.end }].filter((p) => p.end > p.start)
            : [part]
        ), [mark])
    )
    const all = [...cut, ...marks].sort((a, b) => a.start - b.start)
    return { _tag: "Line", line: { ...item.line, marks: all } }
  })
}
