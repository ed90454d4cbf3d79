import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item, pageBlocks, styledItem } from "./support/textItems.js"

const text = (y: number): Array<TextItem> => [
  item("The text of the section goes on over two lines of the running body text,", 50, y),
  item("and its second line ends the paragraph of the section here for good.", 50, y + 12)
]

const blocks = (items: ReadonlyArray<TextItem>): Array<string> =>
  pageBlocks(items).flatMap((block) =>
    block._tag === "Heading" ? [`${block.level} ${block.text}`] : block._tag === "Paragraph" ? [block.text] : []
  )

describe("a paper's byline", () => {
  it("authors and affiliation in the bold sections' size, not bold, under the title are text", () => {
    const found = blocks([
      styledItem("Berkeley DB", 250, 60, Style.strong, 14),
      item("Michael A. Olson", 240, 84, 12),
      styledItem("Sleepycat Software, Inc.", 230, 100, Style.emphasis, 12),
      styledItem("Abstract", 260, 124, Style.strong, 12),
      ...text(142),
      styledItem("1. Introduction", 50, 184, Style.strong, 12),
      ...text(202),
      styledItem("2. Access Methods", 50, 244, Style.strong, 12),
      ...text(262),
      styledItem("3. Features", 50, 304, Style.strong, 12),
      ...text(322)
    ])
    const headings = found.filter((line) => /^\d /.test(line))
    assert.deepStrictEqual(headings, [
      "1 Berkeley DB",
      "2 Abstract",
      "2 1. Introduction",
      "2 2. Access Methods",
      "2 3. Features"
    ])
    assert.isTrue(found.some((line) => line.includes("Michael A. Olson")))
    assert.isTrue(found.some((line) => line.includes("Sleepycat Software, Inc.")))
  })
})
