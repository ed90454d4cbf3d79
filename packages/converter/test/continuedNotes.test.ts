import { assert, describe, it } from "@effect/vitest"
import { footNotes } from "../src/internal/layout/footnotes.js"
import { makeLine } from "../src/internal/layout/lines.js"
import type { OrderedPage, PageItem } from "../src/internal/layout/model.js"
import { styledItem } from "./support/textItems.js"

const filler = [
  "Plain text that makes up the body of the page, set in",
  "the running size, line after line, as a book would be",
  "set, long enough for the body size to be the one most",
  "lines have, so that notes are the smaller ones below."
]

const line = (text: string, x: number, y: number, size: number): PageItem => ({
  _tag: "Line",
  line: makeLine([styledItem(text, x, y, 0, size)])
})

/** The filler from y 500 at 12 pt leading, a line set in from it, a short rule at y 552 from x 43 to 142, then `foot`. */
const page = (foot: ReadonlyArray<PageItem>): OrderedPage => ({
  page: 2,
  height: 800,
  items: [
    ...filler.map((text, i) => line(text, 44, 500 + i * 12, 10)),
    line("\\AtBeginDocument{%", 100, 546, 10),
    ...foot
  ],
  separators: [{ x0: 43.3, x1: 142.1, y0: 552, y1: 552.4, horizontal: true, long: false }]
})

/** A note going on from the page before with an example set in from the note's margin, blank lines in it. */
const example = [
  line("\\newenvironment{foo}{}{}", 84, 561, 8),
  line("\\begin{tabular}{p{\\linewidth}} A \\end{tabular}", 84, 581, 8),
  line("C", 84, 601, 8),
  line("If you try it out you will see an extra blank line in the output above", 64, 614, 8),
  line("the second C, which the end of the environment now avoids.", 56, 625, 8)
]

/** The page's own note, at the column's margin under the note going on. */
const own: PageItem = {
  _tag: "Line",
  line: makeLine([styledItem("12", 44, 633, 0, 6), styledItem("There is also a note of this page.", 50, 636, 0, 8)])
}

const texts = (found: ReturnType<typeof footNotes>) =>
  found.notes.map((note) => [note.label, note.lines.map((l) => l.text).join(" ").slice(note.cut)])

describe("a note going on from the page before", () => {
  it("starts set in past the rule's start, goes on over blank lines between lines at one indent, then the page's notes", () => {
    const found = footNotes(page([...example, own]), 10, true)
    assert.deepStrictEqual(texts(found), [[
      undefined,
      "\\newenvironment{foo}{}{} \\begin{tabular}{p{\\linewidth}} A \\end{tabular} C If you try it out you will see an " +
      "extra blank line in the output above the second C, which the end of the environment now avoids."
    ], ["12", "There is also a note of this page."]])
    assert.strictEqual(found.page.items.length, filler.length + 1)
  })

  it("is none when the page before ended without a note, nor when the rule ends before the line starts", () => {
    assert.deepStrictEqual(footNotes(page(example), 10, false).notes, [])
    const shortRule: OrderedPage = {
      ...page(example),
      separators: [{ x0: 43.3, x1: 80, y0: 552, y1: 552.4, horizontal: true, long: false }]
    }
    assert.deepStrictEqual(footNotes(shortRule, 10, true).notes, [])
  })

  it("does not take a line at the note's indent in the page's bottom band across a blank line's gap (a folio)", () => {
    const foot = [
      line("If you try it out you will see an extra blank line in the output above", 56, 561, 8),
      line("the second C, which the end of the environment now avoids.", 56, 572, 8),
      line("17", 56, 594, 8)
    ]
    const found = footNotes({ ...page(foot), height: 680 }, 10, true)
    assert.strictEqual(texts(found).length, 1)
    assert.notInclude(found.notes[0]!.lines.map((l) => l.text), "17")
    assert.strictEqual(found.page.items.length, filler.length + 2)
  })
})
