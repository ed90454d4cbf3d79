/**
 * A diagram's labels drawn as type ("Lock", "Buffer Manager" in boxes over "Figure 1: ..."): text. They are the
 * short lines before a caption from the first baseline holding two side by side down; a heading above stands alone.
 */
import { capitalCaption } from "./floatBlocks.js"
import type { Line, OrderedPage } from "./model.js"
import { isCaption } from "./notHeadings.js"
import { normalizeText } from "./text.js"

/** A label is a few words (a box's name, an arrow's verb). */
const labelWords = 8
/** How many lines a diagram's labels may run to before its caption. */
const maxLabels = 40

const isLabel = (line: Line): boolean =>
  (line.text.match(/[\p{L}\p{N}]+/gu) ?? []).length <= labelWords && !/[.!?:]$/u.test(line.text.trim())

const besides = (a: Line, b: Line): boolean =>
  a !== b && Math.abs(a.y - b.y) <= 0.3 * Math.min(a.size, b.size) && (a.x1 <= b.x0 || b.x1 <= a.x0)

/** The lines of `pages` that are labels of a diagram over a caption. */
export const figureLabels = (pages: ReadonlyArray<OrderedPage>): Set<Line> => {
  const found = new Set<Line>()
  for (const page of pages) {
    const items = page.items
    items.forEach((item, i) => {
      if (item._tag !== "Line") return
      const caption = normalizeText(item.line.text).trim()
      if (!isCaption(caption) && !capitalCaption.test(caption)) return
      const run: Array<Line> = []
      for (let j = i - 1; j >= 0 && run.length < maxLabels; j--) {
        const before = items[j]!
        if (before._tag !== "Line" || !isLabel(before.line)) break
        run.push(before.line)
      }
      const rows = run.filter((line) => run.some((other) => besides(line, other)))
      if (rows.length === 0) return
      const top = Math.min(...rows.map((line) => line.y))
      for (const line of run) if (line.y >= top - 0.3 * line.size) found.add(line)
    })
  }
  return found
}
