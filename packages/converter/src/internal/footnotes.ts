/** Footnotes and their references paired once per document, each pair under a unique id for the renderers' links. */
import type * as Document from "../Document.js"
import { Style } from "../Document.js"

/** The id of each paired reference mark and of each footnote (paired or not). */
export interface NoteIds {
  readonly references: ReadonlyMap<Document.Mark, string>
  readonly notes: ReadonlyMap<Document.Footnote, string>
}

interface Marked {
  readonly text: string
  readonly marks: ReadonlyArray<Document.Mark>
}

/** The marked texts of a block (a list's items and nested lists, a table's cells), in order. */
export const markedTexts = (block: Document.Block): Array<Marked> => {
  switch (block._tag) {
    case "Paragraph":
    case "Heading":
    case "Term":
    case "Footnote":
      return block.marks === undefined ? [] : [{ text: block.text, marks: block.marks }]
    case "List":
      return block.items.flatMap((item) => [
        ...(item.marks === undefined ? [] : [{ text: item.text, marks: item.marks }]),
        ...(item.lists ?? []).flatMap(markedTexts)
      ])
    case "Table":
      return (block.marks ?? []).flatMap((row, r) => row.map((marks, i) => ({ text: block.rows[r]?.[i] ?? "", marks })))
    default:
      return []
  }
}

/** An id from a label: its letters and digits, "note" when it has none. */
export const idBase = (label: string): string => label.normalize("NFKD").replace(/[^A-Za-z0-9]/g, "") || "note"

/** Pairs references and footnotes (see `Document.Footnote`); a repeated label's ids get "-2", "-3", ... */
export const pairNotes = (blocks: ReadonlyArray<Document.Block>): NoteIds => {
  const open = new Map<string, Array<Document.Mark>>()
  const references = new Map<Document.Mark, string>()
  const notes = new Map<Document.Footnote, string>()
  const used = new Map<string, number>()
  const nextId = (label: string): string => {
    const base = idBase(label)
    const count = (used.get(base) ?? 0) + 1
    used.set(base, count)
    return count === 1 ? base : `${base}-${count}`
  }
  for (const block of blocks) {
    if (block._tag === "Footnote") {
      const reference = open.get(block.label.trim())?.pop()
      const id = nextId(block.label)
      notes.set(block, id)
      if (reference !== undefined) references.set(reference, id)
    }
    for (const { marks, text } of markedTexts(block)) {
      for (const mark of marks) {
        if ((mark.style & Style.footnote) === 0) continue
        const label = text.slice(mark.start, mark.end).trim()
        const waiting = open.get(label) ?? []
        waiting.push(mark)
        open.set(label, waiting)
      }
    }
  }
  return { references, notes }
}
