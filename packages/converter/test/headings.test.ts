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
