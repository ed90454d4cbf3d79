/**
 * Lines that look like headings by their size or weight but that a reader takes for something else:
 * figure and table captions, and the date or version under a title page's title.
 */
import type { Line, OrderedPage } from "./model.js"
import { pageLines } from "./model.js"
import { normalizeText } from "./text.js"

/** "Figure 4-2.", "Table 1:", "Fig. 3 ", "Table 8.2. ": a caption's label and number, then its text. */
const captionLabel =
  /^(?:Figure|Fig\.|Table|Listing|Exhibit|Chart|Abbildung|Tabelle)\s+[A-Z]?\d+(?:[.\-–]\d+)*[a-z]?(?:[.:]|\s+[-–—:])?\s+\S/u

/** Whether a line's text opens with a caption's label and number. */
export const isCaption = (text: string): boolean => captionLabel.test(normalizeText(text).trim())

const month =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?"
const date =
  `(?:(?:\\d{1,2}\\.?\\s+)?${month}\\s+(?:\\d{1,2},?\\s+)?\\d{4}|\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}|\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{4})`
const version = "(?:Version|Release|Revision|Rev\\.|Edition|v\\.?)\\s*\\d+(?:\\.\\d+)*[a-z]?"
/** "1 April 1993", "2022-07-05", "Version 1.0", "Release 0.16, 2022/10/16": a title page's stamp. */
const stamp = new RegExp(`^(?:${date}|${version}(?:,?\\s+${date})?)$`, "iu")

/** Whether a line's text is only a date or a version (whatever symbols lead it). */
export const isStamp = (text: string): boolean => stamp.test(normalizeText(text).trim().replace(/^[^\p{L}\p{N}]+/u, ""))

/** The lines of the pages that no rule by size or weight makes a heading (an outline's entries still do). */
export const notHeadings = (pages: ReadonlyArray<OrderedPage>): Set<Line> => {
  const found = new Set<Line>()
  const first = pages.find((page) => pageLines(page).length > 0)
  for (const page of pages) {
    for (const line of pageLines(page)) {
      if (isCaption(line.text) || (page === first && isStamp(line.text))) found.add(line)
    }
  }
  return found
}
