/**
 * Lines that look like headings by their size or weight but that a reader takes for something else:
 * figure and table captions.
 */
import type { Line, OrderedPage } from "./model.js"
import { pageLines } from "./model.js"
import { normalizeText } from "./text.js"

/** "Figure 4-2.", "Table 1:", "Fig. 3 ", "Table 8.2. ": a caption's label and number, then its text. */
const captionLabel =
  /^(?:Figure|Fig\.|Table|Listing|Exhibit|Chart|Abbildung|Tabelle)\s+[A-Z]?\d+(?:[.\-–]\d+)*[a-z]?(?:[.:]|\s+[-–—:])?\s+\S/u

/** Whether a line's text opens with a caption's label and number. */
export const isCaption = (text: string): boolean => captionLabel.test(normalizeText(text).trim())

/** The lines of the pages that no rule by size or weight makes a heading (an outline's entries still do). */
export const notHeadings = (pages: ReadonlyArray<OrderedPage>): Set<Line> => {
  const found = new Set<Line>()
  for (const page of pages) {
    for (const line of pageLines(page)) {
      if (isCaption(line.text)) found.add(line)
    }
  }
  return found
}
