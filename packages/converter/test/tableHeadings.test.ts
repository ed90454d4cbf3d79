import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import type { Rule } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"
import { item, styledItem } from "./support/textItems.js"

const horizontal = (y: number): Rule => ({ x0: 50, x1: 500, y0: y, y1: y + 0.5, horizontal: true })
const vertical = (x: number): Rule => ({ x0: x, x1: x + 0.5, y0: 130, y1: 200, horizontal: false })
const frame = [
  horizontal(130),
  horizontal(152),
  horizontal(175),
  horizontal(200),
  vertical(50),
  vertical(250),
  vertical(500)
]

/** A paragraph, then `title` set tight under it (no heading's space) and a ruled table right under that. */
const page = (title: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule>): PageText => ({
  page: 1,
  width: 600,
  height: 800,
  items: [
    item("The implementation can vary between different systems, different versions of the same", 50, 100),
    item("system and also between fonts, especially when using another rendering system.", 50, 112),
    ...title,
    item("Behaviour", 60, 145),
    item("System", 260, 145),
    item("Dotted circles", 60, 168),
    item("Fairly good.", 260, 168),
    item("Coeng after vowels", 60, 193),
    item("Anything goes.", 260, 193)
  ],
  figures: [],
  rules
})

const blocks = (title: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule> = frame) =>
  Layout.layoutDocument({ pages: [page(title, rules)], outline: [], title: undefined, filename: "t" }).blocks

const headings = (title: ReadonlyArray<TextItem>, rules?: ReadonlyArray<Rule>) =>
  blocks(title, rules).flatMap((block) => block._tag === "Heading" ? [block.text] : [])

describe("a bold line right over a table", () => {
  it("is the table's heading, though it stands no farther from the text than a line", () => {
    const title = [styledItem("Examples for differences in implementation", 50, 124, Style.strong)]
    assert.deepStrictEqual(headings(title), ["Examples for differences in implementation"])
    assert.isTrue(blocks(title).some((block) => block._tag === "Table"))
  })

  it("stays text over no table, when it ends in a colon, or when a cell stands beside it on its baseline", () => {
    const title = [styledItem("Examples for differences in implementation", 50, 124, Style.strong)]
    assert.deepStrictEqual(headings(title, []), [])
    assert.deepStrictEqual(headings([styledItem("The differences are these:", 50, 124, Style.strong)]), [])
    const cells = [styledItem("Behaviour", 60, 124, Style.strong), styledItem("Examples", 400, 124, Style.strong)]
    assert.deepStrictEqual(headings(cells), [])
  })
})
