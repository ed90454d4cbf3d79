import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

/** A page of body text with a line set apart at its head (y 30) or foot (y 780) of an 800-point page. */
const page = (number: number, top: ReadonlyArray<TextItem>, bottom: ReadonlyArray<TextItem>): PageText => ({
  page: number,
  width: 600,
  height: 800,
  items: [
    ...top,
    item(`Body text of page ${number} goes on here in a sentence that is long enough.`, 50, 300),
    item("More of it follows on the next line of the body of this page, and ends.", 50, 312),
    ...bottom
  ],
  figures: []
})

const text = (pages: ReadonlyArray<PageText>): string =>
  Layout.layoutDocument({ pages: [...pages], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Paragraph" ? [block.text] : []).join("\n")

describe("a journal's first-page head", () => {
  it("starting with the journal line found at every page's foot, is furniture with what follows it", () => {
    const journal = (n: number) => [item("JOURNAL 000, 1-5 (2020)", 50, 780)].filter(() => n > 1)
    const pages = [1, 2, 3, 4, 5].map((n) =>
      page(
        n,
        n === 1 ? [item("JOURNAL 000, 1-5 (2020) Preprint 27 June 2020 Compiled with the class", 50, 30)] : [],
        journal(n)
      )
    )
    const read = text(pages)
    assert.notInclude(read, "Preprint 27 June")
    assert.notInclude(read, "JOURNAL 000")
    assert.include(read, "Body text of page 1")
  })

  it("a first line that only starts like a foot line seen on one page stays", () => {
    const pages = [1, 2, 3, 4, 5].map((n) =>
      page(n, n === 1 ? [item("JOURNAL 000 Preprint 27 June 2020", 50, 30)] : [], [])
    )
    assert.include(text(pages), "Preprint 27 June")
  })
})
