import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Document } from "../src/index.js"
import { Markdown } from "../src/index.js"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import type { Rule } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"
import { item, styledItem } from "./support/textItems.js"

/** A line of body text with a raised label after `before` and `after` going on beside it. */
const referring = (before: string, label: string, after: string, x: number, y: number, size = 10): Array<TextItem> => {
  const labelX = x + before.length * size / 2
  return [
    item(before, x, y, size),
    item(label, labelX, y - 0.35 * size, 0.6 * size),
    item(after, labelX + label.length * 0.3 * size, y, size)
  ]
}

const separator = (x: number, y: number): Rule => ({ x0: x, x1: x + 100, y0: y, y1: y + 0.4, horizontal: true })

const filler = [
  "Plain text that makes up the body of the page, set in",
  "the running size, line after line, as a book would be",
  "set, long enough for the body size to be the one most",
  "lines have, so that notes are the smaller ones below."
]

const bodyLines = (texts: ReadonlyArray<string>, x: number, y: number, size = 10) =>
  texts.map((text, i) => item(text, x, y + i * size * 1.2, size))

const layout = (items: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule>) =>
  Layout.layoutDocument({
    pages: [{ page: 1, width: 600, height: 800, items, figures: [], rules } satisfies PageText],
    outline: [],
    title: undefined,
    filename: "test"
  })

const footnotes = (document: Document.Document) =>
  document.blocks.filter((block): block is Document.Footnote => block._tag === "Footnote")

describe("a note's own lines", () => {
  it.effect("a URL going on over a note's line end onto a line wholly in a fixed-pitch face stays in the note", () =>
    Effect.sync(() => {
      const document = layout([
        ...bodyLines(filler, 50, 100),
        ...referring("The search takes longer for the reasons below", "38", " and more.", 50, 160),
        item("38. See the answer to the bug report at", 62, 706, 8),
        styledItem("http://www.", 220, 706, Style.code, 8),
        styledItem("latex-project.org/cgi-bin/ltxbugs2html?pr=latex/2618", 50, 716, Style.code, 8)
      ], [separator(50, 698)])
      const notes = footnotes(document)
      assert.strictEqual(notes.length, 1)
      assert.include(notes[0]!.text, "ltxbugs2html")
      assert.notInclude(Markdown.render(document), "```")
    }))

  it.effect("a label on the line followed by a full stop starts a note when the body refers to it, not a list item", () =>
    Effect.sync(() => {
      const document = layout([
        ...bodyLines(filler, 50, 100),
        ...referring("The old commands ignore the font scheme", "14", " of the format.", 50, 160),
        item("14. The New Font Selection Scheme, which the guide", 62, 709, 8),
        item("describes in full, one chapter to each of its parts.", 50, 719, 8)
      ], [separator(50, 698)])
      assert.deepStrictEqual(footnotes(document).map((note) => [note.label, note.text]), [[
        "14",
        "The New Font Selection Scheme, which the guide describes in full, one chapter to each of its parts."
      ]])
      assert.include(Markdown.render(document), "font scheme[^14] of the format.")
    }))

  it.effect("a numbered item at a page's foot that no reference answers stays a list item", () =>
    Effect.sync(() => {
      const document = layout([
        ...bodyLines(filler, 50, 100),
        ...referring("The old commands ignore the font scheme", "14", " of the format.", 50, 160),
        item("1. Load the package that sets the spacing, as the", 62, 709, 8),
        item("guide says, before the document starts.", 50, 719, 8)
      ], [separator(50, 698)])
      assert.deepStrictEqual(footnotes(document), [])
    }))

  it.effect("a line beside another at the next page's foot, each under a short rule (a framed example's halves), goes on with no note", () =>
    Effect.sync(() => {
      const document = Layout.layoutDocument({
        pages: [{
          page: 1,
          width: 600,
          height: 800,
          items: [
            ...bodyLines(filler, 50, 100),
            ...referring("A reference to a note", "1", " in the body.", 50, 160),
            item("1. A note that ends on its own page.", 62, 709, 8)
          ],
          figures: [],
          rules: [separator(50, 698)]
        }, {
          page: 2,
          width: 600,
          height: 800,
          items: [...bodyLines(filler, 50, 100), item(". Replace:", 50, 702, 9), item("with:", 300, 702, 9)],
          figures: [],
          rules: [separator(50, 690), { x0: 298, x1: 470, y0: 690, y1: 690.4, horizontal: true }]
        }],
        outline: [],
        title: undefined,
        filename: "test"
      })
      assert.deepStrictEqual(footnotes(document).map((note) => note.text), ["A note that ends on its own page."])
      assert.include(Markdown.render(document), "with:")
    }))
})
