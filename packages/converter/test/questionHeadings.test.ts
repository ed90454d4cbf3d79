import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item, pageBlocks } from "./support/textItems.js"

/** A question 30 points under the text above, then three two-line paragraphs (12 points a line, 18 between paragraphs). */
const answered = (question: ReadonlyArray<string>, top: number): Array<TextItem> => {
  const start = top + 22 + (question.length - 1) * 12
  return [
    ...question.map((text, i) => item(text, i === 0 ? 50 : 60, top + i * 12)),
    ...[0, 1, 2].flatMap((i) => [
      item("The answer runs over the whole width of the page and then it", 50, start + i * 30),
      item("ends on its second line.", 50, start + i * 30 + 12)
    ])
  ]
}

const headingsOf = (items: ReadonlyArray<TextItem>) =>
  pageBlocks(items).flatMap((block) => block._tag === "Heading" ? [[block.level, block.text] as const] : [])

const section: TextItem = { ...item("19 Tips and tricks", 50, 60, 17), style: Style.strong }

describe("a FAQ's numbered questions in the text's size", () => {
  it("are headings under their section, at one level, a wrapped question whole", () => {
    const items = [
      section,
      ...answered(["1 How can I fit more material in the slides?"], 95),
      ...answered(["2 How can I print just selected overlays or pages of notes in the", "slides format?"], 219)
    ]
    assert.deepStrictEqual(headingsOf(items), [
      [1, "19 Tips and tricks"],
      [2, "1 How can I fit more material in the slides?"],
      [2, "2 How can I print just selected overlays or pages of notes in the slides format?"]
    ])
  })

  it("are not headings alone, without a question mark, or close under the text", () => {
    const alone = [section, ...answered(["1 How can I fit more material in the slides?"], 95)]
    assert.deepStrictEqual(headingsOf(alone), [[1, "19 Tips and tricks"]])
    const statements = [
      section,
      ...answered(["1 Fit more material in the slides"], 95),
      ...answered(["2 Print just selected overlays"], 219)
    ]
    assert.deepStrictEqual(headingsOf(statements), [[1, "19 Tips and tricks"]])
    const close = [
      section,
      ...answered(["1 How can I fit more material in the slides?"], 95),
      ...answered(["2 How do I include a figure?"], 201)
    ]
    assert.deepStrictEqual(headingsOf(close), [[1, "19 Tips and tricks"]])
  })
})
