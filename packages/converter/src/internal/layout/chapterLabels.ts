/** A chapter's label on its own line over a larger title (LaTeX's book and report classes): one heading. */
import { isHeadingCandidate } from "./headings.js"
import { joinLinePairs, prefixedMarks } from "./linePairs.js"
import type { Line, OrderedPage } from "./model.js"
import { letterCount } from "./text.js"

/** "Chapter 3", "Appendix B:", "Chapitre 4.": a label word and a number, nothing after them (a part's page is its own). */
const labelOnly =
  /^(?:Chapter|CHAPTER|Appendix|APPENDIX|Annexe|ANNEXE|Chapitre|CHAPITRE|Kapitel|KAPITEL|Cap[ií]tulo|Capitolo)\s+(?:\d{1,3}|[IVXLCDM]{1,6}|[A-Z])[.:]?$/u
/** The title's baseline stands at most this many of its sizes below the label's. */
const maxDrop = 3.5

const aligned = (a: Line, b: Line, size: number): boolean =>
  Math.abs(a.x0 - b.x0) <= size || Math.abs(a.x1 - b.x1) <= size || Math.abs(a.x0 + a.x1 - b.x0 - b.x1) <= 2 * size

/** Whether `title`, the next line, is the heading `label` stands over. */
const labels = (label: Line, title: Line, body: number): boolean =>
  labelOnly.test(label.text.trim()) && !label.rtl && !title.rtl && title.y > label.y &&
  title.y - label.y <= maxDrop * title.size && title.size >= label.size - 0.5 &&
  isHeadingCandidate(title, body) && letterCount(title.text) >= 2 && !labelOnly.test(title.text.trim()) &&
  aligned(label, title, title.size)

const joined = (label: Line, title: Line): Line => {
  const lead = label.text.trim()
  const marks = prefixedMarks(label, title)
  return {
    ...title,
    text: `${lead} ${title.text}`,
    x0: Math.min(label.x0, title.x0),
    x1: Math.max(label.x1, title.x1),
    ...(marks.length > 0 ? { marks } : { marks: undefined }),
    charWidth: undefined
  }
}

/** A page with each chapter label on its own line joined to the title under it. */
export const joinChapterLabels = (page: OrderedPage, body: number): OrderedPage =>
  joinLinePairs(page, (label, title) => labels(label, title, body), joined)
