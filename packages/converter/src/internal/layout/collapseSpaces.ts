/** A line's text with its runs of spaces collapsed, its marks moved along. */
import type { Mark } from "./model.js"

/**
 * Runs of spaces collapsed (all of them in prose, only at the ends in a code line, where spaces
 * are indentation and alignment), with the marks moved along.
 */
export const collapseSpaces = (
  text: string,
  marks: ReadonlyArray<Mark>,
  code: boolean
): { text: string; marks: Array<Mark> } => {
  // Most lines have no marks: the text alone, without an offset map.
  if (marks.length === 0) {
    return { text: code || !text.includes("  ") ? text.trim() : text.replace(/ {2,}/g, " ").trim(), marks: [] }
  }
  const map = new Int32Array(text.length + 1)
  // The text kept, appended a stretch at a time (between skipped spaces).
  let out = ""
  let length = 0
  let lastSpace = false
  let from = 0
  for (let i = 0; i < text.length; i++) {
    map[i] = length
    const space = text.charCodeAt(i) === 32
    if (space && (length === 0 || (!code && lastSpace))) {
      out += text.slice(from, i)
      from = i + 1
      continue
    }
    length++
    lastSpace = space
  }
  out += text.slice(from)
  map[text.length] = length
  const trimmed = out.trimEnd()
  const moved = marks.map((mark) => ({
    start: Math.min(map[mark.start]!, trimmed.length),
    end: Math.min(map[mark.end]!, trimmed.length),
    style: mark.style
  })).filter((mark) => mark.end > mark.start)
  return { text: trimmed, marks: moved }
}
