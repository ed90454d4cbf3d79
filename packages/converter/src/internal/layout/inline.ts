/** Text with styled stretches (code, bold, italic) whose marks follow it through the joins of lines. */
import type { Hyphenation } from "./hyphens.js"
import type { Line, Mark } from "./model.js"
import { joinParts } from "./text.js"

/** Text and its marks (offsets into `text`). */
export interface Rich {
  readonly text: string
  readonly marks: ReadonlyArray<Mark>
}

export const richLine = (line: Line): Rich => ({ text: line.text, marks: line.marks ?? [] })

/** Whether the last character of `rich` (spaces aside) is in a code mark. */
const endsInCode = (rich: Rich): boolean => {
  const end = rich.text.trimEnd().length
  return rich.marks.some((mark) => (mark.style & 1) !== 0 && mark.start < end && mark.end >= end)
}

/** A code span cut at a hyphen and going on in code on the next line ("Font-" "Name"): joined as a cut word. */
const cutInCode = (left: Rich, right: Rich): boolean => {
  const lead = right.text.length - right.text.trimStart().length
  return /\p{L}-$/u.test(left.text.trimEnd()) && /^\p{L}/u.test(right.text.slice(lead)) &&
    right.marks.some((mark) => (mark.style & 1) !== 0 && mark.start <= lead && mark.end > lead)
}

/** `left` and `right` joined as running text (see `joinParts`); `beside` joins pieces of one baseline with a space. */
export const joinRich = (left: Rich, right: Rich, beside = false, hyphenation?: Hyphenation): Rich => {
  const literal = beside || (endsInCode(left) && !cutInCode(left, right))
  const parts = joinParts(left.text, right.text, literal, hyphenation)
  const marks: Array<Mark> = []
  for (const mark of left.marks) {
    const end = Math.min(mark.end, parts.kept)
    if (end > mark.start) marks.push({ start: mark.start, end, style: mark.style })
  }
  const shift = parts.offset - parts.lead
  for (const mark of right.marks) {
    const start = Math.max(mark.start + shift, parts.offset)
    const end = Math.min(mark.end + shift, parts.text.length)
    if (end <= start) continue
    const last = marks[marks.length - 1]
    if (
      last !== undefined && last.style === mark.style && last.end >= parts.kept && start <= parts.offset
    ) {
      marks[marks.length - 1] = { ...last, end }
    } else {
      marks.push({ start, end, style: mark.style })
    }
  }
  return { text: parts.text, marks }
}

/** Marks moved by `shift` characters and cut to `[0, length)`. */
export const shiftMarks = (marks: ReadonlyArray<Mark>, shift: number, length: number): Array<Mark> =>
  marks.flatMap((mark) => {
    const start = Math.max(0, mark.start + shift)
    const end = Math.min(length, mark.end + shift)
    return end > start ? [{ start, end, style: mark.style }] : []
  })

export const trimRich = (rich: Rich): Rich => {
  const lead = rich.text.length - rich.text.trimStart().length
  const text = rich.text.trim()
  return { text, marks: shiftMarks(rich.marks, -lead, text.length) }
}
