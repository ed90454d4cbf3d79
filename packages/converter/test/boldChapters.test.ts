import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item, styledItem } from "./support/textItems.js"

/** Paragraphs of 10-point text from `top`: two lines each, 14 points apart, paragraphs 34 apart. */
const text = (top: number, count = 3): Array<TextItem> =>
  Array.from({ length: count }, (_, i) => [
    item("The chapter's text runs over the whole width of the page and", 50, top + i * 34),
    item("ends on its second line.", 50, top + i * 34 + 14)
  ]).flat()

/** A title page: the thesis's title in 20 points over a paragraph. */
const titlePage: Array<TextItem> = [styledItem("The Suitability of LaTeX", 150, 100, Style.strong, 20), ...text(150, 1)]

const headings = (pages: ReadonlyArray<ReadonlyArray<TextItem>>) => {
  const texts: Array<PageText> = [titlePage, ...pages].map((items, i) => ({
    page: i + 1,
    width: 600,
    height: 800,
    items,
    figures: []
  }))
  return Layout.layoutDocument({ pages: texts, outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Heading" ? [[block.level, block.text] as const] : [])
}

/** Where an 11-point line starts to stand centred on the page (half an em a character). */
const centred = (line: string): number => 300 - line.length * 2.75

/** A thesis class's chapter: "Chapter N" in an 11-point roman over its title in 11-point bold capitals (too small for a size's heading), `top` down the page. */
const chapter = (label: string, title: ReadonlyArray<string>, top = 100): Array<TextItem> => [
  item(label, centred(label), top, 11),
  ...title.map((line, i) => styledItem(line, centred(line), top + 22 + i * 16, Style.strong, 11)),
  ...text(top + 70 + title.length * 16),
  styledItem("1.1 The Purpose of This Sample", 50, top + 230 + title.length * 16, Style.strong),
  ...text(top + 260 + title.length * 16, 2)
]

describe("a chapter's label over a bold title a little larger than the text", () => {
  it("is one chapter heading with its title (and the title's second line), over its numbered sections", () => {
    const found = headings([
      chapter("Chapter 1", ["INTRODUCTION"]),
      chapter("Chapter 2", ["A BRIEF", "DESCRIPTION"], 160)
    ])
    assert.deepStrictEqual(found, [
      [1, "The Suitability of LaTeX"],
      [1, "Chapter 1 INTRODUCTION"],
      [2, "1.1 The Purpose of This Sample"],
      [1, "Chapter 2 A BRIEF DESCRIPTION"],
      [2, "1.1 The Purpose of This Sample"]
    ])
  })

  it("makes a bold title set alone in that face a chapter too (a bibliography's)", () => {
    const bibliography = [styledItem("BIBLIOGRAPHY", centred("BIBLIOGRAPHY"), 100, Style.strong, 11), ...text(150)]
    const found = headings([chapter("Chapter 1", ["INTRODUCTION"]), bibliography])
    assert.deepInclude(found, [1, "BIBLIOGRAPHY"])
  })
})

describe("numbered section titles in the text's size", () => {
  const page = (title: ReadonlyArray<TextItem>): Array<TextItem> => [...text(100), ...title, ...text(250)]

  it("a bold title over two lines is one heading at its number's depth", () => {
    const found = headings([page([
      styledItem("2.1 What is it; why is it spelled that way; and what do really long", 50, 210, Style.strong),
      styledItem("section titles look like?", 50, 224, Style.strong)
    ])])
    assert.deepStrictEqual(found, [[1, "The Suitability of LaTeX"], [
      2,
      "2.1 What is it; why is it spelled that way; and what do really long section titles look like?"
    ]])
  })

  it("an italic one-line title is a heading at its number's depth; an italic sentence is not", () => {
    assert.deepStrictEqual(headings([page([styledItem("3.2.1 Chapters and Sections", 50, 210, Style.emphasis)])]), [
      [1, "The Suitability of LaTeX"],
      [3, "3.2.1 Chapters and Sections"]
    ])
    assert.deepStrictEqual(headings([page([styledItem("3.2.1 is the version we used.", 50, 210, Style.emphasis)])]), [
      [1, "The Suitability of LaTeX"]
    ])
  })
})
