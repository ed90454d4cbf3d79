/** Whether a page's structure tree can be trusted with its reading (README, "Tagged PDFs"). */
import type { TaggedContent, TagNode } from "./model.js"
import { artifact } from "./model.js"
import { headingLevel, isStandard, isTextBlock } from "./roles.js"

/** Shares: of the visible text (artifacts aside) the tree reaches; of blocks read back up; of elements of standard roles. */
export const minCoverage = 0.95
export const maxRefuted = 0.05
export const minStandard = 0.9

/** What the rule measured on one page. */
export interface Measures {
  /** Visible characters of the text layer (artifacts included), of artifacts, of content the tree reaches. */
  readonly visible: number
  readonly artifacts: number
  readonly reached: number
  /** Elements holding content, and those of them with a standard role. */
  readonly elements: number
  readonly standard: number
}

const visibleLength = (text: string): number => {
  let count = 0
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 32) count++
  return count
}

export const reachedMcids = (tree: ReadonlyArray<TagNode>): Set<number> => reach(tree).mcids

/** The MCIDs the tree reaches, and its elements that hold content and have a standard role. */
const reach = (tree: ReadonlyArray<TagNode>) => {
  const mcids = new Set<number>()
  let elements = 0
  let standard = 0
  const visit = (node: TagNode) => {
    let holds = false
    for (const kid of node.kids) {
      if (typeof kid === "number") {
        if (kid >= 0) {
          mcids.add(kid)
          holds = true
        }
      } else visit(kid)
    }
    if (holds) {
      elements++
      if (isStandard(node.role)) standard++
    }
  }
  tree.forEach(visit)
  return { mcids, elements, standard }
}

export const measure = (content: TaggedContent): Measures => {
  const { elements, mcids, standard } = reach(content.tree)
  let visible = 0
  let artifacts = 0
  let reached = 0
  content.items.forEach((item, i) => {
    const length = visibleLength(item.text)
    const mcid = content.mcids[i]!
    visible += length
    if (mcid === artifact) artifacts += length
    else if (mcids.has(mcid)) reached += length
  })
  return { visible, artifacts, reached, elements, standard }
}

/** The share of the page's body text (visible, not artifact) the tree reaches; 1 for a page without any. */
export const coverage = (measures: Measures): number => {
  const body = measures.visible - measures.artifacts
  return body <= 0 ? 1 : measures.reached / body
}

/** Why a page's tree is not used, or undefined when it is sound. */
export type Unsound = "no tree" | "coverage" | "roles" | "order" | "table"

/** Whether the tree has a table somewhere (a tree without one may have tagged a table's cells as paragraphs). */
export const hasTable = (tree: ReadonlyArray<TagNode>): boolean =>
  tree.some((node) => node.role === "Table" || node.kids.some((kid) => typeof kid !== "number" && hasTable([kid])))

const isBlock = (role: string): boolean =>
  role === "LI" || headingLevel(role) !== undefined || role === "H" || (isTextBlock(role) && role !== "Lbl")

/**
 * Baselines on which runs of two or more blocks of text sit side by side: cells of a table the
 * tree flattened into paragraphs (a block's own tab stops are one block).
 */
export const sideBySide = (content: TaggedContent): number => {
  const blockOf = new Map<number, TagNode>()
  const visit = (node: TagNode, block: TagNode | undefined) => {
    const own = isBlock(node.role) ? node : block ?? node
    for (const kid of node.kids) {
      if (typeof kid !== "number") visit(kid, own)
      else if (kid >= 0) blockOf.set(kid, own)
    }
  }
  content.tree.forEach((node) => visit(node, undefined))
  const baselines = new Map<number, Set<TagNode>>()
  content.items.forEach((item, i) => {
    const block = blockOf.get(content.mcids[i]!)
    if (block === undefined || item.text.trim() === "") return
    const key = Math.round(item.y / 2)
    const blocks = baselines.get(key) ?? new Set()
    blocks.add(block)
    baselines.set(key, blocks)
  })
  let count = 0
  for (const blocks of baselines.values()) if (blocks.size >= 2) count++
  return count
}

/** The verdict on what was measured, and on the blocks the tree gave (`refuted` of `texts` jumping back). */
export const verdict = (measures: Measures, refuted: number, texts: number): Unsound | undefined => {
  if (measures.elements === 0) return "no tree"
  if (coverage(measures) < minCoverage) return "coverage"
  if (measures.standard < minStandard * measures.elements) return "roles"
  if (refuted > maxRefuted * texts) return "order"
  return undefined
}
