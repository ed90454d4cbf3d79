import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
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

const page = (items: ReadonlyArray<TextItem>): PageText => ({ page: 1, width: 600, height: 800, items, figures: [] })

const blocks = (items: ReadonlyArray<TextItem>): Array<Document.Block> =>
  Layout.layoutDocument({ pages: [page(items)], outline: [], title: undefined, filename: "test" }).blocks
    .filter((block) => block._tag !== "PageBreak")

const lead = [
  item("Explicit path for a file given on the command line of the compiler.", 50, 100),
  item("Implicit research", 50, 124)
]

describe("a numbered list right under a lead-in line", () => {
  it("numbers indented under a title that ends no sentence start items", () => {
    const found = blocks([
      ...lead,
      item("1. Search the file in the current directory.", 59, 136),
      item("2. If failed, search in the parent directory.", 59, 148)
    ])
    const list = found.find((block): block is Document.List => block._tag === "List")
    assert.isDefined(list)
    assert.deepStrictEqual(list!.items.map((entry) => entry.text), [
      "Search the file in the current directory.",
      "If failed, search in the parent directory."
    ])
    assert.isTrue(found.some((block) => block._tag === "Paragraph" && block.text === "Implicit research"))
  })

  it("a number at the margin of a sentence's next line goes on with the sentence", () => {
    const found = blocks([
      item("The values given on the command line are counted from", 50, 100),
      item("2. to the last value, as the manual describes it here.", 50, 112)
    ])
    assert.isFalse(found.some((block) => block._tag === "List"))
  })
})
