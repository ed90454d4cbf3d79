import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Document } from "../src/index.js"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { footNotes } from "../src/internal/layout/footnotes.js"
import { makeLine } from "../src/internal/layout/lines.js"
import type { OrderedPage, PageItem, Rule, Separator } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"
import { item, styledItem } from "./support/textItems.js"

/** A line of body text with a raised label after `before` and `after` going on beside it. */
const referring = (before: string, label: string, after: string, x: number, y: number): Array<TextItem> => {
  const labelX = x + before.length * 5
  return [item(before, x, y), item(label, labelX, y - 3.5, 6), item(after, labelX + label.length * 3, y)]
}

/** A footnote separator: a short thin rule at the column's left. */
const separator = (x: number, y: number): Rule => ({ x0: x, x1: x + 100, y0: y, y1: y + 0.4, horizontal: true })

const page = (items: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule>): PageText => ({
  page: 1,
  width: 600,
  height: 800,
  items,
  figures: [],
  rules
})

const bodyLines = (texts: ReadonlyArray<string>, x: number, y: number, size = 10) =>
  texts.map((text, i) => item(text, x, y + i * size * 1.2, size))

const filler = [
  "Plain text that makes up the body of the page, set in",
  "the running size, line after line, as a book would be",
  "set, long enough for the body size to be the one most",
  "lines have, so that notes are the smaller ones below."
]

const footnotes = (pages: ReadonlyArray<PageText>) =>
  Layout.layoutDocument({ pages: [...pages], outline: [], title: undefined, filename: "test" }).blocks.filter((
    block
  ): block is Document.Footnote => block._tag === "Footnote")

describe("where a page's foot notes end or start", () => {
  it.effect("a note above a float framed by a rule across the page (LaTeX's bottom float) ends at that rule", () =>
    Effect.sync(() => {
      const notes = (rules: ReadonlyArray<Rule>) =>
        footnotes([page([
          ...bodyLines(filler, 50, 100),
          ...referring("Two demonstrations from the Junicode font", "9", " are shown below.", 50, 160),
          ...bodyLines(["A last line of the body ends the text here."], 50, 172),
          item("9", 50, 401, 6),
          item("http://junicode.sf.net", 54, 405, 8),
          item("Example 29: an example framed above and below.", 80, 440),
          item("\\fontspec{Hiragino Mincho Pro}", 300, 460)
        ], rules)])
      const note = { _tag: "Footnote", label: "9", text: "http://junicode.sf.net" }
      const frame = { x0: 40, x1: 560, y0: 425, y1: 425.4, horizontal: true }
      assert.deepStrictEqual(notes([separator(50, 390), frame]), [note])
      // Without the frame, lines below that are no notes and no folio leave the block as body text.
      assert.deepStrictEqual(notes([separator(50, 390)]), [])
    }))

  it("a note set in a fixed-pitch face (a URL) right below a short rule is a note, not a listing's last line", () => {
    const line = (text: string, x: number, y: number, size: number, style = 0): PageItem => ({
      _tag: "Line",
      line: makeLine([styledItem(text, x, y, style, size)])
    })
    const ordered = (separators: ReadonlyArray<Separator>): OrderedPage => ({
      page: 1,
      height: 800,
      items: [
        ...filler.map((text, i) => line(text, 44, 600 + i * 12, 10)),
        line("\\usepackage[english]{babel}", 60, 660, 10, Style.code),
        line("15", 54.8, 701.3, 6),
        line("http://www.tex.ac.uk/cgi-bin/texfaq2html?label=ifpdf", 61.5, 704.1, 8, Style.code)
      ],
      separators
    })
    const rule: Separator = { x0: 43.3, x1: 142.1, y0: 694.3, y1: 695.1, horizontal: true, long: false }
    const found = footNotes(ordered([rule]), 10, false)
    assert.deepStrictEqual(
      found.notes.map((note) => [note.label, note.lines.map((l) => l.text).join(" ").slice(note.cut)]),
      [["15", "http://www.tex.ac.uk/cgi-bin/texfaq2html?label=ifpdf"]]
    )
    // Without the rule, a fixed-pitch line low on the page stays in the body (a listing's line).
    assert.deepStrictEqual(footNotes(ordered([]), 10, false).notes, [])
  })
})
