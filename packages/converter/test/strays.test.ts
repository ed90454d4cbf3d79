import { assert, describe, it } from "@effect/vitest"
import { item, orderedTexts } from "./support/textItems.js"

describe("stray glyphs", () => {
  it("a lowered letter stays in its line when the other column's line sits on a nearby baseline", () => {
    // The right column's baseline is a little above the left one's; the TeX logo's "E" a little below.
    const lines = orderedTexts([
      item("the right column's line here", 310, 385.9),
      item("offering the LAT", 40, 390.8),
      item("E", 120, 392.9),
      item("X Project Team", 125, 390.8)
    ])
    assert.include(lines, "offering the LATEX Project Team")
    assert.notInclude(lines, "E")
  })

  it("a letter alone on a line of its own, far from any run, stays where it is", () => {
    const lines = orderedTexts([item("a line of text", 40, 100), item("A", 40, 112), item("another line", 40, 124)])
    assert.deepStrictEqual(lines, ["a line of text", "A", "another line"])
  })
})
