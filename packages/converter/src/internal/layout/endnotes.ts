/**
 * Notes set as a list in the text (endnotes): entries set alike, each label alone beside its text or
 * leading it ("6Archaic"), every label answering a raised reference met before and not yet answered.
 */
import type { Note } from "./footnotes.js"
import { noteMarker } from "./footnotes.js"
import { noteLabel } from "./lines.js"
import type { Line, OrderedPage, PageItem } from "./model.js"
import { Style } from "./model.js"

/** Fewer entries than this are not a list of notes, unless each label stands alone beside its text. */
const minEntries = 2
/** An entry's next line stands at most this many of its sizes below the one before. */
const maxLeading = 2.2

/** The labels of references not answered yet, and how many of each. */
export type OpenReferences = Map<string, number>

/** An entry at `index`: its label, its lines (the label's characters first), and the index of the item after it. */
interface Entry {
  readonly start: Line
  readonly label: string
  readonly lines: Array<Line>
  readonly cut: number
  readonly alone: boolean
  next: number
}

const lineAt = (items: ReadonlyArray<PageItem>, index: number): Line | undefined => {
  const item = items[index]
  return item?._tag === "Line" ? item.line : undefined
}

/** An entry's first line: a label alone with its text beside it on the baseline, or a label and text. */
const entryAt = (items: ReadonlyArray<PageItem>, index: number, body: number): Entry | undefined => {
  const line = lineAt(items, index)
  if (line === undefined || line.size > body + 0.5 || line.charWidth !== undefined) return undefined
  const beside = lineAt(items, index + 1)
  if (
    noteLabel.test(line.text) && beside !== undefined && Math.abs(beside.y - line.y) <= 0.3 * line.size &&
    beside.x0 > line.x1 && beside.size <= body + 0.5
  ) {
    return { start: line, label: line.text, lines: [beside], cut: 0, alone: true, next: index + 2 }
  }
  const marker = noteMarker(line)
  if (marker === undefined || marker.dotted === true) return undefined
  return { start: line, label: marker.label, lines: [line], cut: marker.cut, alone: false, next: index + 1 }
}

/** Dot leaders then a page number: an entry of a list of contents, figures or tables, never a note. */
const contentsEnd = /(?:\.\s*){3,}(?:\p{N}+|[ivxlc]+)$/iu
const isContentsEntry = (entry: Entry): boolean => contentsEnd.test(entry.lines[entry.lines.length - 1]!.text.trim())

/** Whether two entries are set alike: their labels at one margin, in one size. */
const alike = (a: Entry, b: Entry): boolean =>
  Math.abs(a.start.x0 - b.start.x0) <= 1 && Math.abs(a.start.size - b.start.size) <= 0.5

/** The entries of a list of notes starting at `start`, its continuation lines included. */
const entriesFrom = (items: ReadonlyArray<PageItem>, start: number, body: number): Array<Entry> => {
  const entries: Array<Entry> = []
  let index = start
  for (let entry = entryAt(items, index, body); entry !== undefined; entry = entryAt(items, index, body)) {
    const previous = entries[entries.length - 1]
    if (previous !== undefined && !alike(previous, entry)) break
    entries.push(entry)
    index = entry.next
    const text = entry.lines[0]!
    for (let line = lineAt(items, index); line !== undefined; line = lineAt(items, index)) {
      const last = entry.lines[entry.lines.length - 1]!
      const close = line.y > last.y && line.y - last.y <= maxLeading * line.size && line.size <= body + 0.5
      if (!close || line.charWidth !== undefined || line.x0 < text.x0 - 2 * body || entryAt(items, index, body)) break
      entry.lines.push(line)
      index++
    }
    entry.next = index
  }
  return entries
}

/** The raised labels of a line or of a table's cells. */
const referenceLabels = (item: PageItem): Array<string> => {
  const texts = item._tag === "Line"
    ? [{ text: item.line.text, marks: item.line.marks ?? [] }]
    : item._tag === "Table"
    ? (item.marks ?? []).flatMap((row, r) => row.map((marks, c) => ({ text: item.rows[r]?.[c] ?? "", marks })))
    : []
  return texts.flatMap(({ marks, text }) =>
    marks.flatMap((mark) =>
      mark.style === Style.footnote && mark.start > 0 ? [text.slice(mark.start, mark.end).trim()] : []
    )
  )
}

/**
 * The page without its lists of notes, and their notes; `open`, the references not yet answered, is
 * updated. The page's own foot notes (`answered`) answer its references first.
 */
export const endNotes = (
  page: OrderedPage,
  body: number,
  open: OpenReferences,
  answered: ReadonlyArray<Note> = []
): { readonly page: OrderedPage; readonly notes: Array<Note> } => {
  for (const note of answered) {
    if (note.label !== undefined) open.set(note.label, (open.get(note.label) ?? 0) - 1)
  }
  const result = listNotes(page, body, open)
  // A foot note whose reference this page did not show answers none later.
  for (const [label, count] of open) if (count < 0) open.set(label, 0)
  return result
}

const listNotes = (
  page: OrderedPage,
  body: number,
  open: OpenReferences
): { readonly page: OrderedPage; readonly notes: Array<Note> } => {
  const items = page.items
  const notes: Array<Note> = []
  const taken = new Set<number>()
  for (let i = 0; i < items.length; i++) {
    const entries = entriesFrom(items, i, body)
    const answered = (entries.length >= minEntries || entries[0]?.alone === true) &&
      entries.every((entry) => (open.get(entry.label) ?? 0) > 0 && !isContentsEntry(entry))
    if (!answered) {
      for (const label of referenceLabels(items[i]!)) open.set(label, (open.get(label) ?? 0) + 1)
      continue
    }
    for (const entry of entries) {
      open.set(entry.label, open.get(entry.label)! - 1)
      notes.push({ label: entry.label, lines: entry.lines, cut: entry.cut })
    }
    const end = entries[entries.length - 1]!.next
    for (let k = i; k < end; k++) taken.add(k)
    i = end - 1
  }
  return notes.length === 0
    ? { page, notes }
    : { page: { ...page, items: items.filter((_, i) => !taken.has(i)) }, notes }
}
