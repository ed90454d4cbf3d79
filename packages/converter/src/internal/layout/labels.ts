/**
 * Lettered and roman list labels ("(b)", "c)", "iv.", "B.", "II."): a list marker only in a run of
 * consecutive labels at one indent, never alone ("A. Smith wrote", "I. Introduction").
 */
import type { Line } from "./model.js"
import { romanValue } from "./roman.js"

/** A label the marker of an item: its text as printed and its place in its sequence. */
export interface ListLabel {
  readonly text: string
  readonly number: number
}

type Kind = "lower" | "upper" | "lowerRoman" | "upperRoman"

interface Reading {
  readonly kind: Kind
  readonly number: number
}

interface Candidate {
  readonly line: Line
  readonly text: string
  /** The punctuation around the label: labels of one run share it. */
  readonly shape: string
  readonly readings: ReadonlyArray<Reading>
}

const labelSource = String.raw`(?:\(([a-zA-Z]{1,5})\)|([a-zA-Z]{1,5})[.)])`
const labelPattern = new RegExp(`^${labelSource}\\s+(?=\\S)`, "u")
const wholeLabel = new RegExp(`^${labelSource}$`, "u")

/** Whether `text` is a lettered or roman label alone ("a)", "(iv)", "B."). */
export const isLetterLabel = (text: string): boolean => wholeLabel.test(text)

/** What a label's letters may count: a letter's place in the alphabet, a roman number, or both ("i", "v"). */
const readingsOf = (letters: string): Array<Reading> => {
  const lower = letters.toLowerCase()
  const isLower = letters === lower
  if (!isLower && letters !== letters.toUpperCase()) return []
  const readings: Array<Reading> = []
  if (letters.length === 1) readings.push({ kind: isLower ? "lower" : "upper", number: lower.charCodeAt(0) - 96 })
  const roman = romanValue(lower)
  // Lists count i-xxxix; "l", "c", "d" and "m" alone are letters.
  if (roman !== undefined && roman <= 39) readings.push({ kind: isLower ? "lowerRoman" : "upperRoman", number: roman })
  return readings
}

/** The label a line starts with, and what it may count. */
export const labelAt = (text: string): { text: string; shape: string; readings: Array<Reading> } | undefined => {
  const match = labelPattern.exec(text)
  if (match === null) return undefined
  const letters = match[1] ?? match[2]!
  const label = match[0].trimEnd()
  return { text: label, shape: label.replace(letters, "x"), readings: readingsOf(letters) }
}

/** Labels this close (in font sizes) are at one indent: roman labels are often set flush right. */
const sameIndent = 1

/** The readings by which `next` (of the same shape and indent) follows `previous` in one sequence. */
const follows = (previous: Candidate, next: Candidate): Reading | undefined => {
  for (const before of previous.readings) {
    const after = next.readings.find((reading) => reading.kind === before.kind && reading.number === before.number + 1)
    if (after !== undefined) return after
  }
  return undefined
}

/**
 * The lines of a page that start with a lettered or roman label one of a run: the next label of its
 * shape at its indent is its successor (or the one before is its predecessor), with no line left of
 * both between them.
 */
export const labelRuns = (lines: ReadonlyArray<Line>): Map<Line, ListLabel> => {
  const runs = new Map<Line, ListLabel>()
  const candidates: Array<{ candidate: Candidate; index: number }> = []
  lines.forEach((line, index) => {
    const label = labelAt(line.text)
    if (label !== undefined && label.readings.length > 0) candidates.push({ candidate: { line, ...label }, index })
  })
  for (let i = 0; i < candidates.length; i++) {
    const { candidate: previous, index } = candidates[i]!
    const next = candidates.slice(i + 1).find(({ candidate }) =>
      candidate.shape === previous.shape &&
      Math.abs(candidate.line.x0 - previous.line.x0) <= sameIndent * candidate.line.size
    )
    if (next === undefined) continue
    const left = Math.min(previous.line.x0, next.candidate.line.x0) - 0.5 * previous.line.size
    if (lines.slice(index + 1, next.index).some((line) => line.x0 < left)) continue
    const after = follows(previous, next.candidate)
    if (after === undefined) continue
    const before = previous.readings.find((reading) => reading.kind === after.kind)!
    if (!runs.has(previous.line)) runs.set(previous.line, { text: previous.text, number: before.number })
    runs.set(next.candidate.line, { text: next.candidate.text, number: after.number })
  }
  return runs
}
