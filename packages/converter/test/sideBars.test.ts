import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { sideBar } from "../src/internal/layout/sideBars.js"
import * as Markdown from "../src/Markdown.js"
import { item } from "./support/textItems.js"

const sections = ["Talk Title", "Introduction", "Syntax", "Semantics", "Summary"]

/** A beamer-like slide: a title, two bulleted items (the second wrapped), a side bar of sections at x 310. */
const slide = (n: number, barSize: number): PageText => ({
  page: n,
  width: 360,
  height: 270,
  items: [
    item(`Slide number ${n} title`, 10, 20, 11),
    item("•", 24, 60, 11),
    item(`The first point of slide ${n} is short.`, 34, 60, 11),
    item("•", 24, 75, 11),
    item(`The second point of slide ${n} goes on`, 34, 75, 11),
    item("over a second line of its own.", 34, 88, 11),
    ...sections.map((section, i): TextItem => item(section, 310, 20 + i * 17, barSize, section.length * 2.5))
  ],
  figures: []
})

const markdown = (pages: ReadonlyArray<PageText>): string =>
  Markdown.render(Layout.layoutDocument({ pages: [...pages], outline: [], title: undefined, filename: "t" }))

describe("side bars", () => {
  it("a bar of small print down the right edge is read apart, and dropped where it repeats on the slides", () => {
    const out = markdown(Array.from({ length: 5 }, (_, i) => slide(i + 1, 5)))
    assert.include(out, "- The second point of slide 3 goes on over a second line of its own.")
    assert.include(out, "- The first point of slide 4 is short.")
    assert.notInclude(out, "Semantics")
    assert.notInclude(out, "Introduction")
  })

  it("a column at the body's size is not a bar: it stays", () => {
    const out = markdown(Array.from({ length: 5 }, (_, i) => slide(i + 1, 11)))
    assert.include(out, "Semantics")
  })

  it("a table's last column in small print, apart by a gap, shares its rows' baselines: it is no bar", () => {
    const rows = ["Alpha", "Beta", "Gamma", "Delta"].flatMap((name, i): Array<TextItem> => [
      item(`${name} function`, 30, 80 + i * 12, 8),
      item(`Returns the ${name} value`, 300, 80 + i * 12, 8, 50)
    ])
    assert.isUndefined(sideBar([item("Summary of the API", 30, 40, 14), ...rows], 360))
    const bar = sections.map((section, i) => item(section, 310, 75 + i * 7, 5, 25))
    assert.strictEqual(
      sideBar([item("Summary of the API", 30, 40, 14), ...rows.filter((run) => run.x < 100), ...bar], 360)?.size,
      5
    )
  })
})
