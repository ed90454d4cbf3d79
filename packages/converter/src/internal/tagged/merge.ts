/** Elements cut by a page end, joined again where the tree says they are one (whatever the text looks like at the cut). */
import type * as Document from "../../Document.js"
import type { Rich } from "../layout/inline.js"
import { joinRich } from "../layout/inline.js"

const richOf = (text: string, marks: ReadonlyArray<Document.Mark> | undefined): Rich => ({ text, marks: marks ?? [] })
const withMarks = (rich: Rich) => rich.marks.length > 0 ? { marks: rich.marks } : {}

/** The rest of an item joined to it; its nested lists too when the cut fell inside them (it has no text here). */
const joinItems = (last: Document.ListItem, first: Document.ListItem): Document.ListItem => {
  const rich = joinRich(richOf(last.text, last.marks), richOf(first.text, first.marks))
  const before = last.lists ?? []
  const after = first.lists ?? []
  const cut = first.text === "" && before.length > 0 && after.length > 0
  const lists = cut
    ? [...before.slice(0, -1), joinLists(before[before.length - 1]!, after[0]!), ...after.slice(1)]
    : [...before, ...after]
  return { text: rich.text, ...withMarks(rich), ...(lists.length > 0 ? { lists } : {}) }
}

/** Two parts of a nested list cut by a page end; its first item goes on when it has no text of its own. */
const joinLists = (open: Document.List, next: Document.List): Document.List => {
  const last = open.items[open.items.length - 1]
  const [first, ...rest] = next.items
  const items = last !== undefined && first !== undefined && first.text === ""
    ? [...open.items.slice(0, -1), joinItems(last, first), ...rest]
    : [...open.items, ...next.items]
  return { ...open, items }
}

/** `next`, the rest of `open`'s element, joined to it; undefined when they are not of one kind. */
const join = (open: Document.Block, next: Document.Block, itemGoesOn: boolean): Document.Block | undefined => {
  if (open._tag === "Paragraph" && next._tag === "Paragraph") {
    const rich = joinRich(richOf(open.text, open.marks), richOf(next.text, next.marks))
    return { _tag: "Paragraph", text: rich.text, ...withMarks(rich) }
  }
  if (open._tag === "Heading" && next._tag === "Heading") {
    const rich = joinRich(richOf(open.text, open.marks), richOf(next.text, next.marks))
    return { _tag: "Heading", level: open.level, text: rich.text, ...withMarks(rich) }
  }
  if (open._tag === "Code" && next._tag === "Code") return { _tag: "Code", text: `${open.text}\n${next.text}` }
  if (open._tag === "List" && next._tag === "List") {
    const last = open.items[open.items.length - 1]
    const [first, ...rest] = next.items
    const items = itemGoesOn && last !== undefined && first !== undefined
      ? [...open.items.slice(0, -1), joinItems(last, first), ...rest]
      : [...open.items, ...next.items]
    return { ...open, items }
  }
  if (open._tag === "Table" && next._tag === "Table") {
    // A header row printed again at the top of the page is not a row of the table.
    const repeated = next.rows.length > 1 && open.rows.length > 0 &&
      next.rows[0]!.join("\u0000") === open.rows[0]!.join("\u0000")
    const rows = [...open.rows, ...next.rows.slice(repeated ? 1 : 0)]
    if (open.marks === undefined && next.marks === undefined) return { _tag: "Table", rows }
    const marksOf = (table: Document.Table) => table.marks ?? table.rows.map((row) => row.map(() => []))
    return { _tag: "Table", rows, marks: [...marksOf(open), ...marksOf(next).slice(repeated ? 1 : 0)] }
  }
  return undefined
}

/** A block of a tagged page, and how its element runs over the page ends (see `Unit`). */
export interface Placed {
  readonly block: Document.Block
  readonly continued: boolean
  readonly continues: boolean
  readonly item: boolean
}

/** Appends a page's blocks, joining those begun earlier to their open block; returns those going on. */
export const appendTagged = (
  blocks: Array<Document.Block>,
  placed: ReadonlyArray<Placed>,
  open: ReadonlyArray<number>
): Array<number> => {
  const waiting = [...open]
  const next: Array<number> = []
  for (const { block, continued, continues, item } of placed) {
    let index = continued ? waiting.length - 1 : -1
    while (index >= 0 && blocks[waiting[index]!]!._tag !== block._tag) index--
    const joined = index >= 0 ? join(blocks[waiting[index]!]!, block, item) : undefined
    if (joined !== undefined) {
      const at = waiting.splice(index, 1)[0]!
      blocks[at] = joined
      if (continues) next.push(at)
      continue
    }
    blocks.push(block)
    if (continues) next.push(blocks.length - 1)
  }
  return next
}
