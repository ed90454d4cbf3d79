/** Numbered headings' levels follow their numbers: "3.1.2.1" under "3.1.2" even when tagged or set alike. */
import type * as Document from "../../Document.js"
import { heaviest } from "./lines.js"

const sectionNumber = /^(\d{1,2}(?:\.\d{1,2})*)\.?\s+\p{L}/u

/** Fewer numbered headings than this are too few to tell a document's levels by. */
const minNumbered = 6

const depthOf = (text: string): number | undefined => {
  const number = sectionNumber.exec(text)?.[1]
  return number === undefined ? undefined : number.split(".").length
}

/** Each number depth's most common level, kept below the shallower depth's, for all headings of that depth. */
export const numberLevels = (blocks: ReadonlyArray<Document.Block>): Array<Document.Block> => {
  const byDepth = new Map<number, Map<number, number>>()
  let count = 0
  for (const block of blocks) {
    const depth = block._tag === "Heading" ? depthOf(block.text) : undefined
    if (block._tag !== "Heading" || depth === undefined) continue
    const levels = byDepth.get(depth) ?? new Map<number, number>()
    levels.set(block.level, (levels.get(block.level) ?? 0) + 1)
    byDepth.set(depth, levels)
    count++
  }
  if (count < minNumbered || byDepth.size < 2) return [...blocks]
  const levelOf = new Map<number, number>()
  let previous = 0
  for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
    previous = Math.min(6, Math.max(heaviest(byDepth.get(depth)!), previous + 1))
    levelOf.set(depth, previous)
  }
  return blocks.map((block) => {
    if (block._tag !== "Heading") return block
    const depth = depthOf(block.text)
    const level = depth === undefined ? undefined : levelOf.get(depth)
    // Only deeper: a contents page's entries taken for headings must not pull the body's up.
    return level === undefined || level <= block.level ? block : { ...block, level }
  })
}
