import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import { Markdown } from "../src/index.js"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

const page = (number: number, items: ReadonlyArray<TextItem>): PageText => ({
  page: number,
  width: 600,
  height: 800,
  items,
  figures: []
})

const layout = (pages: ReadonlyArray<PageText>): Array<Document.Block> =>
  Layout.layoutDocument({ pages: [...pages], outline: [], title: undefined, filename: "t" }).blocks.filter((
    block
  ) => block._tag !== "PageBreak")

/** Section 2 of a licence as texinfo sets it: conditions lettered under the item, the item going on after them. */
const section = (dx: number, third: string): Array<TextItem> => [
  item("Running text before the list, long enough to set the body size of the page.", 50 + dx, 100),
  item("1. You may copy verbatim copies of the source code.", 50 + dx, 120),
  item("2. You may modify your copy, provided that you meet", 50 + dx, 140),
  item("all of these conditions:", 65 + dx, 152),
  item("a. The modified work must be a software library.", 70 + dx, 168),
  item(`b. ${third}`, 70 + dx, 184)
]

const after = (dx: number): Array<TextItem> => [
  item("These requirements apply to the modified work as a whole.", 65 + dx, 200),
  item("3. You may opt to apply the terms of the GPL instead.", 50 + dx, 220)
]

const lettered = (texts: ReadonlyArray<string>): Document.List => ({
  _tag: "List",
  ordered: true,
  start: 1,
  items: texts.map((text, i) => ({ label: `${String.fromCharCode(97 + i)}.`, text }))
})

const expected = (conditions: ReadonlyArray<string>): Document.Block => ({
  _tag: "List",
  ordered: true,
  start: 1,
  items: [
    { text: "You may copy verbatim copies of the source code." },
    {
      text: "You may modify your copy, provided that you meet all of these conditions:",
      lists: [lettered(conditions)],
      after: [{ _tag: "Paragraph", text: "These requirements apply to the modified work as a whole." }]
    },
    { text: "You may opt to apply the terms of the GPL instead." }
  ]
})

const conditions = ["The modified work must be a software library.", "You must cause the files to carry notices."]

describe("an item's text after its nested list", () => {
  it("is the item's, after the nested list, in the model and in Markdown", () => {
    const blocks = layout([page(1, [...section(0, conditions[1]!), ...after(0)])])
    assert.deepStrictEqual(blocks.slice(1), [expected(conditions)])
    const markdown = Markdown.render({ title: "t", language: "en", pages: 1, blocks })
    assert.include(markdown, "   - b. You must cause the files to carry notices.\n\n   These requirements apply")
  })
})

describe("a list going on at the top of the next page", () => {
  it("keeps its depth where the next page's text block starts further right (two-sided pages)", () => {
    const blocks = layout([
      page(1, section(0, "You must cause the files to carry")),
      page(2, [
        item("c. If a facility refers to a function, then you", 90, 100),
        item("must make a good faith effort.", 105, 112),
        ...after(20).map((placed) => ({ ...placed, y: placed.y - 80 }))
      ])
    ])
    assert.deepStrictEqual(blocks.slice(1), [expected([
      conditions[0]!,
      "You must cause the files to carry",
      "If a facility refers to a function, then you must make a good faith effort."
    ])])
  })

  it("does not take a new list numbered from 1, or text at the margin", () => {
    const restarted = layout([
      page(1, section(0, "You must cause the files to carry notices.")),
      page(2, [
        item("1. A new list starts on this page, its first item.", 90, 100),
        item("Running text at the margin, long enough to be a paragraph of its own.", 70, 130)
      ])
    ])
    assert.deepStrictEqual(restarted.map((block) => block._tag), ["Paragraph", "List", "List", "Paragraph"])
    const margin = layout([
      page(1, section(0, "You must cause the files to carry notices.")),
      page(2, [item("Running text at the margin, long enough to be a paragraph of its own.", 70, 100)])
    ])
    assert.deepStrictEqual(margin.map((block) => block._tag), ["Paragraph", "List", "Paragraph"])
  })
})
