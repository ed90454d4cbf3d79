import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

const headings = (items: ReadonlyArray<TextItem>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [] }
  return Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Heading" ? [block.text] : [])
}

const body = (y: number): Array<TextItem> => [
  item("Body text of the section, long enough to be set in the body size here.", 50, y),
  item("Its second line goes on with the body text of the same section here.", 50, y + 12),
  item("And a third line of the same paragraph ends the sentence it began.", 50, y + 24)
]

describe("a diagram's labels drawn as type", () => {
  it("are text over a caption from their first row of boxes down; a heading above them stays one", () => {
    const found = headings([
      item("Architecture", 50, 80, 15),
      ...body(100),
      item("Lock", 150, 200, 15),
      item("Log", 290, 200, 15),
      item("Buffer Manager", 410, 200, 15),
      item("wake", 200, 240),
      item("Process Manager", 240, 280, 15),
      item("Figure 1: Library module interfaces.", 220, 320),
      ...body(360)
    ])
    assert.deepStrictEqual(found, ["Architecture"])
  })

  it("without a caption under them are left as they were", () => {
    const found = headings([
      ...body(100),
      item("Lock", 150, 200, 15),
      item("Log", 290, 200, 15),
      ...body(240)
    ])
    assert.deepStrictEqual(found, ["Lock", "Log"])
  })
})
