import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

/** A page of body lines from y 100, 12 points apart, then `foot`. */
const page = (number: number, lines: ReadonlyArray<string>, foot: ReadonlyArray<TextItem> = []): PageText => ({
  page: number,
  width: 600,
  height: 800,
  items: [...lines.map((text, i) => item(text, 50, 100 + 12 * i)), ...foot],
  figures: []
})

const paragraphs = (pages: ReadonlyArray<PageText>): Array<string> =>
  Layout.layoutDocument({ pages: [...pages], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Paragraph" ? [block.text] : [])

const body = Array.from({ length: 50 }, (_, i) => `line ${i + 1} of the running text that fills this page from`)

describe("a notice at one page's foot", () => {
  it("is read after the text: a paragraph going on over the page stays whole", () => {
    const notice = item("Brought to you by the Project Team; Copyright 2022, all rights reserved.", 50, 760, 8)
    const out = paragraphs([
      page(1, [...body.slice(0, 49), "the top, and its sentence goes on"], [notice]),
      page(2, ["over the page to its end."])
    ])
    assert.include(out.join("\n"), "its sentence goes on over the page to its end.")
    assert.strictEqual(out[out.length - 1], notice.text)
  })

  it("a table's last row spaced as its rows above, and print of the body's size, stay in place", () => {
    const rows = [700, 725, 750, 775].map((y, i) => item(`not used set ${i + 17}`, 50, y, 8))
    const out = paragraphs([page(1, body.slice(0, 40), rows), page(2, ["Next page."])])
    assert.strictEqual(out[out.length - 1], "Next page.")
    const same = paragraphs([page(1, body.slice(0, 49), [item("A closing line.", 50, 760)]), page(2, ["Next page."])])
    assert.strictEqual(same[same.length - 1], "Next page.")
  })
})
