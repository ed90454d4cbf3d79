/**
 * A reference raised before the punctuation that ends a line ("bibliography¹."), read as a line of
 * its own when a line of the other column, a little higher, took it into its baseline.
 */
import type { Line, Mark } from "./model.js"
import { Style } from "./model.js"

/** A line's end: a space (the gap the label left) and one punctuation mark. */
const spacedEnd = /\s([.,;:])$/

/**
 * `text` with `label` set back before its last punctuation mark, as a reference, when the label
 * stands raised over that gap (its right end less than half a size before the line's); else undefined.
 */
export const labelBeforePunctuation = (label: Line, text: Line): Line | undefined => {
  const end = spacedEnd.exec(text.text)
  const lift = text.y - label.y
  if (end === null || text.rtl || lift < 0.15 * text.size || lift > 0.6 * text.size) return undefined
  const before = text.x1 - label.x1
  if (before <= 0 || before > 0.5 * text.size || label.x0 <= text.x0) return undefined
  const mark = label.text.trim()
  const at = end.index
  const marks: Array<Mark> = (text.marks ?? []).flatMap((m) =>
    m.start >= at ? [] : [{ ...m, end: Math.min(m.end, at) }]
  )
  marks.push({ start: at, end: at + mark.length, style: Style.footnote })
  return { ...text, text: `${text.text.slice(0, at)}${mark}${end[1]}`, marks }
}
