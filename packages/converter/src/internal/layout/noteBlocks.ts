/**
 * A page's foot notes as footnote blocks, and each footnote moved to just after the block that
 * refers to it, so that nothing stands between a page's last paragraph and the next page's first.
 */
import type * as Document from "../../Document.js"
import { markedTexts, pairNotes } from "../footnotes.js"
import type { Note } from "./footnotes.js"
import type { Hyphenation } from "./hyphens.js"
import type { Rich } from "./inline.js"
import { joinRich, richLine, shiftMarks, trimRich } from "./inline.js"
import type { Mark } from "./model.js"
import { Style } from "./model.js"

/** A note's text: its lines joined, its label dropped. */
const noteRich = (note: Note, hyphenation: Hyphenation | undefined): Rich => {
  let rich: Rich | undefined
  for (const line of note.lines) {
    let next = richLine(line)
    if (rich === undefined && note.cut > 0) {
      const text = line.text.slice(note.cut)
      next = { text, marks: shiftMarks(next.marks, -note.cut, text.length) }
    }
    rich = rich === undefined ? next : joinRich(rich, next, false, hyphenation)
  }
  const marks = (rich?.marks ?? []).filter((mark: Mark) => mark.style !== Style.footnote)
  return trimRich({ text: rich?.text ?? "", marks })
}

/** A page's notes as footnote blocks; the first goes on with `open` (the page before's last) when it has no label. */
export const noteBlocks = (
  notes: ReadonlyArray<Note>,
  open: Document.Footnote | undefined,
  hyphenation: Hyphenation | undefined
): { readonly replaced: Document.Footnote | undefined; readonly blocks: Array<Document.Footnote> } => {
  let replaced: Document.Footnote | undefined
  const blocks: Array<Document.Footnote> = []
  for (const note of notes) {
    const rich = noteRich(note, hyphenation)
    const marks = rich.marks.length > 0 ? { marks: rich.marks } : {}
    if (note.label === undefined && open !== undefined && blocks.length === 0) {
      const joined = trimRich(joinRich({ text: open.text, marks: open.marks ?? [] }, rich, false, hyphenation))
      replaced = { ...open, text: joined.text, ...(joined.marks.length > 0 ? { marks: joined.marks } : {}) }
      continue
    }
    blocks.push({ _tag: "Footnote", label: note.label ?? "", text: rich.text, ...marks })
  }
  return { replaced, blocks }
}

/**
 * Each footnote placed right after the block holding the reference it pairs with (as `render`
 * pairs them), after the footnotes already there; a footnote without a reference stays where it is.
 */
export const placeNotes = (blocks: ReadonlyArray<Document.Block>): Array<Document.Block> => {
  if (!blocks.some((block) => block._tag === "Footnote")) return [...blocks]
  const ids = pairNotes(blocks)
  const holder = new Map<string, number>()
  blocks.forEach((block, index) => {
    if (block._tag === "Footnote") return
    for (const { marks } of markedTexts(block)) {
      for (const mark of marks) {
        const id = ids.references.get(mark)
        if (id !== undefined) holder.set(id, index)
      }
    }
  })
  const moved = new Map<number, Array<Document.Block>>()
  const stays = blocks.map((block) => {
    const index = block._tag === "Footnote" ? holder.get(ids.notes.get(block) ?? "") : undefined
    if (index === undefined) return true
    moved.set(index, [...(moved.get(index) ?? []), block])
    return false
  })
  return blocks.flatMap((block, index) => stays[index] ? [block, ...(moved.get(index) ?? [])] : [])
}
