import { assert, describe, it } from "@effect/vitest"
import { Markdown } from "../src/index.js"
import type { PageText } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { footNotes } from "../src/internal/layout/footnotes.js"
import { outlinedTitle } from "../src/internal/layout/headings.js"
import { makeLine } from "../src/internal/layout/lines.js"
import type { OrderedPage, PageItem } from "../src/internal/layout/model.js"
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

describe("letters raised as note labels", () => {
  it("one small letter raised after a word is a note mark, as a figure is; on the line it is text", () => {
    const cell = makeLine([item("Learning Curve", 100, 180, 9), item("a", 163, 176.5, 6)])
    assert.strictEqual(cell.text, "Learning Curvea")
    assert.deepStrictEqual(cell.marks, [{ start: 14, end: 15, style: Style.footnote }])
    const note = makeLine([item("a", 100, 596.5, 6), item("1.0 being easiest.", 104, 600, 8)])
    assert.deepStrictEqual(note.marks, [{ start: 0, end: 1, style: Style.footnote }])
    // Set on the line, or a raised word or capital, it is no mark.
    assert.strictEqual(makeLine([item("Curve", 100, 180, 9), item("a", 125, 180, 9)]).marks, undefined)
    assert.strictEqual(makeLine([item("Curve", 100, 180, 9), item("ab", 125, 176.5, 6)]).marks, undefined)
    assert.strictEqual(makeLine([item("Curve", 100, 180, 9), item("A", 125, 176.5, 6)]).marks, undefined)
  })
})

describe("a raised letter's note on its page", () => {
  const page = (foot: ReadonlyArray<PageItem>): OrderedPage => ({
    page: 1,
    height: 800,
    items: [
      { _tag: "Line", line: makeLine([item("The curve grows as x", 44, 560), item("a", 140, 556.5, 6)]) },
      ...filler.map((text, i): PageItem => ({ _tag: "Line", line: makeLine([item(text, 44, 600 + i * 12)]) })),
      ...foot
    ],
    separators: [{ x0: 43.3, x1: 142.1, y0: 690, y1: 690.8, horizontal: true, long: false }]
  })
  const firstMarks = (found: ReturnType<typeof footNotes>) =>
    found.page.items[0]?._tag === "Line" ? found.page.items[0].line.marks : undefined

  it("makes it a reference; without one it is an exponent, not a reference", () => {
    const note: PageItem = {
      _tag: "Line",
      line: makeLine([item("a", 44, 696.5, 6), item("Measured in the field.", 48, 700, 8)])
    }
    const noted = footNotes(page([note]), 10, false)
    assert.deepStrictEqual(noted.notes.map((n) => n.label), ["a"])
    assert.deepStrictEqual(firstMarks(noted), [{ start: 20, end: 21, style: Style.footnote }])
    assert.strictEqual(firstMarks(footNotes(page([]), 10, false)), undefined)
  })
})
