/** Where a page's lines part: a paragraph's end, a displayed code line, a line beside the one before. */
import type { Line } from "./model.js"
import { Style } from "./model.js"
import { endsSentence, lowerStart } from "./text.js"

/** Where a new paragraph starts: a wider gap, a size change, an indent or a short line after a sentence. */
export const breaksBefore = (
  previous: Line,
  line: Line,
  paragraphRight: number | undefined,
  lineRatio: number
): boolean => {
  const dy = line.y - previous.y
  const size = Math.max(previous.size, line.size)
  if (Math.abs(previous.size - line.size) > 1) return true
  if (dy <= 0) {
    // The next column (or a line beside the previous one): the paragraph goes on unless a sentence ended.
    return endsSentence(previous.text)
  }
  // Wider than the document's own leading by a fifth: a paragraph gap, unless a sentence goes on at the same margin.
  const goesOn = dy < size * 2 && Math.abs(line.x0 - previous.x0) < size && !endsSentence(previous.text) &&
    lowerStart.test(line.text) && line.charWidth === undefined && previous.charWidth === undefined
  if (!goesOn && dy > size * Math.max(1.45, lineRatio * 1.2) + 0.5) return true
  if (!endsSentence(previous.text)) return false
  if (line.x0 > previous.x0 + size * 0.7) return true
  return paragraphRight !== undefined && previous.x1 < paragraphRight - size * 3
}

/** A displayed code line closed by its sentence's full stop or comma, read as code. */
export const closedCode = (line: Line): Line | undefined => {
  const mark = line.marks?.[0]
  if (line.charWidth !== undefined || line.marks?.length !== 1 || mark === undefined) return undefined
  const closed = (mark.style & Style.code) !== 0 && mark.start === 0 && mark.end === line.text.length - 1 &&
    /[.,;]$/.test(line.text)
  return closed ? { ...line, charWidth: (line.x1 - line.x0) / line.text.length } : undefined
}

/** A sentence's end: a full stop, perhaps inside a closing quote or bracket. */
export const fullStop = /[.!?]["')\]]?\s*$/

/** A line on the previous one's baseline (a cell or column beside it) does not continue a word cut by a hyphen. */
export const beside = (previous: Line, line: Line): boolean =>
  Math.abs(line.y - previous.y) <= 0.5 * Math.max(previous.size, line.size)
