/** Lists: a marker starts an item, nesting follows the markers' indentation, wrapped lines stay in their item. */
import type * as Document from "../../Document.js"
import type { Hyphenation } from "./hyphens.js"
import type { Rich } from "./inline.js"
import { joinRich, richLine, shiftMarks, trimRich } from "./inline.js"
import type { ListLabel } from "./labels.js"
import type { Line, Mark } from "./model.js"
import { Style } from "./model.js"
import { bulletCharacters, endsSentence } from "./text.js"

export { labelRuns } from "./labels.js"
export type { ListLabel } from "./labels.js"

const bulletMarker = new RegExp(`^([${bulletCharacters}])\\s+(?=\\S)`, "u")
/** A bullet glyph then text: a dash or an asterisk may start a title ("- Part II -"), a glyph does not. */
const glyphBullet = new RegExp(`^[${bulletCharacters.replace(/[*\u2013\u2014-]/gu, "")}]\\s+(?=\\S)`, "u")

/** Whether a line starts with a bullet glyph followed by text: an item, whatever its size. */
export const bulleted = (line: Line): boolean => glyphBullet.test(line.text)

const orderedMarker = /^(\(?(\d{1,3}|[a-z])[.)])\s+(?=\S)/u

export interface ListMarker {
  readonly ordered: boolean
  readonly number: number
  readonly rest: string
  readonly length: number
  /** A lettered or roman label as printed ("(b)", "iv."): kept, Markdown and EPUB number only in digits. */
  readonly label?: string | undefined
}

/** Word's second-level bullet: an "o" in Courier New, its code mark ending with it. */
const letterBullet = (text: string, marks: ReadonlyArray<Mark> | undefined): RegExpExecArray | null => {
  const first = marks?.[0]
  return first !== undefined && first.start === 0 && first.end === 1 && (first.style & Style.code) !== 0
    ? /^o\s+(?=\S)/.exec(text)
    : null
}

/** A list marker at the start of a line: bullets always, numbers "1." "2)" "(a)", a label of a run (`labelRuns`). */
export const listMarker = (text: string, marks?: ReadonlyArray<Mark>, run?: ListLabel): ListMarker | undefined => {
  if (run !== undefined) {
    const length = run.text.length + (/^\s*/u.exec(text.slice(run.text.length))?.[0].length ?? 0)
    return { ordered: true, number: run.number, rest: text.slice(length), length, label: run.text }
  }
  const bullet = bulletMarker.exec(text) ?? letterBullet(text, marks)
  if (bullet !== null) {
    return { ordered: false, number: 0, rest: text.slice(bullet[0].length), length: bullet[0].length }
  }
  const ordered = orderedMarker.exec(text)
  if (ordered !== null) {
    const label = ordered[2]!
    const digits = /^\d+$/.test(label)
    const number = digits ? Number(label) : label.charCodeAt(0) - 96
    const length = ordered[0].length
    return { ordered: true, number, rest: text.slice(length), length, ...(digits ? {} : { label: ordered[1] }) }
  }
  return undefined
}

/** A paragraph or listing an item holds after its own text. */
type ItemBlock = { readonly _tag: "Paragraph"; rich: Rich } | Document.Code

interface OpenItem {
  readonly label: string | undefined
  rich: Rich
  readonly blocks: Array<ItemBlock>
  readonly lists: Array<OpenList>
  /** What goes on at the item's own indent after its nested lists. */
  readonly after: Array<ItemBlock>
}

const openItem = (rich: Rich, label?: string): OpenItem => ({ label, rich, blocks: [], lists: [], after: [] })

/** Where the item's next paragraph or listing goes: after its nested lists once it has some. */
const tail = (item: OpenItem): Array<ItemBlock> => item.lists.length > 0 ? item.after : item.blocks

const itemBlock = (block: ItemBlock): Document.Paragraph | Document.Code => {
  if (block._tag === "Code") return block
  const rich = trimRich(block.rich)
  return { _tag: "Paragraph", text: rich.text, ...(rich.marks.length > 0 ? { marks: rich.marks } : {}) }
}

/** The text an item's next line would go on from: its last paragraph's, or its own. */
const lastText = (item: OpenItem): string | undefined => {
  const blocks = tail(item)
  const last = blocks[blocks.length - 1]
  if (last === undefined) return item.lists.length > 0 ? undefined : item.rich.text
  return last._tag === "Paragraph" ? last.rich.text : undefined
}

interface OpenList {
  readonly ordered: boolean
  readonly start: number
  readonly items: Array<OpenItem>
  markerX: number
  /** Where its items' wrapped lines start, once one has been seen. */
  textX?: number
}

/** Markers this close (in font sizes) are at one depth: "9." and "10." end where their text starts. */
const sameDepth = 0.7
/** A sentence's last full stop (a colon announces what follows). */
const fullStop = /[.!?]["')\]\u2019\u201D]?\s*$/u
/** A line indented this much past a marker (in font sizes) hangs under its item. */
const hanging = 0.3

const toList = (list: OpenList): Document.List => ({
  _tag: "List",
  ordered: list.ordered,
  start: list.start,
  items: list.items.map((item) => {
    const rich = trimRich(item.rich)
    return {
      ...(item.label !== undefined ? { label: item.label } : {}),
      text: rich.text,
      ...(rich.marks.length > 0 ? { marks: rich.marks } : {}),
      ...(item.blocks.length > 0 ? { blocks: item.blocks.map(itemBlock) } : {}),
      ...(item.lists.length > 0 ? { lists: item.lists.map(toList) } : {}),
      ...(item.after.length > 0 ? { after: item.after.map(itemBlock) } : {})
    }
  })
})

/** Whether a line hangs under `list`'s items: past its marker, and not short of where wrapped lines start. */
const hangsUnder = (list: OpenList, line: Line): boolean =>
  line.x0 > list.markerX + hanging * line.size &&
  (list.textX === undefined || line.x0 >= list.textX - hanging * line.size)

const itemText = (line: Line, marker: ListMarker): Rich => {
  const rich = richLine(line)
  return { text: marker.rest, marks: shiftMarks(rich.marks, -marker.length, marker.rest.length) }
}

/** A list being built, outermost first on `stack`. */
export class ListBuilder {
  private readonly root: OpenList
  private readonly stack: Array<OpenList>

  constructor(line: Line, marker: ListMarker, private readonly hyphenation?: Hyphenation) {
    this.root = { ordered: marker.ordered, start: marker.number, items: [], markerX: line.x0 }
    this.root.items.push(openItem(itemText(line, marker), marker.label))
    this.stack = [this.root]
  }

  get ordered(): boolean {
    return this.root.ordered
  }

  private innermost(): OpenItem {
    const list = this.stack[this.stack.length - 1]!
    return list.items[list.items.length - 1]!
  }

  /** Whether the innermost open item's text ends a sentence (after a listing it does: a new sentence follows). */
  lastEndsSentence(): boolean {
    const text = lastText(this.innermost())
    return text === undefined || endsSentence(text)
  }

  /**
   * Whether a numbered line goes on with the innermost item's sentence ("(q) option" in a wrapped line):
   * set where its wrapped lines go, after words that end no sentence, with a number that neither goes
   * on with an open list at its place nor starts one.
   */
  wraps(line: Line, marker: ListMarker): boolean {
    const list = this.stack[this.stack.length - 1]!
    if (!marker.ordered || marker.number === 1 || list.textX === undefined) return false
    if (Math.abs(line.x0 - list.textX) > hanging * line.size || this.lastEndsSentence()) return false
    return !this.stack.some((open) =>
      open.ordered && Math.abs(line.x0 - open.markerX) <= sameDepth * line.size &&
      marker.number === open.start + open.items.length
    )
  }

  /** Whether a listing's first line belongs to the innermost item: set under its text, which announces it. */
  holds(line: Line): boolean {
    const text = lastText(this.innermost())
    return text !== undefined && !fullStop.test(text) && hangsUnder(this.stack[this.stack.length - 1]!, line)
  }

  /** Gives the innermost item a listing (`holds` its first line). */
  attach(code: Document.Code): void {
    tail(this.innermost()).push(code)
  }

  /** Adds the item a marker line starts at its marker's depth; false when it belongs to no open list. */
  item(line: Line, marker: ListMarker): boolean {
    const tolerance = sameDepth * line.size
    while (this.stack.length > 1 && line.x0 < this.stack[this.stack.length - 1]!.markerX - tolerance) this.stack.pop()
    const list = this.stack[this.stack.length - 1]!
    const item = openItem(itemText(line, marker), marker.label)
    if (Math.abs(line.x0 - list.markerX) <= tolerance) {
      if (list.ordered === marker.ordered) {
        list.items.push(item)
        return true
      }
      if (this.stack.length === 1) return false
      this.stack.pop()
      return this.nest(line, marker, item)
    }
    if (line.x0 > list.markerX) return this.nest(line, marker, item)
    return false
  }

  private nest(line: Line, marker: ListMarker, item: OpenItem): boolean {
    const parent = this.stack[this.stack.length - 1]!
    const list: OpenList = { ordered: marker.ordered, start: marker.number, items: [item], markerX: line.x0 }
    parent.items[parent.items.length - 1]!.lists.push(list)
    this.stack.push(list)
    return true
  }

  /** Joins a line to the item it hangs under, or to the innermost unfinished item just above it. */
  continuation(line: Line, closeBelow: boolean): boolean {
    let depth = this.stack.length - 1
    while (depth >= 0 && !hangsUnder(this.stack[depth]!, line)) depth--
    if (depth < 0) {
      // A line left of the outermost marker is the text after the list, however close below.
      const outside = line.x0 < this.root.markerX - sameDepth * line.size
      if (!closeBelow || this.lastEndsSentence() || outside) return false
      depth = this.stack.length - 1
    }
    this.stack.splice(depth + 1)
    const list = this.stack[depth]!
    if (list.textX === undefined && hangsUnder(list, line)) list.textX = line.x0
    this.join(list.items[list.items.length - 1]!, line, false)
    return true
  }

  private join(item: OpenItem, line: Line, besidePrevious: boolean): void {
    const blocks = tail(item)
    const last = blocks[blocks.length - 1]
    // After a listing or a nested list, a line under the item's text is a paragraph of the item.
    if (last?._tag === "Code" || (last === undefined && item.lists.length > 0)) {
      blocks.push({ _tag: "Paragraph", rich: richLine(line) })
    } else if (last !== undefined) last.rich = joinRich(last.rich, richLine(line), besidePrevious, this.hyphenation)
    else item.rich = joinRich(item.rich, richLine(line), besidePrevious, this.hyphenation)
  }

  /** Moves the open lists `dx` right: the next page's text block starts that much further right. */
  shift(dx: number): void {
    for (const list of this.stack) {
      list.markerX += dx
      if (list.textX !== undefined) list.textX += dx
    }
  }

  /**
   * Whether a page's first line goes on with this list (left open at the page before's end): the next
   * marker of an open list, a first nested item, or a line where an open list's items' text is known to go.
   */
  goesOn(line: Line, marker: ListMarker | undefined): boolean {
    if (marker === undefined) return this.stack.some((list) => list.textX !== undefined && hangsUnder(list, line))
    const tolerance = sameDepth * line.size
    const list = [...this.stack].reverse().find((open) => Math.abs(line.x0 - open.markerX) <= tolerance)
    if (list !== undefined) {
      return list.ordered === marker.ordered && (!list.ordered || marker.number === list.start + list.items.length)
    }
    return line.x0 > this.stack[this.stack.length - 1]!.markerX + tolerance && (!marker.ordered || marker.number === 1)
  }

  /** Joins a piece of the last line (cut from it by a wide space) to the innermost open item. */
  beside(line: Line): void {
    this.join(this.innermost(), line, true)
  }

  build(): Document.List {
    return toList(this.root)
  }
}

/** The innermost last item of a list: where its text last went (itself once text follows its nested lists). */
export const lastItem = (list: Document.List): Document.ListItem => {
  const item = list.items[list.items.length - 1]!
  const inner = item.lists?.[item.lists.length - 1]
  return inner === undefined || (item.after?.length ?? 0) > 0 ? item : lastItem(inner)
}

/** The text after which the innermost last item goes on: its last paragraph's, or its own (none after a listing). */
export const lastItemText = (list: Document.List): string | undefined => {
  const item = lastItem(list)
  const blocks = item.after ?? item.blocks
  const last = blocks?.[blocks.length - 1]
  return last === undefined ? item.text : last._tag === "Paragraph" ? last.text : undefined
}

const withText = <A extends { readonly text: string; readonly marks?: ReadonlyArray<Mark> | undefined }>(
  block: A,
  rich: Rich,
  hyphenation: Hyphenation | undefined
): A => {
  const joined = joinRich({ text: block.text, marks: block.marks ?? [] }, rich, false, hyphenation)
  const { marks: _, ...rest } = block
  return { ...rest, text: joined.text, ...(joined.marks.length > 0 ? { marks: joined.marks } : {}) } as A
}

/** `list` with `rich` joined to the text of its innermost last item (an item going on after a page end). */
export const extendLastItem = (list: Document.List, rich: Rich, hyphenation?: Hyphenation): Document.List => {
  const item = list.items[list.items.length - 1]!
  const inner = item.lists?.[item.lists.length - 1]
  const key = (item.after?.length ?? 0) > 0 ? "after" : "blocks"
  const blocks = item[key] ?? []
  const tail = blocks[blocks.length - 1]
  const extended: Document.ListItem = inner !== undefined && key === "blocks"
    ? { ...item, lists: [...item.lists!.slice(0, -1), extendLastItem(inner, rich, hyphenation)] }
    : tail?._tag === "Paragraph"
    ? { ...item, [key]: [...blocks.slice(0, -1), withText(tail, rich, hyphenation)] }
    : withText(item, rich, hyphenation)
  return { ...list, items: [...list.items.slice(0, -1), extended] }
}
