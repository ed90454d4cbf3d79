import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item, pageBlocks, styledItem } from "./support/textItems.js"

const boldItalic = Style.strong | Style.emphasis

/** Questions in 11-point bold italic over 10-point text (JSS's sections), each over a paragraph of eight lines. */
const faq = (questions: ReadonlyArray<ReadonlyArray<string>>, headingStyle = boldItalic): Array<TextItem> => {
  const items: Array<TextItem> = [styledItem("Frequently Asked Questions", 50, 60, Style.strong, 16)]
  let y = 100
  for (const lines of questions) {
    for (const line of lines) {
      items.push(styledItem(line, 50, y, headingStyle, 11))
      y += 14
    }
    for (let i = 0; i < 8; i++) {
      items.push(item(`Line ${i + 1} of the answer runs over the whole width of the column of text`, 50, y + 4))
      y += 12
    }
    y += 20
  }
  return items
}

const headingsOf = (blocks: ReturnType<typeof pageBlocks>) =>
  blocks.flatMap((block) => block._tag === "Heading" ? [[block.level, block.text] as const] : [])

describe("bold headings a point larger than the text", () => {
  it("numbered questions over one or two lines are headings under the title, not list items", () => {
    const blocks = pageBlocks(faq([
      ["1. I know that times are not allowed twice but my data has them.", "What do I do?"],
      ["2. How do I plot it?"],
      ["What is the difference between the two dates?"]
    ]))
    assert.deepStrictEqual(headingsOf(blocks), [
      [1, "Frequently Asked Questions"],
      [2, "1. I know that times are not allowed twice but my data has them. What do I do?"],
      [2, "2. How do I plot it?"],
      [2, "What is the difference between the two dates?"]
    ])
    assert.isFalse(blocks.some((block) => block._tag === "List"))
  })

  it("a size that also sets text in a plain face is no heading face", () => {
    const items = faq([["1. How do I install it?"], ["2. How do I plot it?"]])
    items.push(item("A note set at the larger size in a plain face.", 50, 700, 11))
    const blocks = pageBlocks(items)
    assert.deepStrictEqual(headingsOf(blocks), [[1, "Frequently Asked Questions"]])
  })
})
