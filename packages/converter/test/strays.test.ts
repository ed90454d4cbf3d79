import { assert, describe, it } from "@effect/vitest"
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

const texts = (items: ReadonlyArray<TextItem>): Array<string> =>
  Layout.orderPage({ page: 1, width: 600, height: 800, items, figures: [] } satisfies PageText).items.flatMap((
    placed
  ) => placed._tag === "Line" ? [placed.line.text] : [])

describe("stray glyphs", () => {
  it("a lowered letter stays in its line when the other column's line sits on a nearby baseline", () => {
    // The right column's baseline is a little above the left one's; the TeX logo's "E" a little below.
    const lines = texts([
      item("the right column's line here", 310, 385.9),
      item("offering the LAT", 40, 390.8),
      item("E", 120, 392.9),
      item("X Project Team", 125, 390.8)
    ])
    assert.include(lines, "offering the LATEX Project Team")
    assert.notInclude(lines, "E")
  })

  it("a letter alone on a line of its own, far from any run, stays where it is", () => {
    const lines = texts([item("a line of text", 40, 100), item("A", 40, 112), item("another line", 40, 124)])
    assert.deepStrictEqual(lines, ["a line of text", "A", "another line"])
  })
})
