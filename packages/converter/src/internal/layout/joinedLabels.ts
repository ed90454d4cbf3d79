/**
 * A note's label or a reference that the page draws apart from its line, joined to it: LaTeX's "1"
 * raised alone over its note's first line, a reference the line under it ends at.
 */
import { noteLabel } from "./lines.js"
import type { Mark, OrderedPage, PageItem } from "./model.js"
import { Style } from "./model.js"
import { startsLabelled } from "./noteShape.js"
import { labelBeforePunctuation } from "./punctuatedLabels.js"

/** Notes start below this share of the page's height. */
export const lowerPart = 0.4

/**
 * The page's items with a small label raised alone on its line low on the page (LaTeX's "1" over
 * its note's first line) joined to the text beside it, as the label a note starts with.
 */
export const withLabelsJoined = (page: OrderedPage, body: number): ReadonlyArray<PageItem> => {
  let out: Array<PageItem> | undefined
  for (let i = 0; i + 1 < page.items.length; i++) {
    const item = page.items[i]!
    const next = page.items[i + 1]!
    if (item._tag !== "Line" || next._tag !== "Line" || item.line.marks !== undefined) continue
    const label = item.line
    const text = next.line
    if (!noteLabel.test(label.text.trim()) || label.size >= text.size) continue
    // A reference the line under it ends at, read as a line of its own: it goes back to that line's end.
    const raised = text.y - label.y >= 0.15 * text.size && text.y - label.y <= 0.6 * text.size
    if (raised && !text.rtl && Math.abs(label.x0 - text.x1) <= 0.5) {
      const end = text.text.length
      const marks = [...(text.marks ?? []), { start: end, end: end + label.text.trim().length, style: Style.footnote }]
      out ??= [...page.items]
      out[i] = { _tag: "Line", line: { ...text, text: "" } }
      out[i + 1] = { _tag: "Line", line: { ...text, text: text.text + label.text.trim(), x1: label.x1, marks } }
      continue
    }
    const punctuated = labelBeforePunctuation(label, text)
    if (punctuated !== undefined) {
      out ??= [...page.items]
      out[i] = { _tag: "Line", line: { ...text, text: "" } }
      out[i + 1] = { _tag: "Line", line: punctuated }
      continue
    }
    const alone = label.y >= page.height * lowerPart && text.size <= body - 0.75 && text.y > label.y &&
      text.y - label.y <= 0.6 * text.size &&
      text.x0 >= label.x1 - 0.5 && text.x0 - label.x1 <= text.size && !startsLabelled(text)
    if (!alone) continue
    const cut = label.text.trim().length + 1
    const marks: Array<Mark> = [{ start: 0, end: cut - 1, style: Style.footnote }]
    for (const mark of text.marks ?? []) marks.push({ ...mark, start: mark.start + cut, end: mark.end + cut })
    out ??= [...page.items]
    out[i] = { _tag: "Line", line: { ...text, text: `${label.text.trim()} ${text.text}`, x0: label.x0, marks } }
    out[i + 1] = { _tag: "Line", line: { ...text, text: "" } }
  }
  return out === undefined ? page.items : out.filter((item) => item._tag !== "Line" || item.line.text !== "")
}
