/** The shapes of a tagged page: its structure tree as plain nodes, and each run's marked content. */
import type * as Document from "../../Document.js"
import type { Hyphenation } from "../layout/hyphens.js"
import type { Line, PlacedFigure, TextItem } from "../layout/model.js"

/** A kid that is not content of this page; a run in no marked content the tree reaches; one in `/Artifact` (furniture). */
export const elsewhere = -1
export const unmarked = -1
export const artifact = -2

export type TagKid = TagNode | number

/** A structure element as the page's tree gives it. */
export interface TagNode {
  /** After the document's role map ("P", "H1", "LI", "TD", ...). */
  readonly role: string
  readonly kids: ReadonlyArray<TagKid>
  readonly alt: string
  readonly actualText: string
  readonly numbering: string
  readonly rowSpan: number
  readonly colSpan: number
}

export interface MarkedFigure extends PlacedFigure {
  readonly mcid: number
}

export const figureMcid = (placed: PlacedFigure): number =>
  "mcid" in placed && typeof placed.mcid === "number" ? placed.mcid : unmarked

/** A tagged page as read: its tree, its runs in content order, each run's MCID. */
export interface TaggedContent {
  readonly tree: ReadonlyArray<TagNode>
  readonly items: ReadonlyArray<TextItem>
  readonly mcids: ReadonlyArray<number>
}

export const isHere = (kid: TagKid): boolean => typeof kid !== "number" || kid >= 0

/** Links and annotations hold their annotation as a kid that is not content: no sign of a page end. */
const holdsAnnotation = (kid: TagKid): kid is TagNode =>
  typeof kid !== "number" && (kid.role === "Link" || kid.role === "Annot" || kid.role === "Form")

/** The element began on an earlier page: a kid elsewhere comes before its first kid here, or that kid began earlier. */
export const continuesBefore = (node: TagNode): boolean => {
  const first = node.kids.findIndex(isHere)
  if (first < 0) return false
  const kid = node.kids[first]!
  return first > 0 || (typeof kid !== "number" && !holdsAnnotation(kid) && continuesBefore(kid))
}

/** The element goes on to a later page: a kid elsewhere comes after its last kid here, or that kid goes on. */
export const continuesAfter = (node: TagNode): boolean => {
  const kids = node.kids
  let last = kids.length - 1
  while (last >= 0 && !isHere(kids[last]!)) last--
  if (last < 0) return false
  const kid = kids[last]!
  return last < kids.length - 1 || (typeof kid !== "number" && !holdsAnnotation(kid) && continuesAfter(kid))
}

/** A block made once the document's hyphenation is known (lines joined by it); undefined when empty. */
export type Made<A> = (hyphenation: Hyphenation | undefined) => A

/**
 * A piece of a tagged page: a block the tree made whole, or an element's lines for the layout's rules.
 * `continued`/`continues`: its element began before / goes on after this page; `item`: likewise a list's first item.
 */
export type Unit =
  | {
    readonly _tag: "Block"
    readonly make: Made<Document.Block | undefined>
    readonly lines: ReadonlyArray<Line>
    /** A heading's level and first line (the face the tree's headings are set in). */
    readonly heading?: { readonly level: number; readonly line: Line } | undefined
    readonly item: boolean
    readonly continued: boolean
    readonly continues: boolean
  }
  | {
    readonly _tag: "Lines"
    readonly lines: ReadonlyArray<Line>
    readonly continued: boolean
    readonly continues: boolean
  }
