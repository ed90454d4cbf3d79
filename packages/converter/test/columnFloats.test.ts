import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

const page = (number: number, items: ReadonlyArray<TextItem>): PageText => ({
  page: number,
  width: 600,
  height: 800,
  items,
  figures: []
})

const texts = (pages: ReadonlyArray<PageText>): Array<string> =>
  Layout.layoutDocument({ pages: [...pages], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block: Document.Block
  ) => block._tag === "Paragraph" || block._tag === "Heading" ? [block.text] : [])

/** Lines of running text 12 points apart at the margin, each across the column. */
const running = (lines: ReadonlyArray<string>, y: number, x = 50): Array<TextItem> =>
  lines.map((text, i) => item(text, x, y + i * 12, 10, 450))

const before = page(
  1,
  running([
    "Figures are marked up with the figure environment, the content of which",
    "imports the image followed by the figure caption. The argument of the",
    "latter command should"
  ], 100)
)

describe("a float at the top of a page, above a sentence going on", () => {
  it("is read after the paragraph it cut", () => {
    const after = page(2, [
      item("y", 200, 60),
      item("x", 320, 120),
      item("Fig. 1 A figure caption, set in smaller print.", 120, 160, 8),
      ...running(["itself contain a label command if you wish to refer to the figure"], 200),
      item("from the text.", 50, 212, 10, 70),
      ...running(["Import your image using either the graphics or graphicx packages."], 224).map((placed) => ({
        ...placed,
        x: 65
      }))
    ])
    const read = texts([before, after])
    const sentence = read.findIndex((text) => text.includes("latter command should itself contain a label command"))
    assert.isAtLeast(sentence, 0)
    assert.include(read[sentence], "refer to the figure from the text.")
    assert.isAbove(read.findIndex((text) => text.startsWith("Fig. 1 A figure caption")), sentence)
  })

  it("is read after the paragraph it cut when the text under it goes on with a command set in the sentence", () => {
    const after = page(2, [
      item("r0 = 1", 200, 60),
      item("FIGURE 1: A caption under the drawing", 120, 160, 8),
      ...running(["\\affil{n}. Two or more authors may be joint first authors by putting"], 200),
      item("the command after it.", 50, 212, 10, 100),
      ...running(["After setting up the headers, issue the title command."], 236).map((placed) => ({
        ...placed,
        x: 65
      }))
    ])
    const read = texts([before, after])
    const cut = read.findIndex((text) => text.endsWith("latter command should"))
    const sentence = read.findIndex((text) => text.startsWith("\\affil{n}. Two or more"))
    assert.isAtLeast(cut, 0)
    assert.strictEqual(sentence, cut + 1, read.join(" | "))
    assert.isAbove(read.findIndex((text) => text.startsWith("FIGURE 1: A caption")), sentence)
  })

  it("stays where it is when the text under it starts a sentence, or when no caption makes it a float", () => {
    const sentence = page(2, [
      item("Fig. 1 A figure caption, set in smaller print.", 120, 160, 8),
      ...running(["Itself a new sentence, this line does not go on with the page before."], 200)
    ])
    assert.include(texts([before, sentence]).join("\n"), "Fig. 1 A figure caption, set in smaller print.\nItself")
    const code = page(2, [
      item("For example:", 50, 60, 10, 65),
      item("x = load(figure)", 70, 80, 8),
      ...running(["where the figure is read from its file and shown as it is."], 120)
    ])
    const read = texts([before, code])
    assert.isBelow(
      read.findIndex((text) => text.startsWith("For example")),
      read.findIndex((text) => text.startsWith("where"))
    )
  })
})
