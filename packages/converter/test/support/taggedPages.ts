/** Tagged pages made by hand for the tagged-reading tests: runs, tree nodes, a page's verdict, its blocks. */
import type { Document } from "../../src/index.js"
import { layout } from "../../src/internal/layout.js"
import type { TextItem } from "../../src/internal/layout/model.js"
import type { TagKid, TagNode } from "../../src/internal/tagged/model.js"
import type { PageVerdict } from "../../src/internal/tagged/page.js"
import { arrangePage } from "../../src/internal/tagged/page.js"

/** A run of text at (x, y) in an 11-point plain font, 5.5 points a character. */
export const run = (text: string, x: number, y: number, size = 11, style = 0): TextItem => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  rtl: false,
  style
})

export const node = (role: string, kids: ReadonlyArray<TagKid>, more: Partial<TagNode> = {}): TagNode => ({
  role,
  kids,
  alt: "",
  actualText: "",
  rowSpan: 1,
  colSpan: 1,
  numbering: "",
  ...more
})

/** A page whose runs are given with their MCIDs (`unmarked`, `artifact` or an MCID). */
export const page = (
  number: number,
  tree: ReadonlyArray<TagNode>,
  runs: ReadonlyArray<readonly [TextItem, number]>
) => {
  const verdicts: Array<PageVerdict> = []
  const items = runs.map(([item]) => item)
  const arranged = arrangePage(
    { page: number, width: 600, height: 800, items, figures: [] },
    { tree, items, mcids: runs.map(([, mcid]) => mcid) },
    verdicts
  )
  return { arranged, verdict: verdicts[0]! }
}

/** The document the pages make, without its page breaks. */
export const read = (...pages: ReadonlyArray<ReturnType<typeof page>>) => {
  const laid = layout({ pages: pages.map((p) => p.arranged), outline: [], title: "t", filename: undefined })
  return { blocks: laid.document.blocks.filter((block) => block._tag !== "PageBreak"), removed: laid.removedLines }
}

export const texts = (blocks: ReadonlyArray<Document.Block>) =>
  blocks.map((block) =>
    block._tag === "Heading"
      ? `h${block.level} ${block.text}`
      : block._tag === "Paragraph"
      ? block.text
      : block._tag === "Footnote"
      ? `[${block.label}] ${block.text}`
      : block._tag
  )
