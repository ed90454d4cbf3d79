import { assert, describe, it } from "@effect/vitest"
import type * as Document from "../src/Document.js"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { titleAbove } from "../src/internal/layout/titleAbove.js"
import { item, pageBlocks, styledItem } from "./support/textItems.js"

const text = (y: number): Array<TextItem> => [
  item("The text of the section goes on over two lines of the running body text,", 50, y),
  item("and its second line ends the paragraph of the section here for good.", 50, y + 12)
]

const headings = (items: ReadonlyArray<TextItem>): Array<string> =>
  pageBlocks(items).flatMap((block) => block._tag === "Heading" ? [`${block.level} ${block.text}`] : [])

describe("a paper's title above its numbered sections", () => {
  it("numbered bold sections in the text's size go under the larger title, unnumbered ones with them", () => {
    const found = headings([
      styledItem("LIBTP: Portable Transactions", 150, 60, Style.strong, 14),
      styledItem("1. Introduction", 50, 100, Style.strong),
      ...text(114),
      styledItem("2. Architecture", 50, 160, Style.strong),
      ...text(174),
      styledItem("2.1. Design Tradeoffs", 50, 220, Style.strong),
      ...text(238),
      item("Lock Manager", 100, 290, 12),
      item("Figure 1: Library module interfaces.", 100, 320),
      styledItem("3. Performance", 50, 360, Style.strong),
      ...text(374)
    ])
    assert.deepStrictEqual(found, [
      "1 LIBTP: Portable Transactions",
      "2 1. Introduction",
      "2 2. Architecture",
      "3 2.1. Design Tradeoffs",
      "3 Lock Manager",
      "2 3. Performance"
    ])
  })

  const heading = (level: number, text: string): Document.Block => ({ _tag: "Heading", level, text })
  const levels = (blocks: ReadonlyArray<Document.Block>, title: string) =>
    titleAbove(blocks, title).flatMap((block) => block._tag === "Heading" ? [`${block.level} ${block.text}`] : [])

  it("leaves a title already above its sections, one that would push a heading past 6, and a first heading not the title", () => {
    const sections = [heading(2, "1 Scope"), heading(2, "2 Terms"), heading(3, "2.1 Words")]
    assert.deepStrictEqual(levels([heading(1, "A Paper"), ...sections], "A Paper"), [
      "1 A Paper",
      "2 1 Scope",
      "2 2 Terms",
      "3 2.1 Words"
    ])
    assert.deepStrictEqual(levels([heading(4, "A Paper"), ...sections, heading(5, "Aside")], "A Paper"), [
      "4 A Paper",
      "2 1 Scope",
      "2 2 Terms",
      "3 2.1 Words",
      "5 Aside"
    ])
    assert.deepStrictEqual(levels([heading(2, "Abstract"), ...sections], "A Paper"), [
      "2 Abstract",
      "2 1 Scope",
      "2 2 Terms",
      "3 2.1 Words"
    ])
  })
})
