import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import type { TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

const texts = (items: ReadonlyArray<TextItem>): Array<string> =>
  Layout.layoutDocument({
    pages: [{ page: 1, width: 600, height: 800, items, figures: [] }],
    outline: [],
    title: undefined,
    filename: "t"
  }).blocks.flatMap((block: Document.Block) => block._tag === "Paragraph" ? [block.text] : [])

/** Lines of running text 12 points apart across a column 230 points wide at `x`. */
const running = (lines: ReadonlyArray<string>, x: number, y: number): Array<TextItem> =>
  lines.map((text, i) => item(text, x, y + i * 12, 10, 230))

/**
 * Two columns: a paragraph cut at the left column's foot by a figure, going on at the right column's top;
 * a label ending in a full stop keeps the blocks' float rule from seeing the figure whole.
 */
const page = (last: string): Array<TextItem> => [
  ...running(
    [
      "All figures should be centred on the column, or on",
      "the page if the figure spans both columns. Each",
      "caption follows its figure and has the format given",
      "in the first figure of this template. Figures must",
      last
    ],
    50,
    100
  ),
  item("x(n)", 60, 200, 8),
  item("(a) in time.", 90, 230, 8),
  item("Figure 1: A sinusoid in time and frequency.", 60, 260, 10, 200),
  ...running(
    [
      "vectorial, with no screen copy and no bitmap. Export",
      "your plots as PostScript or as PDF to keep them",
      "sharp at any size when printed."
    ],
    320,
    100
  ),
  ...running(
    [
      "Table captions are in italic and follow the table",
      "they belong to, as the template shows below here."
    ],
    320,
    148
  )
]

describe("a float at a column's foot, under a paragraph going on in the next column", () => {
  it("is read after the paragraph, whose halves join", () => {
    const read = texts(page("be"))
    const joined = read.findIndex((text) => text.includes("Figures must be vectorial, with no screen copy"))
    assert.isAtLeast(joined, 0, read.join(" | "))
    assert.isAbove(read.findIndex((text) => text.includes("Figure 1: A sinusoid")), joined)
  })

  it("stays in place when the paragraph ends a sentence above it", () => {
    const read = texts(page("be vectorial."))
    const caption = read.findIndex((text) => text.includes("Figure 1: A sinusoid"))
    assert.isBelow(caption, read.findIndex((text) => text.startsWith("vectorial, with no screen copy")))
  })
})
