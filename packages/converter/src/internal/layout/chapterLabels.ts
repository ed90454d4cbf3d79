/** A chapter's label on its own line over a larger title (LaTeX's book and report classes): one heading. */
import { allBold, isHeadingCandidate } from "./headings.js"
import { joinLinePairs, prefixedMarks } from "./linePairs.js"
import type { Line, OrderedPage } from "./model.js"
import { pageLines } from "./model.js"
import { letterCount } from "./text.js"

/** "Chapter 3", "Appendix B:", "Chapitre 4.": a label word and a number, nothing after them (a part's page is its own). */
const labelOnly =
  /^(?:Chapter|CHAPTER|Appendix|APPENDIX|Annexe|ANNEXE|Chapitre|CHAPITRE|Kapitel|KAPITEL|Cap[ií]tulo|Capitolo)\s+(?:\d{1,3}|[IVXLCDM]{1,6}|[A-Z])[.:]?$/u
/** The title's baseline stands at most this many of its sizes below the label's. */
const maxDrop = 3.5
/** A bold title this many points above the text is a chapter's under its label (a thesis class's 12 over 11). */
const boldGrowth = 0.5
const maxBoldChars = 100

/** A title in bold a little larger than the text, short and not a sentence: too small for a size's heading. */
const boldTitle = (title: Line, body: number): boolean =>
  title.size > body + boldGrowth && title.text.length <= maxBoldChars && !/[.:;,]$/.test(title.text.trim()) &&
  allBold(title.text, title.marks ?? [])

const aligned = (a: Line, b: Line, size: number): boolean =>
  Math.abs(a.x0 - b.x0) <= size || Math.abs(a.x1 - b.x1) <= size || Math.abs(a.x0 + a.x1 - b.x0 - b.x1) <= 2 * size

/** Whether `title`, the next line, is the heading `label` stands over. */
const labels = (label: Line, title: Line, body: number): boolean =>
  labelOnly.test(label.text.trim()) && !label.rtl && !title.rtl && title.y > label.y &&
  title.y - label.y <= maxDrop * title.size && title.size >= label.size - 0.5 &&
  (isHeadingCandidate(title, body) || boldTitle(title, body)) && letterCount(title.text) >= 2 &&
  !labelOnly.test(title.text.trim()) &&
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

/** A label's bold title's next line: bold at its size, right under it and centred or aligned with it. */
const wraps = (chapter: Line, next: Line, body: number): boolean =>
  boldChapterLine(chapter, body) && boldTitle(next, body) && Math.abs(next.size - chapter.size) < 0.25 &&
  next.y > chapter.y && next.y - chapter.y < 1.6 * next.size && aligned(chapter, next, next.size)

const wrapped = (chapter: Line, next: Line): Line => ({
  ...joined(chapter, next),
  text: `${chapter.text} ${next.text}`,
  marks: prefixedMarks(chapter, next)
})

/** A page with each chapter label on its own line joined to the title under it (and a bold title's second line). */
export const joinChapterLabels = (page: OrderedPage, body: number): OrderedPage =>
  joinLinePairs(
    joinLinePairs(page, (label, title) => labels(label, title, body), joined),
    (chapter, next) => wraps(chapter, next, body),
    wrapped
  )

/** "Chapter 1 INTRODUCTION" joined from a label over a bold title (`boldTitle`): no size of its own makes it a heading. */
const boldChapterLine = (line: Line, body: number): boolean => {
  const label = /^\S+\s+\S+?[.:]?\s/u.exec(line.text)?.[0]
  if (label === undefined || !labelOnly.test(label.trim()) || isHeadingCandidate(line, body)) return false
  const marks = (line.marks ?? []).flatMap((mark) =>
    mark.end <= label.length
      ? []
      : [{ ...mark, start: Math.max(0, mark.start - label.length), end: mark.end - label.length }]
  )
  return boldTitle({ ...line, text: line.text.slice(label.length), marks }, body)
}

/** A line this many of its sizes from its neighbours stands alone (an unnumbered chapter's title). */
const aloneAbove = 2
const aloneBelow = 1.5

/**
 * The joined chapter lines of bold titles, and lines set alone in their face and size (a bibliography's,
 * a preface's title): the chapters' level.
 */
export const boldChapters = (pages: ReadonlyArray<OrderedPage>, body: number): Set<Line> => {
  const found = new Set<Line>()
  for (const page of pages) for (const line of pageLines(page)) if (boldChapterLine(line, body)) found.add(line)
  const sizes = [...found].map((line) => line.size)
  if (sizes.length === 0) return found
  for (const page of pages) {
    const lines = pageLines(page)
    lines.forEach((line, i) => {
      const previous = lines[i - 1]
      const next = lines[i + 1]
      if (!sizes.some((size) => Math.abs(size - line.size) < 0.25) || !boldTitle(line, body)) return
      if (previous !== undefined && (previous.y >= line.y || line.y - previous.y < aloneAbove * line.size)) return
      if (next !== undefined && next.y > line.y && next.y - line.y < aloneBelow * line.size) return
      found.add(line)
    })
  }
  return found
}
