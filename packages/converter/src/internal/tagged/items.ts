/** Lists of a tagged page: items, their labels, numbering from the list's attribute or its first label. */
import type * as Document from "../../Document.js"
import type { Hyphenation } from "../layout/hyphens.js"
import type { Rich } from "../layout/inline.js"
import { isLetterLabel } from "../layout/labels.js"
import { listMarker } from "../layout/lists.js"
import type { Line, TextItem } from "../layout/model.js"
import { richOf } from "./content.js"
import type { Made, TagNode, Unit } from "./model.js"
import { dropStart } from "./notes.js"
import { isOrderedNumbering } from "./roles.js"

/** A list item: its lines, its label (`Lbl`), its nested lists, and the blocks it ends with. */
export interface Item {
  readonly lines: ReadonlyArray<Line>
  readonly label: string
  readonly lists: Array<Made<Document.List>>
  readonly after: Array<Unit>
}

/** A bullet in a symbol font the text layer maps to a private or symbol character, then a space. */
const symbolBullet = /^[\p{Co}\p{So}]\s+(?=\S)/u

/** What every item of a list may start with, its bullet set as text ("o " in Courier New, "» "). */
const firstToken = /^([^\p{L}\p{N}\s]|o)\s+(?=\S)/u

/** The items' texts and labels; without any `Lbl`, the marker a word processor set in the text is taken out. */
const labelled = (items: ReadonlyArray<Item>, texts: ReadonlyArray<Rich>) => {
  if (items.some((item) => item.label !== "")) return { texts, labels: items.map((item) => item.label) }
  const common = texts.length >= 2 ? firstToken.exec(texts[0]!.text)?.[1] : undefined
  const shared = common !== undefined && texts.every((rich) => firstToken.exec(rich.text)?.[1] === common)
  const marked = texts.map((rich) => {
    const length = listMarker(rich.text)?.length ?? symbolBullet.exec(rich.text)?.[0].length ??
      (shared ? firstToken.exec(rich.text)?.[0].length : undefined)
    return length === undefined
      ? { rich, label: "" }
      : { rich: dropStart(rich, length), label: rich.text.slice(0, length) }
  })
  return { texts: marked.map(({ rich }) => rich), labels: marked.map(({ label }) => label) }
}

/** A list cut after the items at `cuts` (which end with a listing or a table), numbers going on. */
export const listParts = (
  node: TagNode,
  items: ReadonlyArray<Item>,
  cuts: ReadonlyArray<number>
): Array<Made<Document.List>> => {
  let resolved: { hyphenation: Hyphenation | undefined; list: Document.List } | undefined
  const whole = (hyphenation: Hyphenation | undefined): Document.List => {
    if (resolved !== undefined && resolved.hyphenation === hyphenation) return resolved.list
    const { labels, texts } = labelled(items, items.map((item) => richOf(item.lines, hyphenation)))
    const first = listMarker(`${labels[0]!.trim()} x`)
    const ordered = isOrderedNumbering(node.numbering) || (node.numbering === "" && first?.ordered === true)
    const list: Document.List = {
      _tag: "List",
      ordered,
      start: ordered ? first?.ordered === true ? first.number : 1 : 0,
      items: items.map((item, i) => {
        const lists = item.lists.map((make) => make(hyphenation))
        const rich = texts[i]!
        const label = labels[i]!.trim()
        return {
          ...(ordered && isLetterLabel(label) ? { label } : {}),
          text: rich.text,
          ...(rich.marks.length > 0 ? { marks: rich.marks } : {}),
          ...(lists.length > 0 ? { lists } : {})
        }
      })
    }
    resolved = { hyphenation, list }
    return list
  }
  return cuts.map((end, i) => (hyphenation) => {
    const list = whole(hyphenation)
    const from = i === 0 ? 0 : cuts[i - 1]!
    return { ...list, start: list.ordered ? list.start + from : 0, items: list.items.slice(from, end) }
  })
}

/** Lines inside an item that are a listing: all in a fixed-pitch face, below the item's text. */
export const isListing = (lines: ReadonlyArray<Line>, last: TextItem | undefined): boolean =>
  lines.length > 0 && last !== undefined && lines.every((line) => line.charWidth !== undefined) &&
  lines[0]!.y > last.y + 0.5 * last.size
