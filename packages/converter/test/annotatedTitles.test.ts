import { assert, describe, it } from "@effect/vitest"
import { makeLine } from "../src/internal/layout/lines.js"
import { item, pageBlocks } from "./support/textItems.js"

const body = [
  "These fonts include a complete set of consonants, vowels, tones and digits, along",
  "with punctuation and other useful symbols. A basic set of Latin glyphs is given too.",
  "Unicode scalar values are given in parentheses after the block names, as below."
]

describe("a title followed on its line by a smaller parenthesis", () => {
  it("has the title's size, however long the parenthesis", () => {
    const line = makeLine([item("Basic Latin ", 50, 100, 16), item("(U+0020..007E, U+00A0..U+00FF)", 140, 100, 10)])
    assert.strictEqual(line.size, 16)
  })

  it("keeps the most common size when the smaller text is no parenthesis, or a larger one follows", () => {
    assert.strictEqual(
      makeLine([item("Note ", 50, 100, 16), item("the values given after the names", 95, 100, 10)]).size,
      10
    )
    assert.strictEqual(
      makeLine([item("A ", 50, 100, 16), item("(x) ", 65, 100, 10), item("Big words here again", 90, 100, 16)]).size,
      16
    )
  })

  it("is a heading of the page", () => {
    const items = [
      ...body.map((text, i) => item(text, 50, 100 + i * 12)),
      item("Basic Latin ", 50, 150, 16),
      item("(U+0020..007E, U+00A0, U+00A4, U+00AC)", 146, 150, 10),
      ...body.map((text, i) => item(text, 50, 175 + i * 12))
    ]
    const headings = pageBlocks(items).flatMap((block) => block._tag === "Heading" ? [block.text] : [])
    assert.deepStrictEqual(headings, ["Basic Latin (U+0020..007E, U+00A0, U+00A4, U+00AC)"])
  })
})
