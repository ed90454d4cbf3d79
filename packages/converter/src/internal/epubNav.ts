/** The EPUB's table of contents: headings as a tree, for nav.xhtml and the older toc.ncx. */
import { escapeXml } from "./xml.js"

export interface TocEntry {
  readonly level: number
  readonly title: string
  readonly href: string
}

interface TocNode {
  readonly entry: TocEntry
  readonly children: Array<TocNode>
}

export const buildTree = (entries: ReadonlyArray<TocEntry>): Array<TocNode> => {
  const roots: Array<TocNode> = []
  const stack: Array<TocNode> = []
  for (const entry of entries) {
    const node: TocNode = { entry, children: [] }
    while (stack.length > 0 && stack[stack.length - 1]!.entry.level >= entry.level) stack.pop()
    if (stack.length === 0) roots.push(node)
    else stack[stack.length - 1]!.children.push(node)
    stack.push(node)
  }
  return roots
}

export const navList = (nodes: ReadonlyArray<TocNode>): string =>
  `<ol>${
    nodes.map((node) =>
      `<li><a href="${escapeXml(node.entry.href)}">${escapeXml(node.entry.title) || "Untitled"}</a>${
        node.children.length > 0 ? navList(node.children) : ""
      }</li>`
    ).join("")
  }</ol>`

export const ncxPoints = (nodes: ReadonlyArray<TocNode>, counter: { value: number }): string =>
  nodes.map((node) => {
    const order = ++counter.value
    return `<navPoint id="np${order}" playOrder="${order}"><navLabel><text>${
      escapeXml(node.entry.title) || "Untitled"
    }</text></navLabel><content src="${escapeXml(node.entry.href)}"/>${ncxPoints(node.children, counter)}</navPoint>`
  }).join("")
