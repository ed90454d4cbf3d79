import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

const bold = (text: string, x: number, y: number): TextItem => ({ ...item(text, x, y, 9), style: Style.strong })

/** The page's items in reading order: a table as one entry of its cells. */
const read = (items: ReadonlyArray<TextItem>) =>
  Layout.orderPage({ page: 1, width: 600, height: 800, items, figures: [] } satisfies PageText).items.map((placed) =>
    placed._tag === "Line" ? placed.line.text : placed._tag === "Table" ? `table: ${placed.rows.flat().join(" ")}` : ""
  )

/** A journal's first page: a contents list beside the introduction, each under a bold title on one baseline. */
const page = (end: (i: number) => string): Array<TextItem> => [
  bold("CONTENTS", 40, 100),
  bold("1 INTRODUCTION", 320, 100),
  ...Array.from({ length: 10 }, (_, i) => [
    item(`${i + 1} Section title ${i + 1}`, 40, 112 + i * 11, 9, 110),
    item(`line ${i + 1} of the introduction's running text, set ${end(i)}`, 320, 112 + i * 11, 9, 250)
  ]).flat()
]

describe("a column of running text beside a list", () => {
  it("is no table's column when its lines end in words hyphenated at the line's end", () => {
    const order = read(page((i) => i % 3 === 0 ? "justi-" : "justified"))
    assert.isFalse(order.some((text) => text.startsWith("table:")))
    const at = (text: string) => order.findIndex((t) => t.includes(text))
    assert.isBelow(at("10 Section title 10"), at("line 1 of the introduction"))
  })

  it("without hyphenated ends, the bold-headed bands stay a table", () => {
    assert.isTrue(read(page(() => "justified")).some((text) => text.startsWith("table:")))
  })

  it("a narrow side column that hyphenates words beside a wide one is running text, not a table's column", () => {
    // A brochure: a side column a quarter of the page wide, hyphenating, beside a main column under its own title.
    const items = [
      bold("Publishing", 40, 100),
      bold("Typefaces", 200, 100),
      ...Array.from({ length: 10 }, (_, i) => [
        item(i % 3 === 0 ? `side line ${i + 1} ends hyph-` : `side line ${i + 1} ends whole`, 40, 112 + i * 11, 9, 140),
        item(`main line ${i + 1} of the page's running text, set justified`, 200, 112 + i * 11, 9, 360)
      ]).flat()
    ]
    const order = read(items)
    assert.isFalse(order.some((text) => text.startsWith("table:")))
    const at = (text: string) => order.findIndex((t) => t.includes(text))
    assert.isBelow(at("side line 10"), at("main line 1 "))
  })
})
