import { assert, describe, it } from "@effect/vitest"
import type { OutlineEntry, PageText } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

/** A 720 x 540 slide: its title at the top left in 28 points, then bullets in 32 (as Impress sets them). */
const slide = (page: number, title: ReadonlyArray<string>, bullets: ReadonlyArray<string>): PageText => ({
  page,
  width: 720,
  height: 540,
  items: [
    ...title.map((line, i) => item(line, 7, 62 + i * 34, 28)),
    ...bullets.flatMap((text, i) => [item("•", 43, 160 + i * 46, 32, 10), item(text, 70, 160 + i * 46, 32)])
  ],
  figures: []
})

const headings = (pages: ReadonlyArray<PageText>, outline: ReadonlyArray<OutlineEntry> = []) =>
  Layout.layoutDocument({ pages: [...pages], outline, title: undefined, filename: "t" }).blocks.flatMap((block) =>
    block._tag === "Heading" ? [[block.level, block.text] as const] : []
  )

const titles = [
  "Defining a Model",
  "Defining a View",
  "The Kinds of Views",
  "Modal Views",
  "Live Views",
  "Panel Views"
]

describe("slide titles", () => {
  it("a deck's pages start with their title at one place: a heading, though set smaller than the bullets", () => {
    const deck = titles.map((title, i) => slide(i + 1, [title], ["Suspend the application", "Operate on the model"]))
    assert.deepStrictEqual(headings(deck), titles.map((title) => [1, title] as const))
  })

  it("a title over two lines is one heading; a title page's larger title stands over the slides' titles", () => {
    const opening: PageText = {
      page: 1,
      width: 720,
      height: 540,
      items: [item("Traits", 280, 153, 60), item("User Interface", 166, 225, 60)],
      figures: []
    }
    const deck = [
      opening,
      slide(2, ["GUI Design 101: The Model, View, Controller", "Approach"], ["The Traits UI supports MVC"]),
      ...titles.map((title, i) => slide(i + 3, [title], ["Operate on the model"]))
    ]
    const found = headings(deck)
    assert.deepStrictEqual(found.slice(0, 3), [
      [1, "Traits User Interface"],
      [2, "GUI Design 101: The Model, View, Controller Approach"],
      [2, "Defining a Model"]
    ])
  })

  it("under an outline of sections, the slides' titles are one level deeper", () => {
    const deck = titles.map((title, i) => slide(i + 1, [title], ["Operate on the model"]))
    const outline: Array<OutlineEntry> = [
      { title: "Introduction", level: 1, page: 1, top: 0 },
      { title: "Views", level: 1, page: 3, top: 0 }
    ]
    const found = headings(deck, outline)
    assert.deepStrictEqual(found.filter(([, text]) => text === "Defining a View"), [[2, "Defining a View"]])
  })

  it("pages of running text, or one line repeated at every page's top, are not a deck", () => {
    const prose = [1, 2, 3, 4, 5, 6].map((n): PageText => ({
      page: n,
      width: 600,
      height: 800,
      items: [0, 1, 2, 3, 4, 5].map((i) => item(`Line ${i} of the running text on page ${n} goes on`, 50, 80 + i * 12)),
      figures: []
    }))
    assert.deepStrictEqual(headings(prose), [])
    // A line each page starts with, then its text after a gap: a running head, not six slides' titles.
    const drafts = [1, 2, 3, 4, 5, 6].map((n): PageText => ({
      page: n,
      width: 600,
      height: 800,
      items: [
        item("Draft", 50, 40),
        ...[0, 1, 2, 3, 4].map((i) => item(`Line ${i} of the running text on page ${n} goes on`, 50, 80 + i * 12))
      ],
      figures: []
    }))
    assert.deepStrictEqual(headings(drafts), [])
  })
})
