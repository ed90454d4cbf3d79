/** What a structure element holds: its runs (by MCID), the style its role gives, blocks inside it. */
import { Style } from "../../Document.js"
import type { TextItem } from "../layout/model.js"
import type { TaggedContent, TagNode } from "./model.js"
import * as Roles from "./roles.js"

/** The style an inline role gives its text. */
export const roleStyle = (role: string): number =>
  role === "Code" ? Style.code : role === "Em" ? Style.emphasis : role === "Strong" ? Style.strong : 0

/** Whether an element holds blocks (anything but inline content and notes) somewhere inside. */
export const hasBlocks = (node: TagNode): boolean =>
  node.kids.some((kid) =>
    typeof kid !== "number" && !Roles.isNote(kid.role) && kid.role !== "Artifact" &&
    (!Roles.isInline(kid.role) || hasBlocks(kid))
  )

/** A run standing for several, with the element's replacement text. */
export const replaced = (items: ReadonlyArray<TextItem>, text: string): TextItem => {
  const first = items[0]!
  const right = Math.max(...items.map((item) => item.x + item.width))
  return { ...first, text, width: right - first.x }
}

/** The runs of each MCID, in content order. */
export const runsByMcid = (content: TaggedContent): Map<number, Array<TextItem>> => {
  const runs = new Map<number, Array<TextItem>>()
  content.items.forEach((item, i) => {
    const mcid = content.mcids[i]!
    if (mcid < 0) return
    const list = runs.get(mcid)
    if (list === undefined) runs.set(mcid, [item])
    else list.push(item)
  })
  return runs
}
