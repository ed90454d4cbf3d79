/**
 * A tagged page's structure tree -> the document's units in the tree's order: the blocks the tree makes
 * whole, and each other text element's lines for the layout's rules. Artifacts are left out.
 */
import type * as Document from "../../Document.js"
import type { Line, PlacedFigure, TextItem } from "../layout/model.js"
import type { Piece } from "./content.js"
import { contentLines, richOf } from "./content.js"
import { hasBlocks, replaced, roleStyle, runsByMcid } from "./elements.js"
import { headingItems, pageBodySize } from "./headingLists.js"
import type { Item } from "./items.js"
import { isListing, listParts } from "./items.js"
import type { Made, TaggedContent, TagKid, TagNode, Unit } from "./model.js"
import { artifact, continuesAfter, continuesBefore, figureMcid } from "./model.js"
import { footnoteOf, noteLabel, noteLabels } from "./notes.js"
import * as Roles from "./roles.js"
import { tableOf } from "./tables.js"
import { headingOf, jumpsBack, paragraphOf } from "./textBlocks.js"

export { runsByMcid } from "./elements.js"

/** What a page's tree gave, and what the soundness rule needs to know of it. */
export interface TreeUnits {
  readonly units: Array<Unit>
  /** Blocks of text whose lines go back up within their column (a reading order geometry refutes). */
  readonly refuted: number
  /** Blocks of text built (the denominator of `refuted`). */
  readonly texts: number
}

type Runs = ReadonlyMap<number, ReadonlyArray<TextItem>>

class Builder {
  units: Array<Unit> = []
  /** Lines of the block being built, kept with it for the document's measures (sizes, leading). */
  private measured: Array<Line> = []
  refuted = 0
  texts = 0
  /** Figures placed where their element is; the others go at the page's end. */
  readonly placed = new Set<PlacedFigure>()
  private readonly taken = new Set<number>()
  /** The size of the page's running text, once a list asks for it. */
  private body: number | undefined

  constructor(
    private readonly runs: Runs,
    private readonly figures: ReadonlyMap<number, ReadonlyArray<PlacedFigure>>,
    /** The labels of the page's notes: a superscript run with one of them is a reference. */
    private readonly labels: ReadonlySet<string>
  ) {}

  /** An MCID's runs the first time the tree names it: a broken tree naming it twice does not repeat its text. */
  private take(mcid: number): ReadonlyArray<TextItem> {
    if (this.taken.has(mcid)) return []
    this.taken.add(mcid)
    return this.runs.get(mcid) ?? []
  }

  /** The runs of an element's content, in the tree's order, styled by inline roles; notes set aside. */
  pieces(node: TagNode, style: number, out: Array<Piece>, notes: Array<TagNode>): Array<Piece> {
    if (node.actualText !== "") {
      const runs = this.pieces({ ...node, actualText: "" }, style, [], [])
      const last = out[out.length - 1]
      // A soft hyphen stands for the hyphen the line ends with: the word it ends is cut there.
      if (node.actualText === "\u00AD" && last !== undefined) {
        out[out.length - 1] = { ...last, item: { ...last.item, text: `${last.item.text}\u00AD` } }
      } else if (runs.length > 0) {
        out.push({ item: replaced(runs.map((piece) => piece.item), node.actualText), reference: false })
      }
      return out
    }
    for (const kid of node.kids) {
      if (typeof kid === "number") {
        for (const item of this.take(kid)) {
          out.push({ item: style === 0 ? item : { ...item, style: item.style | style }, reference: false })
        }
        continue
      }
      if (kid.role === "Artifact") continue
      if (Roles.isNote(kid.role)) {
        notes.push(kid)
        continue
      }
      const before = out.length
      this.pieces(kid, style | roleStyle(kid.role), out, notes)
      if (Roles.isFigure(kid.role)) this.placeFigures(kid)
      if (this.isReference(kid, out, before)) {
        for (let i = before; i < out.length; i++) out[i] = { item: out[i]!.item, reference: true }
      }
    }
    return out
  }

  /** An inline element whose whole text is a note's label, set smaller or raised: the note's reference. */
  private isReference(kid: TagNode, out: ReadonlyArray<Piece>, from: number): boolean {
    if (from >= out.length || this.labels.size === 0 || !/^(?:Lbl|Link|Reference|Span)$/.test(kid.role)) return false
    const label = out.slice(from).map((piece) => piece.item.text).join("").trim()
    if (!this.labels.has(label)) return false
    const first = out[from]!.item
    const before = out[from - 1]?.item
    return before === undefined || first.size < 0.9 * before.size || first.y < before.y - 0.15 * before.size
  }

  /** The lines of an element's content (its notes set aside in `notes`). */
  private lines(node: TagNode, notes: Array<TagNode>, style = roleStyle(node.role)): Array<Line> {
    return contentLines(this.pieces(node, style, [], notes))
  }

  /** An element of text: a heading (its level said), or lines for the layout's rules. */
  text(node: TagNode, heading: number | undefined, entry = false): void {
    const notes: Array<TagNode> = []
    const lines = this.lines(node, notes)
    this.checkOrder(lines)
    if (lines.length > 0) {
      if (heading !== undefined) {
        const made: Made<Document.Block | undefined> = (hyphenation) =>
          headingOf(heading, richOf(this.measure(lines), hyphenation))
        this.block(made, node, undefined, false, { level: heading, line: lines[0]! })
      } else if (entry) {
        // A contents entry is no heading, whatever its section number and face (its page number or none).
        this.block((hyphenation) => paragraphOf(richOf(this.measure(lines), hyphenation)), node)
      } else {this.units.push({
          _tag: "Lines",
          lines,
          continued: continuesBefore(node),
          continues: continuesAfter(node)
        })}
    }
    for (const note of notes) this.note(note)
  }

  /** A block the tree made; `node`'s kids on other pages tell whether it runs over a page end. */
  private block(
    make: Made<Document.Block | undefined>,
    node?: TagNode,
    ends = { first: true, last: true },
    item = false,
    heading?: { readonly level: number; readonly line: Line }
  ) {
    const continued = ends.first && node !== undefined && continuesBefore(node)
    const continues = ends.last && node !== undefined && continuesAfter(node)
    this.units.push({ _tag: "Block", make, lines: this.measured, heading, item, continued, continues })
    this.measured = []
  }

  /** Lines that go into a block the tree made: measured with the document's. */
  private measure<A extends ReadonlyArray<Line>>(lines: A): A {
    this.measured.push(...lines)
    return lines
  }

  private checkOrder(lines: ReadonlyArray<Line>): void {
    this.texts++
    if (lines.some((line, i) => i > 0 && jumpsBack(lines[i - 1]!, line))) this.refuted++
  }

  /** A footnote: its label (an `Lbl`, or a first run that is only a mark) and its text. */
  note(node: TagNode): void {
    const lines = this.measure(this.lines(node, [], 0))
    const label = noteLabel(node, this.runs)
    this.block((hyphenation) => footnoteOf(label, richOf(lines, hyphenation)))
  }

  /** The images whose marked content is in `node`, at this point, with its alternative text. */
  placeFigures(node: TagNode): void {
    for (const kid of node.kids) {
      if (typeof kid !== "number") continue
      for (const placed of this.figures.get(kid) ?? []) {
        if (this.placed.has(placed)) continue
        this.placed.add(placed)
        const alt = node.alt.trim()
        const figure = alt === "" ? placed.figure : { ...placed.figure, alt }
        this.block(() => figure)
      }
    }
  }

  /** A list; a listing or table in an item (Markdown cannot nest them) ends it, and the list goes on after. */
  list(node: TagNode): void {
    this.body ??= pageBodySize(this.runs)
    const headings = headingItems(node, this.runs, this.body)
    if (headings !== undefined) {
      for (const part of headings) {
        if ("list" in part) this.list(part.list)
        else {
          this.text(part.title, undefined)
          for (const kid of part.rest) this.walk(kid, 0)
        }
      }
      return
    }
    const items = this.listItems(node)
    if (items.length === 0) return
    const cuts = items.flatMap((item, i) => item.after.length > 0 || i === items.length - 1 ? [i + 1] : [])
    const first = node.kids.find((kid): kid is TagNode => typeof kid !== "number" && kid.role === "LI")
    listParts(node, items, cuts).forEach((part, i) => {
      const ends = { first: i === 0, last: i === cuts.length - 1 }
      this.block(part, node, ends, i === 0 && first !== undefined && continuesBefore(first))
      this.units.push(...items[cuts[i]! - 1]!.after)
    })
  }

  /** The items of a list (a list nested without its item goes into the item before it). */
  private listItems(node: TagNode): Array<Item> {
    const items: Array<Item> = []
    const notes: Array<TagNode> = []
    for (const kid of node.kids) {
      if (typeof kid === "number" || kid.role === "Artifact") continue
      if (kid.role !== "L") {
        items.push(this.itemOf(kid, notes))
        continue
      }
      const nested = this.nested(kid)
      if (nested === undefined) continue
      const last = items[items.length - 1]
      if (last !== undefined) {
        last.lists.push(nested.list)
        last.after.push(...nested.after)
      } else items.push({ lines: [], label: "", lists: [nested.list], after: nested.after })
    }
    for (const note of notes) this.note(note)
    return items
  }

  /** A list inside an item, and what escapes its items. */
  private nested(node: TagNode): { list: Made<Document.List>; after: Array<Unit> } | undefined {
    const items = this.listItems(node)
    if (items.length === 0) return undefined
    return { list: listParts(node, items, [items.length])[0]!, after: items.flatMap((item) => item.after) }
  }

  /** An item: its label (`Lbl`), its text (its body's, blocks joined) and the lists nested in it. */
  private itemOf(node: TagNode, notes: Array<TagNode>): Item {
    const labels: Array<Piece> = []
    const body: Array<Piece> = []
    const lists: Array<Made<Document.List>> = []
    const after: Array<Unit> = []
    const visit = (parent: TagNode) => {
      for (const kid of parent.kids) {
        if (typeof kid === "number") {
          for (const item of this.take(kid)) body.push({ item, reference: false })
        } else if (kid.role === "Lbl" && parent === node) this.pieces(kid, 0, labels, notes)
        else if (kid.role === "L") {
          const nested = this.nested(kid)
          if (nested !== undefined) {
            lists.push(nested.list)
            after.push(...nested.after)
          }
        } else if (Roles.isNote(kid.role)) notes.push(kid)
        else if (kid.role === "Artifact") continue
        else if (kid.role === "Table") {
          const units = this.units
          this.units = after
          this.table(kid)
          this.units = units
        } else if (hasBlocks(kid)) visit(kid)
        else {
          const own = this.pieces(kid, roleStyle(kid.role), [], notes)
          const listing = Roles.isInline(kid.role) && kid.role !== "NonStruct" ? [] : contentLines(own)
          if (!isListing(listing, body[body.length - 1]?.item)) body.push(...own)
          else after.push({ _tag: "Lines", lines: listing, continued: false, continues: false })
        }
      }
    }
    visit(node)
    const lines = this.measure(contentLines(body))
    this.checkOrder(lines)
    return { lines, label: this.measure(contentLines(labels)).map((line) => line.text).join(" "), lists, after }
  }

  table(node: TagNode): void {
    const notes: Array<TagNode> = []
    const { captions, make } = tableOf(node, (cell) => this.measure(this.lines(cell, notes)))
    for (const caption of captions) this.walk(caption, 0)
    if (make !== undefined) this.block(make, node)
    for (const note of notes) this.note(note)
  }

  /** An element and what it holds, at section depth `depth`. */
  walk(node: TagNode, depth: number): void {
    const role = node.role
    if (role === "Artifact") return
    if (Roles.isNote(role)) return this.note(node)
    const level = Roles.headingLevel(role) ?? (role === "H" ? Math.max(1, Math.min(6, depth)) : undefined) ??
      (role === "Title" ? 1 : undefined)
    if (level !== undefined) return this.text(node, level)
    if (role === "TOCI" && !hasBlocks(node)) return this.text(node, undefined, true)
    if (role === "L") return this.list(node)
    if (role === "Table") return this.table(node)
    if (Roles.isFigure(role)) {
      this.placeFigures(node)
      return this.group(node, depth)
    }
    if (!hasBlocks(node)) return this.text(node, undefined)
    this.group(node, Roles.sections.has(role) ? depth + 1 : depth)
  }

  /** A grouping element: its blocks in order, runs of inline content between them as paragraphs. */
  private group(node: TagNode, depth: number): void {
    let run: Array<TagKid> = []
    const flush = () => {
      if (run.length > 0) this.text({ ...node, kids: run, actualText: "" }, undefined)
      run = []
    }
    for (const kid of node.kids) {
      if (typeof kid === "number" || (Roles.isInline(kid.role) && !Roles.isGrouping(kid.role) && !hasBlocks(kid))) {
        run.push(kid)
        continue
      }
      flush()
      this.walk(kid, depth)
    }
    flush()
  }
}

/** A tagged page's units, from its tree; figures not in the tree (nor artifacts) go at its end. */
export const treeUnits = (content: TaggedContent, figures: ReadonlyArray<PlacedFigure>): TreeUnits => {
  const runs = runsByMcid(content)
  const byMcid = new Map<number, Array<PlacedFigure>>()
  for (const placed of figures) {
    const mcid = figureMcid(placed)
    if (mcid >= 0) byMcid.set(mcid, [...(byMcid.get(mcid) ?? []), placed])
  }
  const builder = new Builder(runs, byMcid, noteLabels(content.tree, runs))
  for (const node of content.tree) builder.walk(node, 0)
  for (const placed of figures) {
    if (builder.placed.has(placed) || figureMcid(placed) === artifact) continue
    builder.units.push({
      _tag: "Block",
      make: () => placed.figure,
      lines: [],
      item: false,
      continued: false,
      continues: false
    })
  }
  return builder
}
