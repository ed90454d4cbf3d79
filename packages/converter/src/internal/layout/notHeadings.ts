/** Lines a heading's size or weight does not make headings: captions, title-page stamps, large header cells. */
import type { Line, OrderedPage } from "./model.js"
import { pageLines } from "./model.js"
import { letterCount, normalizeText } from "./text.js"

/** "Figure 4-2.", "Table 1:", "Fig. 3 ", "Table 8.2. ": a caption's label and number, then its text. */
const captionLabel =
  /^(?:Figure|Fig\.|Table|Listing|Exhibit|Chart|Abbildung|Tabelle)\s+[A-Z]?\d+(?:[.\-–]\d+)*[a-z]?(?:[.:]|\s+[-–—:])?\s+\S/u

export const isCaption = (text: string): boolean => captionLabel.test(normalizeText(text).trim())

const month =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?"
const date =
  `(?:(?:\\d{1,2}\\.?\\s+)?${month}\\s+(?:\\d{1,2},?\\s+)?\\d{4}|\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}|\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{4})`
const version = "(?:Version|Release|Revision|Rev\\.|Edition|v\\.?)\\s*\\d+(?:\\.\\d+)*[a-z]?"
/** "1 April 1993", "2022-07-05", "Version 1.0", "Release 0.16, 2022/10/16": a title page's stamp. */
const stamp = new RegExp(`^(?:${date}|${version}(?:,?\\s+${date})?)$`, "iu")

export const isStamp = (text: string): boolean => stamp.test(normalizeText(text).trim().replace(/^[^\p{L}\p{N}]+/u, ""))

/** A heading's label or number, which a tab may set apart from its title on the same baseline. */
const titleLead =
  /^(?:(?:Chapter|Part|Section|Appendix|Annex|Book|Lesson|Unit)\b.*|[IVXLC]+\.?|[A-Z]\.?|\d+(?:\.\d+)*\.?)$/iu
/** Cells of one row stand at most this many font sizes apart (lines are cut at a gap over a word space). */
const maxCellGap = 2

const nextCell = (left: Line, right: Line): boolean => {
  const size = Math.max(left.size, right.size)
  const gap = right.x0 - left.x1
  return Math.abs(left.size - right.size) <= 0.5 && Math.abs(left.y - right.y) <= 0.3 * size && gap > 0 &&
    gap <= maxCellGap * size && letterCount(left.text) >= 2 && letterCount(right.text) >= 2 &&
    !titleLead.test(left.text.trim()) && !titleLead.test(right.text.trim())
}

/** Lines with another line beside them on their baseline, close enough to be cells of one row. */
const rowCells = (lines: ReadonlyArray<Line>): Array<Line> => {
  const sorted = [...lines].sort((a, b) => a.y - b.y)
  const cells: Array<Line> = []
  sorted.forEach((line, i) => {
    for (let j = i + 1; j < sorted.length && sorted[j]!.y - line.y <= 0.3 * line.size; j++) {
      const other = sorted[j]!
      if (nextCell(line, other) || nextCell(other, line)) cells.push(line, other)
    }
  })
  return cells
}

/** The lines of the pages that no rule by size or weight makes a heading (an outline's entries still do). */
export const notHeadings = (pages: ReadonlyArray<OrderedPage>): Set<Line> => {
  const found = new Set<Line>()
  const first = pages.find((page) => pageLines(page).length > 0)
  for (const page of pages) {
    const lines = pageLines(page)
    for (const line of lines) {
      if (isCaption(line.text) || (page === first && isStamp(line.text))) found.add(line)
    }
    for (const cell of rowCells(lines)) found.add(cell)
  }
  return found
}
