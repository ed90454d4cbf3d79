import { assert, describe, it } from "@effect/vitest"
import { Markdown } from "../src/index.js"
import type { PageText } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { footNotes } from "../src/internal/layout/footnotes.js"
import { makeLine } from "../src/internal/layout/lines.js"
import type { OrderedPage, PageItem } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"
import { item, styledItem } from "./support/textItems.js"

const filler = [
  "Plain text that makes up the body of the page, set in",
  "the running size, line after line, as a book would be",
  "set, long enough for the body size to be the one most",
  "lines have, so that notes are the smaller ones below."
]

const line = (text: string, x: number, y: number, size: number, style = 0): PageItem => ({
  _tag: "Line",
  line: makeLine([styledItem(text, x, y, style, size)])
})

/** An ordered page of the filler at 12 pt leading from y 600, then `foot`. */
const ordered = (foot: ReadonlyArray<PageItem>, above: ReadonlyArray<PageItem> = []): OrderedPage => ({
  page: 1,
  height: 800,
  items: [...above, ...filler.map((text, i) => line(text, 44, 600 + i * 12, 10)), ...foot],
  separators: [{ x0: 43.3, x1: 142.1, y0: 690, y1: 690.8, horizontal: true, long: false }]
})

const noteTexts = (found: ReturnType<typeof footNotes>) =>
  found.notes.map((note) => [note.label, note.lines.map((l) => l.text).join(" ").slice(note.cut)])

describe("footnotes of LaTeX journal classes", () => {
  it("several labels raised as one run, commas between them, are one reference each (elsarticle's \"1,∗\")", () => {
    const author = makeLine([item("Jos Migchielsen", 100, 180), item("1,\u2217", 175, 176.5, 7)])
    assert.strictEqual(author.text, "Jos Migchielsen1,\u2217")
    assert.deepStrictEqual(author.marks, [
      { start: 15, end: 16, style: Style.footnote },
      { start: 17, end: 18, style: Style.footnote }
    ])
    // On the baseline it is text, and a raised run of words is no label.
    assert.strictEqual(makeLine([item("Values 1,2", 100, 180), item("and 3", 150, 180)]).marks, undefined)
    assert.strictEqual(makeLine([item("Jos Migchielsen", 100, 180), item("a,b,c", 175, 176.5, 7)]).marks, undefined)
  })

  it("both notes of a comma-separated pair of labels, below a gap, leave the body and are referenced there", () => {
    const page: PageText = {
      page: 1,
      width: 600,
      height: 800,
      items: [
        item("CV Rajagopal", 250, 100),
        item("1,3", 310, 96.5, 7),
        ...filler.map((text, i) => item(text, 50, 140 + i * 12)),
        item("1", 50, 711, 6),
        item("This is the first author footnote.", 54, 715, 8),
        item("3", 50, 722, 6),
        item("Yet another author footnote.", 54, 726, 8)
      ],
      figures: []
    }
    const document = Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" })
    const notes = document.blocks.flatMap((block) => block._tag === "Footnote" ? [[block.label, block.text]] : [])
    assert.deepStrictEqual(notes, [["1", "This is the first author footnote."], ["3", "Yet another author footnote."]])
    assert.include(Markdown.render(document), "CV Rajagopal[^1],[^3]")
  })

  it("a foot block whose notes are pieces of a formula (a lone \"2 +\") is not notes; one with words is", () => {
    const raised = makeLine([item("where the power", 44, 560), item("2", 120, 556.5, 7)])
    const above: Array<PageItem> = [{ _tag: "Line", line: raised }]
    const formula = footNotes(ordered([line("2 +", 60, 702, 8)], above), 10, false)
    assert.deepStrictEqual(formula.notes, [])
    const words = footNotes(ordered([line("2 Where the power comes from.", 44, 702, 8)], above), 10, false)
    assert.deepStrictEqual(noteTexts(words), [["2", "Where the power comes from."]])
  })

  it("a label alone on its line joins its note's first line when that line starts in bold (REVTeX via dvips)", () => {
    const title = makeLine([item("with Forced Linebreak", 240, 76, 12), item("\u2217", 372, 71.6, 8)])
    const found = footNotes(
      ordered([
        line("\u2217", 55.3, 700.5, 6),
        line("A footnote to the article title", 62.5, 703.3, 8, Style.strong)
      ], [{ _tag: "Line", line: title }]),
      10,
      false
    )
    assert.deepStrictEqual(noteTexts(found), [["\u2217", "A footnote to the article title"]])
    assert.strictEqual(found.page.items.length, filler.length + 1)
  })

  it("question marks raised and set smaller are note marks (a note symbol the font left unmapped); on the line they are text", () => {
    const title = makeLine([item("This is a specimen title", 211, 151.7, 14.3), item("?,??", 360, 146.5, 10)])
    assert.deepStrictEqual(title.marks, [
      { start: 24, end: 25, style: Style.footnote },
      { start: 26, end: 28, style: Style.footnote }
    ])
    const note = makeLine([item("?", 116.2, 612.1, 6), item("This document is the results.", 120.7, 614.9, 8)])
    assert.deepStrictEqual(note.marks, [{ start: 0, end: 1, style: Style.footnote }])
    assert.strictEqual(makeLine([item("Is it", 100, 180), item("?", 125, 180)]).marks, undefined)
  })
})
