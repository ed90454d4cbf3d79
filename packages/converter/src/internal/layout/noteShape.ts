/** What a note's lines must look like to be one: words, not a formula's raised pieces. */
import type { Note } from "./footnotes.js"
import type { Line } from "./model.js"
import { Style } from "./model.js"

/** Whether a note's text holds two letters or figures at least: a lone "t" or "2 +" is a formula's piece, not a note. */
export const hasWords = (note: Note): boolean => {
  let count = 0
  for (const [i, line] of note.lines.entries()) {
    count += (i === 0 ? line.text.slice(note.cut) : line.text).match(/[\p{L}\p{N}]/gu)?.length ?? 0
    if (count >= 2) return true
  }
  return false
}

/** Whether a line starts with a label of its own (a note's text set in bold starts with no label). */
export const startsLabelled = (line: Line): boolean => {
  const first = line.marks?.[0]
  return first !== undefined && first.start === 0 && first.style === Style.footnote
}
