import { assert, describe, it } from "@effect/vitest"
import { Markdown } from "../src/index.js"
import type { PageText } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { outlinedTitle } from "../src/internal/layout/headings.js"
import { makeLine } from "../src/internal/layout/lines.js"
import { Style } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

const filler = [
  "Plain text that makes up the body of the page, set in",
  "the running size, line after line, as a book would be",
  "set, long enough for the body size to be the one most",
  "lines have, so that notes are the smaller ones below."
]

describe("note symbols on a title and its author line", () => {
  it("one symbol raised after two authors refers both to its one note", () => {
    const page: PageText = {
      page: 1,
      width: 600,
      height: 800,
      items: [
        item("Bil Kleb", 150, 100),
        item("\u2021", 188, 96.5, 7),
        item("and Bill Wood", 194, 100),
        item("\u2021", 258, 96.5, 7),
        ...filler.map((text, i) => item(text, 50, 140 + i * 12)),
        item("\u2021", 50, 711, 6),
        item("Research Scientist", 56, 715, 8)
      ],
      figures: []
    }
    const document = Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" })
    const markdown = Markdown.render(document)
    assert.include(markdown, "Bil Kleb[^note] and Bill Wood[^note]")
    assert.include(markdown, "[^note]: Research Scientist")
  })

  it("a raised figure repeated on a line stays one reference: the other is an exponent", () => {
    const page: PageText = {
      page: 1,
      width: 600,
      height: 800,
      items: [
        item("The area grows as r", 150, 100),
        item("2", 230, 96.5, 7),
        item("and the volume as r", 236, 100),
        item("2", 318, 96.5, 7),
        ...filler.map((text, i) => item(text, 50, 140 + i * 12)),
        item("2", 50, 711, 6),
        item("Both in metres.", 56, 715, 8)
      ],
      figures: []
    }
    const document = Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" })
    const paragraph = document.blocks.find((block) => block._tag === "Paragraph" && block.text.startsWith("The area"))
    assert.strictEqual(paragraph?._tag === "Paragraph" ? paragraph.marks?.length : undefined, 1)
  })

  it("a title whose bookmark is its own words keeps a reference set inside it, not only the last", () => {
    const title = makeLine([
      item("AIAA", 195, 177, 17),
      item("\u2217", 229, 171, 12),
      item("LaTeX Package Users Manual", 241, 177, 17),
      item("\u2020", 462, 171, 12)
    ])
    assert.strictEqual(title.text, "AIAA\u2217 LaTeX Package Users Manual\u2020")
    assert.deepStrictEqual(outlinedTitle(title, "AIAA LaTeX Package Users Manual"), {
      text: "AIAA\u2217 LaTeX Package Users Manual\u2020",
      marks: [{ start: 4, end: 5, style: Style.footnote }, { start: 32, end: 33, style: Style.footnote }]
    })
    // A bookmark in other words is the heading's text, with the references that end the line.
    assert.deepStrictEqual(outlinedTitle(title, "Users Manual"), {
      text: "Users Manual\u2020",
      marks: [{ start: 12, end: 13, style: Style.footnote }]
    })
  })
})
