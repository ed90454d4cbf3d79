import { assert, describe, it } from "@effect/vitest"
import type { OutlineEntry, PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

const bold = (text: string, x: number, y: number, size: number): TextItem => ({
  ...item(text, x, y, size),
  style: Style.strong
})

/** Text under a chapter's head: three paragraphs, then a 14-point section heading and its paragraph. */
const text = (top: number): Array<TextItem> => [
  ...[0, 1, 2].flatMap((i) => [
    item("The chapter's text runs over the whole width of the page and", 50, top + i * 30),
    item("ends on its second line.", 50, top + i * 30 + 12)
  ]),
  bold("3.1 Scope", 50, top + 110, 14),
  item("The section's text runs over the whole width of the page and", 50, top + 135),
  item("ends on its second line.", 50, top + 147)
]

const headings = (items: ReadonlyArray<TextItem>, outline: ReadonlyArray<OutlineEntry> = []) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [] }
  return Layout.layoutDocument({ pages: [page], outline, title: undefined, filename: "t" }).blocks.flatMap((block) =>
    block._tag === "Heading" ? [[block.level, block.text] as const] : []
  )
}

describe("a chapter's label on its own line over the title", () => {
  it("is one heading with the title, at the title's level, not a heading of its own under it", () => {
    const items = [bold("Chapter 3", 50, 150, 20), bold("Getting Started", 50, 200, 25), ...text(250)]
    assert.deepStrictEqual(headings(items), [[1, "Chapter 3 Getting Started"], [2, "3.1 Scope"]])
  })

  it("leads the outline's title where the bookmark leaves it out", () => {
    const items = [bold("Chapter 3", 50, 150, 20), bold("Getting Started", 50, 200, 25), ...text(250)]
    const outline = [
      { title: "Getting Started", level: 1, page: 1, top: 140 },
      { title: "3.1 Scope", level: 2, page: 1, top: 350 }
    ]
    assert.deepStrictEqual(headings(items, outline), [[1, "Chapter 3 Getting Started"], [2, "3.1 Scope"]])
  })

  it("stays apart from a line in the text's size (a contents entry) and from a title far below", () => {
    const entry = [bold("Chapter 3", 50, 150, 20), item("Getting Started", 50, 175), ...text(250)]
    assert.isFalse(headings(entry).some(([, title]) => title.includes("Getting")))
    const far = [bold("Chapter 3", 50, 100, 20), bold("Getting Started", 50, 200, 25), ...text(250)]
    assert.isFalse(headings(far).some(([, title]) => title.startsWith("Chapter 3 ")))
  })
})
