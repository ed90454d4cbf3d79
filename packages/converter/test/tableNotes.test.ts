import { assert, describe, it } from "@effect/vitest"
import * as Fflate from "fflate"
import type { Document } from "../src/index.js"
import { Epub, Markdown } from "../src/index.js"
import { Style } from "../src/internal/layout/model.js"
import { tableNotes } from "../src/internal/layout/tableNotes.js"

const paragraph = (text: string, marks?: ReadonlyArray<Document.Mark>): Document.Paragraph =>
  marks === undefined ? { _tag: "Paragraph", text } : { _tag: "Paragraph", text, marks }

const markdown = (blocks: ReadonlyArray<Document.Block>): string =>
  Markdown.render({ title: "t", language: "en", pages: 1, blocks: tableNotes(blocks) })

describe("notes set under a table", () => {
  it("a dagger beside several cells' words refers, each, to the note under the table", () => {
    const text = markdown([
      { _tag: "Table", rows: [["Option", "Tag"], ["Swash", "cswh †"], ["Alternate", "calt †"], ["Reset", "-"]] },
      paragraph("† These options can be disabled with Off variants."),
      paragraph("The text goes on.")
    ])
    assert.include(text, "| Swash | cswh [^note] |")
    assert.include(text, "| Alternate | calt [^note] |")
    assert.include(text, "[^note]: These options can be disabled with Off variants.")
    assert.notInclude(text, "†")
  })

  it("a column holding only daggers refers, cell by cell, to the note under the table", () => {
    const text = markdown([
      { _tag: "Table", rows: [["Option", "Tag", ""], ["Swash", "cswh", "†"], ["Alternate", "calt", "†"]] },
      paragraph("† These options can be disabled with Off variants.")
    ])
    assert.include(text, "| Swash | cswh | [^note] |")
    assert.include(text, "| Alternate | calt | [^note] |")
    assert.notInclude(text, "†")
  })

  it("rows read as paragraphs refer to the note as a table's cells do; the note keeps its place", () => {
    const blocks = tableNotes([
      paragraph("Table 6: Options for the feature."),
      paragraph("Contextuals = Swash cswh † Alternate calt †", [{ start: 20, end: 24, style: Style.code }]),
      paragraph("ResetAll"),
      paragraph("† These options can be disabled.")
    ])
    assert.deepStrictEqual(blocks[1], {
      _tag: "Paragraph",
      text: "Contextuals = Swash cswh † Alternate calt †",
      marks: [
        { start: 20, end: 24, style: Style.code },
        { start: 25, end: 26, style: Style.footnote },
        { start: 42, end: 43, style: Style.footnote }
      ]
    })
    assert.deepStrictEqual(blocks[3], { _tag: "Footnote", label: "†", text: "These options can be disabled." })
  })

  it("an asterisk set after a cell's word, before its full stop, is a reference; the note's emphasis stays", () => {
    const note = "*The term means a smell."
    const text = markdown([
      { _tag: "Table", rows: [["Nose", "Mouth"], ["a trace of Band-Aid*.", "Round."]] },
      paragraph(note, [{ start: 0, end: note.length, style: Style.emphasis }])
    ])
    assert.include(text, "| a trace of Band-Aid[^note]. | Round. |")
    assert.include(text, "[^note]: *The term means a smell.*")
  })

  it("a dagger-led note that nothing above refers to is still a note, not body text", () => {
    const blocks = tableNotes([
      { _tag: "Table", rows: [["Option", "Tag"], ["On", "+locl"]] },
      paragraph("† These options can be disabled.")
    ])
    assert.deepStrictEqual(blocks[1], { _tag: "Footnote", label: "†", text: "These options can be disabled." })
  })

  it("a letter raised in a table's cell refers to the note the same letter leads under it", () => {
    const blocks = tableNotes([
      {
        _tag: "Table",
        rows: [["Site", "Deaths"], ["Ponce", "41a"]],
        marks: [[[], []], [[], [{ start: 2, end: 3, style: Style.footnote }]]]
      },
      paragraph("a Counted from the death certificates.")
    ])
    assert.deepStrictEqual(blocks[1], { _tag: "Footnote", label: "a", text: "Counted from the death certificates." })
  })

  it("text that only looks like a note stays text", () => {
    const blocks: ReadonlyArray<Document.Block> = [
      paragraph("Match every file with *.txt or * alone, then the next step."),
      paragraph("* Files are read in order."),
      paragraph("a note on the step above, set as a plain paragraph."),
      { _tag: "Table", rows: [["Step", "Count"], ["one", "1"]] },
      paragraph("1 more step follows the table.")
    ]
    assert.deepStrictEqual(tableNotes(blocks), [...blocks])
  })

  it("a heading between a reference and a note ends what the note may refer to", () => {
    const blocks: ReadonlyArray<Document.Block> = [
      paragraph("A word* in a paragraph."),
      { _tag: "Heading", level: 2, text: "Next section" },
      paragraph("*Starred items are optional.")
    ]
    assert.deepStrictEqual(tableNotes(blocks), [...blocks])
  })

  it("in EPUB each reference of the table links to the note's aside", () => {
    const blocks = tableNotes([
      { _tag: "Table", rows: [["Option", "Tag"], ["Swash", "cswh †"], ["Alternate", "calt †"]] },
      paragraph("† These options can be disabled.")
    ])
    const files = Fflate.unzipSync(Epub.build({ title: "t", language: "en", pages: 1, blocks }))
    const xhtml = new TextDecoder().decode(files["OEBPS/chapter-001.xhtml"])
    const reference = "<sup><a epub:type=\"noteref\" href=\"#fn-note\">†</a></sup>"
    assert.include(xhtml, `<td>cswh ${reference}</td>`)
    assert.include(xhtml, `<td>calt ${reference}</td>`)
    assert.include(
      xhtml,
      "<aside epub:type=\"footnote\" id=\"fn-note\"><p>† These options can be disabled.</p></aside>"
    )
  })
})

describe("notes labelled with an italic letter (LaTeX's minipage notes)", () => {
  it("an italic letter after a row's word refers to the note that letter leads, in any script", () => {
    const row = "بدون در نظر گرفتن پارامترهای داخلیآ !"
    const note = "آمانند ماکسیمم تعداد اشیاء شناور در یک صفحه"
    const blocks = tableNotes([
      paragraph("در یک صفحۀ ویژه که تنها شامل اجسام شناور است."),
      paragraph(row, [{ start: 34, end: 35, style: Style.emphasis }]),
      paragraph(note, [{ start: 0, end: 1, style: Style.emphasis }])
    ])
    assert.deepStrictEqual(blocks[1], {
      _tag: "Paragraph",
      text: row,
      marks: [{ start: 34, end: 35, style: Style.footnote }]
    })
    assert.deepStrictEqual(blocks[2], {
      _tag: "Footnote",
      label: "آ",
      text: "مانند ماکسیمم تعداد اشیاء شناور در یک صفحه"
    })
  })

  it("an italic letter leading a paragraph that no word above carries is text", () => {
    const blocks: ReadonlyArray<Document.Block> = [
      paragraph("Let the sides be a and b, each in metres.", [{ start: 17, end: 18, style: Style.emphasis }]),
      paragraph("a is the longer side.", [{ start: 0, end: 1, style: Style.emphasis }])
    ]
    assert.deepStrictEqual(tableNotes(blocks), [...blocks])
  })
})
