/** Listings set in text faces (CWEB's bold keywords, italic names, roman operators) made code lines. */
import { isBlockStatement, isListingDirective, listingLine } from "./cSource.js"
import type { Line, PageItem } from "./model.js"
import { Style } from "./model.js"
import { isPromptLine } from "./promptLines.js"
import { endsSentence } from "./text.js"

/** Baselines further apart than this many font sizes are not one listing's. */
const maxPitch = 1.8
/** Lines that do not read as C a listing may hold in a row, between two that do. */
const maxBetween = 4
/** Lines that read as C a run needs (one more than a lone directive or an indented statement). */
const minCode = 2
/** How far (font sizes) a comment may stand right of its statement. */
const maxCommentGap = 6
/** An average character of a text face, in font sizes: what a code line's indentation is counted in. */
const charWidth = 0.5

type Kind = "code" | "comment" | "other"

interface Entry {
  readonly line: Line
  readonly kind: Kind
  readonly index: number
  readonly comment?: { readonly line: Line; readonly index: number } | undefined
}

/** Whether a line starts in the code face: a fixed-pitch line does, a text-face listing's never. */
export const startsInCode = (line: Line): boolean => {
  const first = line.marks?.[0]
  return first !== undefined && first.start === 0 && (first.style & Style.code) !== 0
}

const besideComment = (line: Line, next: Line | undefined): next is Line =>
  next !== undefined && next.charWidth === undefined && Math.abs(next.y - line.y) <= 0.5 * line.size &&
  next.x0 > line.x1 && next.x0 - line.x1 <= maxCommentGap * line.size && listingLine(next.text) === "comment"

/** The page's text-face lines with a comment beside each joined to it, in runs of close baselines. */
const runs = (items: ReadonlyArray<PageItem>): Array<Array<Entry>> => {
  const out: Array<Array<Entry>> = []
  let run: Array<Entry> = []
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!
    if (item._tag !== "Line" || item.line.charWidth !== undefined || startsInCode(item.line)) {
      if (run.length > 0) out.push(run)
      run = []
      continue
    }
    const line = item.line
    const next = items[i + 1]
    const comment = next?._tag === "Line" && besideComment(line, next.line)
      ? { line: next.line, index: i + 1 }
      : undefined
    const last = run[run.length - 1]?.line
    const dy = last === undefined ? 0 : line.y - last.y
    if (last !== undefined && (dy <= 0.3 * line.size || dy > maxPitch * line.size || last.size !== line.size)) {
      out.push(run)
      run = []
    }
    run.push({ line, kind: listingLine(line.text) ?? "other", comment, index: i })
    if (comment !== undefined) i++
  }
  if (run.length > 0) out.push(run)
  return out
}

/**
 * A lone line that is a listing by itself: a directive, a command at a prompt or a variable set that a
 * colon announces or that is set in past the line above, or a function on one line indented past its neighbours.
 */
const alone = (entry: Entry, before: Entry | undefined, after: Entry | undefined): boolean =>
  isListingDirective(entry.line.text) ||
  (isPromptLine(entry.line.text) &&
    (before === undefined || before.line.text.trimEnd().endsWith(":") ||
      entry.line.x0 > before.line.x0 + 0.5 * entry.line.size)) ||
  (isBlockStatement(entry.line.text) &&
    [before, after].every((other) => other === undefined || entry.line.x0 > other.line.x0 + 0.5 * entry.line.size))

/** The stretches of a run that are listings: from a C line to a C line, over a few indented lines between. */
const listings = (run: ReadonlyArray<Entry>): Array<ReadonlyArray<Entry>> => {
  const found: Array<ReadonlyArray<Entry>> = []
  let start = -1
  let end = -1
  let between = 0
  const close = () => {
    if (start < 0) return
    const stretch = run.slice(start, end + 1)
    const code = stretch.filter((entry) => entry.kind === "code").length
    const lone = stretch.length === 1 && alone(stretch[0]!, run[start - 1], run[end + 1])
    if ((code >= minCode && code * 2 >= stretch.length) || lone) found.push(stretch)
    start = -1
  }
  for (let i = 0; i < run.length; i++) {
    const entry = run[i]!
    if (entry.kind !== "other") {
      if (start < 0) start = i
      end = i
      between = 0
      continue
    }
    if (start < 0) continue
    const left = Math.min(...run.slice(start, end + 1).map((other) => other.line.x0))
    const indented = entry.line.x0 >= left - 0.5 * entry.line.size
    if (!indented || endsSentence(entry.line.text) || ++between > maxBetween) {
      close()
      between = 0
    }
  }
  close()
  return found
}

/** A listing's line: its comment joined at its distance, counted in average characters. */
const codeLine = (entry: Entry): Line => {
  const width = charWidth * entry.line.size
  const comment = entry.comment?.line
  if (comment === undefined) return { ...entry.line, charWidth: width }
  const gap = " ".repeat(Math.max(2, Math.round((comment.x0 - entry.line.x1) / width)))
  const offset = entry.line.text.length + gap.length
  const marks = [
    ...(entry.line.marks ?? []),
    ...(comment.marks ?? []).map((mark) => ({ ...mark, start: mark.start + offset, end: mark.end + offset }))
  ]
  return {
    ...entry.line,
    text: entry.line.text + gap + comment.text,
    x1: comment.x1,
    marks: marks.length > 0 ? marks : undefined,
    charWidth: width
  }
}

/** The page's items with its text-face listings' lines made code lines (the comments beside them joined). */
export const textFaceListings = (items: ReadonlyArray<PageItem>): ReadonlyArray<PageItem> => {
  const replaced = new Map<number, Line | undefined>()
  for (const run of runs(items)) {
    for (const listing of listings(run)) {
      for (const entry of listing) {
        replaced.set(entry.index, codeLine(entry))
        if (entry.comment !== undefined) replaced.set(entry.comment.index, undefined)
      }
    }
  }
  if (replaced.size === 0) return items
  return items.flatMap((item, i) => {
    if (!replaced.has(i)) return [item]
    const line = replaced.get(i)
    return line === undefined ? [] : [{ _tag: "Line" as const, line }]
  })
}
