import { assert, describe, it } from "@effect/vitest"
import { item, orderedTexts } from "./support/textItems.js"

describe("a drop cap", () => {
  it("goes on its paragraph's first line, and the lines beside it stay apart", () => {
    const lines = orderedTexts([
      item("I", 50, 150, 50, 17),
      item("F you need to produce a document for publication", 67, 110),
      item("robust, professional software which will not let", 67, 124),
      item("you down, whether it is an annual report or a", 67, 138),
      item("business plan or a white paper for your investors.", 50, 152)
    ])
    assert.deepStrictEqual(lines, [
      "IF you need to produce a document for publication",
      "robust, professional software which will not let",
      "you down, whether it is an annual report or a",
      "business plan or a white paper for your investors."
    ])
  })

  it("closer to its line than a word space, is the first letter of the line's first word", () => {
    const lines = orderedTexts([
      item("T", 50, 140, 40, 15),
      item("his document, when compared to source code,", 67, 110),
      item("instructs someone on the use of the style file", 67, 122),
      item("for writing documents that look like articles.", 50, 146)
    ])
    assert.strictEqual(lines[0], "This document, when compared to source code,")
  })

  it("over a single line is left on its own baseline", () => {
    const lines = orderedTexts([item("A", 50, 150, 30, 20), item("large initial on one line only", 78, 150)])
    assert.deepStrictEqual(lines, ["A large initial on one line only"])
  })
})
