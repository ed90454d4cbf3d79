import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Document } from "../src/index.js"
import { Markdown } from "../src/index.js"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import type { Rule } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

/** Lines of a column at 12 pt leading from `y`. */
const column = (texts: ReadonlyArray<string>, x: number, y: number): Array<TextItem> =>
  texts.map((text, i) => item(text, x, y + i * 12, 10, 230))

/** A line of a column with `label` raised after `before`, `after` going on beside it. */
const referring = (before: string, label: string, after: string, x: number, y: number): Array<TextItem> => {
  const labelX = x + before.length * 5
  return [item(before, x, y), item(label, labelX, y - 3.5, 6), item(after, labelX + label.length * 3, y)]
}

/** A note at a column's foot: its raised label, then its text in 8 pt. */
const note = (label: string, text: string, x: number, y: number): Array<TextItem> => [
  item(label, x, y - 3, 6),
  item(text, x + label.length * 3 + 1, y, 8)
]

const left = [
  "Plain text that makes up the body of the left column,",
  "set in the running size, line after line, as a paper",
  "would be set, long enough for the body size to be the",
  "one most lines have, so that its notes are smaller."
]
const right = [
  "The right column goes on beside the notes of the left",
  "one: its lines are the body, read after the left ones,",
  "and nothing of the notes stands between them at all,",
  "down to the last line of the right column of the page."
]

/** A two-column page (columns at 50 and 320) whose left column ends in notes under a short rule. */
const twoColumns = (labels: readonly [string, string]): PageText => ({
  page: 1,
  width: 600,
  height: 800,
  items: [
    ...column(left, 50, 100),
    ...referring("The title of this paper", labels[0], " is set as", 50, 148),
    ...referring("the body, and an author", labels[1], " comes after.", 50, 160),
    ...column([...right, ...right, ...right], 320, 100),
    ...note(labels[0], "Footnote to title of article.", 50, 700),
    ...note(labels[1], "Also at Physics Department, XYZ University.", 50, 710)
  ],
  figures: [],
  rules: [{ x0: 50, x1: 130, y0: 690, y1: 690.4, horizontal: true } satisfies Rule]
})

const convert = (page: PageText): Document.Document =>
  Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "test" })

const footnotes = (document: Document.Document) =>
  document.blocks.flatMap((block) => block._tag === "Footnote" ? [[block.label, block.text]] : [])

describe("notes at the foot of a column", () => {
  it.effect("notes labelled by a raised letter and a parenthesis (AIP's \"a)\") answer their references", () =>
    Effect.sync(() => {
      const document = convert(twoColumns(["a)", "b)"]))
      assert.deepStrictEqual(footnotes(document), [
        ["a)", "Footnote to title of article."],
        ["b)", "Also at Physics Department, XYZ University."]
      ])
      const markdown = Markdown.render(document)
      assert.include(markdown, "The title of this paper[^a] is set as")
      assert.include(markdown, "an author[^b] comes after.")
      const body = markdown.split("\n").filter((line) => !line.startsWith("[^")).join("\n")
      assert.notInclude(body, "Footnote to title")
      assert.include(body, "so that its notes are smaller.")
      assert.include(body, "down to the last line of the right column of the page.")
    }))

  it.effect("a raised capital or a longer word with a parenthesis is no note's label", () =>
    Effect.sync(() => {
      const document = convert(twoColumns(["A)", "ab)"]))
      assert.deepStrictEqual(footnotes(document), [])
      assert.include(Markdown.render(document), "Also at Physics Department, XYZ University.")
    }))

  /** The left column's line "... bibliography¹." under a right column's heading set a little lower than the line above. */
  const punctuated = (label: string): PageText => ({
    page: 1,
    width: 600,
    height: 800,
    items: [
      ...column(left, 54, 303),
      item("duced using the \\footnote{#1} command. Numeri-", 54, 351.1, 10, 245),
      item("A. Multiline equations", 317, 356.8, 9, 98),
      item(label, 291.9, 358.9, 7, 3.9),
      item("cal style citations put footnotes into the bibliography", 54, 362.6, 10, 237.6),
      item(".", 296.3, 362.6, 10, 2.8),
      item("Author-year and numerical author-year citation styles", 54, 374, 10, 244.8),
      ...column(right, 317, 380),
      item("1", 54, 720.5, 6),
      item("Automatically placing footnotes into the bibliography requires", 58, 723.5, 8, 238),
      item("using BibTeX to compile the bibliography.", 58, 732.5, 8, 150)
    ],
    figures: [],
    rules: [{ x0: 54, x1: 134, y0: 712, y1: 712.4, horizontal: true } satisfies Rule]
  })

  it.effect("a reference raised before a line's full stop, taken into the other column's baseline, goes back before the stop", () =>
    Effect.sync(() => {
      const document = convert(punctuated("1"))
      assert.deepStrictEqual(footnotes(document), [
        [
          "1",
          "Automatically placing footnotes into the bibliography requires using BibTeX to compile the bibliography."
        ]
      ])
      const markdown = Markdown.render(document)
      assert.include(markdown, "Numerical style citations put footnotes into the bibliography[^1]. Author-year")
      assert.notInclude(markdown, "Numeri- 1")
    }))

  it.effect("a raised piece that is no label stays where it was", () =>
    Effect.sync(() => {
      const markdown = Markdown.render(convert(punctuated("x")))
      assert.notInclude(markdown, "bibliographyx")
      assert.notInclude(markdown, "bibliography[^")
    }))
})
