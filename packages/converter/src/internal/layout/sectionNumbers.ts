/**
 * A section number set apart from its title by a tab (Word's "1.1", two ems left of "Audience"),
 * cut from it as a column would be, joined back to its heading.
 */
import { allBold, isHeadingCandidate } from "./headings.js"
import { joinLinePairs, prefixedMarks } from "./linePairs.js"
import type { Line, OrderedPage } from "./model.js"
import { letterCount } from "./text.js"

/** "1", "1.2", "4.3.1.", "A.1": a number alone, nothing after it. */
const numberOnly = /^(?:\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+)\.?$/
/** A tab after the number is at most this many font sizes wide. */
const maxTab = 4

const isBold = (line: Line): boolean => allBold(line.text, line.marks ?? [])

/** Whether `title` is the heading `number` stands before, on its baseline. */
const numbers = (number: Line, title: Line, body: number): boolean => {
  const size = Math.max(number.size, title.size)
  const gap = title.x0 - number.x1
  return numberOnly.test(number.text.trim()) && !number.rtl && !title.rtl &&
    Math.abs(number.y - title.y) <= 0.3 * size && Math.abs(number.size - title.size) <= 0.5 &&
    gap > 0 && gap < maxTab * size && letterCount(title.text) >= 2 && !/^[.·…]/.test(title.text) &&
    (isHeadingCandidate(title, body) || (isBold(number) && isBold(title)))
}

const joined = (number: Line, title: Line): Line => {
  const lead = number.text.trim()
  const marks = prefixedMarks(number, title)
  // A bold number before a bold title: one bold stretch, as the title's own number would be.
  const merged = marks.length === 2 && marks[0]!.style === marks[1]!.style
    ? [{ start: 0, end: marks[1]!.end, style: marks[0]!.style }]
    : marks
  return {
    ...title,
    text: `${lead} ${title.text}`,
    x0: number.x0,
    ...(merged.length > 0 ? { marks: merged } : { marks: undefined }),
    charWidth: undefined
  }
}

/** A page with each section number set apart from its heading joined back to it. */
export const joinSectionNumbers = (page: OrderedPage, body: number): OrderedPage =>
  joinLinePairs(page, (number, title) => numbers(number, title, body), joined)
