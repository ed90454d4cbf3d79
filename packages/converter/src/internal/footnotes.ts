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

/** A symbol label ("†", "*"): a table's note answers every reference of it in the table, not only the nearest. */
const sharedLabel = /^[*\u2217\u2020\u2021\u00A7\u00B6\u2016]+$/u

/**
 * Pairs references and footnotes (see `Document.Footnote`); a repeated label's ids get "-2", "-3", ...
 * A footnote of a symbol label also takes the other waiting references of it in the same block.
 */
export const pairNotes = (blocks: ReadonlyArray<Document.Block>): NoteIds => {
  const open = new Map<string, Array<{ readonly mark: Document.Mark; readonly block: number }>>()
  const references = new Map<Document.Mark, string>()
  const notes = new Map<Document.Footnote, string>()
  const used = new Map<string, number>()
  const nextId = (label: string): string => {
    const base = idBase(label)
    const count = (used.get(base) ?? 0) + 1
    used.set(base, count)
    return count === 1 ? base : `${base}-${count}`
  }
  blocks.forEach((block, index) => {
    if (block._tag === "Footnote") {
      const label = block.label.trim()
      const waiting = open.get(label) ?? []
      const reference = waiting.pop()
      const id = nextId(block.label)
      notes.set(block, id)
      if (reference !== undefined) {
        references.set(reference.mark, id)
        while (sharedLabel.test(label) && waiting[waiting.length - 1]?.block === reference.block) {
          references.set(waiting.pop()!.mark, id)
        }
      }
    }
    for (const { marks, text } of markedTexts(block)) {
      for (const mark of marks) {
        if ((mark.style & Style.footnote) === 0) continue
        const label = text.slice(mark.start, mark.end).trim()
        const waiting = open.get(label) ?? []
        waiting.push({ mark, block: index })
        open.set(label, waiting)
      }
    }
  })
  return { references, notes }
}
