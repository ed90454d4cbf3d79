/** Word's list-numbered headings, which PDFMaker tags `L`/`LI`/`LBody` (the style only in the class). */
import { headingMaxChars, headingRatio } from "../layout/headings.js"
import { heaviest } from "../layout/lines.js"
import type { TextItem } from "../layout/model.js"
import { Style } from "../layout/model.js"
import type { TagNode } from "./model.js"
import * as Roles from "./roles.js"

type Runs = ReadonlyMap<number, ReadonlyArray<TextItem>>

/** The size of most of the page's characters: its running text. */
export const pageBodySize = (runs: Runs): number => {
  const weights = new Map<number, number>()
  for (const items of runs.values()) {
    for (const item of items) weights.set(item.size, (weights.get(item.size) ?? 0) + item.text.trim().length)
  }
  return weights.size === 0 ? 0 : heaviest(weights)
}

/** An item's title (its label and text before its first block) and the blocks after it, in order. */
export interface TitledItem {
  readonly title: TagNode
  readonly rest: ReadonlyArray<TagNode>
}

const isText = (node: TagNode): boolean =>
  node.role === "Lbl" || (Roles.isInline(node.role) && node.kids.every((kid) => typeof kid === "number" || isText(kid)))

/** An item split at its first block (a paragraph, a nested list): what goes before is its title. */
const split = (item: TagNode): TitledItem => {
  const head: Array<TagNode["kids"][number]> = []
  const rest: Array<TagNode> = []
  const visit = (node: TagNode) => {
    for (const kid of node.kids) {
      if (rest.length === 0 && (typeof kid === "number" || isText(kid))) head.push(kid)
      else if (typeof kid !== "number" && kid.role === "LBody" && rest.length === 0) visit(kid)
      else if (typeof kid !== "number" && kid.role !== "Artifact") rest.push(kid)
    }
  }
  visit(item)
  return { title: { ...item, kids: head }, rest }
}

const runsOf = (node: TagNode, runs: Runs): Array<TextItem> =>
  node.kids.flatMap((kid) => typeof kid === "number" ? [...(runs.get(kid) ?? [])] : runsOf(kid, runs))

/** Whether an item's text is a title: bold throughout, short, with letters, larger than the page's text. */
const isTitle = (items: ReadonlyArray<TextItem>, body: number): boolean => {
  const text = items.map((item) => item.text).join("").trim()
  const inked = items.filter((item) => item.text.trim() !== "")
  return inked.length > 0 && text.length <= headingMaxChars && /\p{L}.*\p{L}/u.test(text) &&
    inked.every((item) => (item.style & Style.strong) !== 0 && item.size >= body * headingRatio)
}

/** A part of a list of headings: a title and what follows it, or items that are no title (a list of their own). */
export type HeadingPart = TitledItem | { readonly list: TagNode }

/** A list whose first item and half of its items start with a title is headings: its parts, in order. */
export const headingItems = (list: TagNode, runs: Runs, body: number): Array<HeadingPart> | undefined => {
  const parts: Array<HeadingPart> = []
  let items = 0
  let titles = 0
  for (const kid of list.kids) {
    if (typeof kid === "number") {
      if ((runs.get(kid) ?? []).some((item) => item.text.trim() !== "")) return undefined
      continue
    }
    if (kid.role === "Artifact") continue
    const last = parts[parts.length - 1]
    const item = kid.role === "LI" ? split(kid) : undefined
    if (kid.role === "LI") items++
    if (item !== undefined && body > 0 && isTitle(runsOf(item.title, runs), body)) {
      titles++
      parts.push(item)
    } else if (last === undefined) return undefined
    else if ("list" in last) parts[parts.length - 1] = { list: { ...last.list, kids: [...last.list.kids, kid] } }
    // A nested list after a title is read as the blocks after it; another item starts a list of its own.
    else if (kid.role === "L") parts[parts.length - 1] = { ...last, rest: [...last.rest, kid] }
    else parts.push({ list: { ...list, kids: [kid] } })
  }
  return titles * 2 >= items ? parts : undefined
}
