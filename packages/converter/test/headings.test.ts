import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"

const item = (text: string, x: number, y: number, size = 10): TextItem => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  rtl: false,
  style: 0
})

const headings = (items: ReadonlyArray<TextItem>, outline: ReadonlyArray<Layout.OutlineEntry>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [] }
  return Layout.layoutDocument({ pages: [page], outline, title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Heading" ? [[block.level, block.text] as const] : [])
}

describe("headings", () => {
  it("an outlined heading keeps the letters the page shows (small capitals read as capitals)", () => {
    const found = headings([
      item("1 INTRODUCTION", 50, 100, 12),
      item("Body text of the introduction, long enough to be the body size.", 50, 130),
      item("1.1 Wrapped Title That", 50, 160, 12),
      item("Goes On", 50, 175, 12),
      item("More body text of the section, long enough to be the body size.", 50, 200)
    ], [
      { title: "Introduction", level: 1, page: 1, top: 90 },
      { title: "Wrapped Title That Goes On", level: 2, page: 1, top: 150 }
    ])
    assert.deepStrictEqual(found, [[1, "1 INTRODUCTION"], [2, "1.1 Wrapped Title That Goes On"]])
  })
})

describe("section numbers set apart by a tab", () => {
  const bold = (text: string, x: number, y: number, size = 10): TextItem => ({ ...item(text, x, y, size), style: 2 })

  it("a Word heading's number two ems left of its title is part of the heading, not a paragraph", () => {
    const page: PageText = {
      page: 1,
      width: 600,
      height: 800,
      items: [
        bold("1", 50, 100, 16),
        bold("About This Book", 84, 100, 16),
        item("Body text of the first chapter, long enough to be the body size.", 50, 130),
        bold("1.1", 50, 160, 14),
        bold("Audience", 90, 160, 14),
        item("Body text of the first section, long enough to be the body size.", 50, 190),
        bold("1.2", 50, 220, 14),
        bold("Organization", 90, 220, 14),
        item("Body text of the next section, long enough to be the body size too.", 50, 250)
      ],
      figures: []
    }
    const blocks = Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks
    const found = blocks.flatMap((block) => block._tag === "Heading" ? [[block.level, block.text] as const] : [])
    assert.deepStrictEqual(found, [[1, "1 About This Book"], [2, "1.1 Audience"], [2, "1.2 Organization"]])
    assert.isFalse(blocks.some((block) => block._tag === "Paragraph" && /^1\.\d$/.test(block.text)))
  })

  it("a number in a table's first column stays apart from the cell beside it", () => {
    const found = headings([
      item("Body text of the page, long enough to be the body size of it.", 50, 100),
      item("1.1", 50, 130),
      item("Released the first version", 90, 130),
      item("1.2", 50, 145),
      item("Fixed the second version", 90, 145)
    ], [])
    assert.deepStrictEqual(found, [])
  })
})
