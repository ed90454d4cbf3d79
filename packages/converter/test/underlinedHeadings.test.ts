import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import type { Rule } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

/** A title in the text face at `top`, then a three-line paragraph 24 points under it (12 points a line). */
const section = (title: string, top: number): Array<TextItem> => [
  item(title, 50, top),
  item("The paragraph under the title runs over the whole width of the", 50, top + 24),
  item("page and goes on for a second line and then a third one that", 50, top + 36),
  item("ends here.", 50, top + 48)
]

/** A rule under the baseline of a line at `y` as wide as `title` (half an em a character). */
const underline = (title: string, y: number): Rule => ({
  x0: 50,
  x1: 50 + title.length * 5,
  y0: y + 1.5,
  y1: y + 2.2,
  horizontal: true
})

const headings = (items: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [], rules }
  return Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Heading" ? [block.text] : [])
}

describe("section titles underlined in the text face", () => {
  const titles = ["Magtape Representation", "Magtape Operations", "Emulation Library"]
  const items = titles.flatMap((title, i) => section(title, 100 + i * 90))

  it("are headings where a rule underlines the whole line", () => {
    assert.deepStrictEqual(headings(items, titles.map((title, i) => underline(title, 100 + i * 90))), titles)
  })

  it("take in a title-cased line set like them whose underline was left off", () => {
    const rules = titles.slice(0, 2).map((title, i) => underline(title, 100 + i * 90))
    assert.deepStrictEqual(headings(items, rules), titles)
  })

  it("are not headings without the rule, under part of the line, or as one underlined link", () => {
    assert.deepStrictEqual(headings(items, []), [])
    const part: Rule = { ...underline("Magtape", 100) }
    assert.deepStrictEqual(headings(items, [part]), [])
    const link = section("http://simh.trailing-edge.com", 100)
    assert.deepStrictEqual(headings(link, [underline("http://simh.trailing-edge.com", 100)]), [])
  })
})
