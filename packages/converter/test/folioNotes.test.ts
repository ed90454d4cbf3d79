import { assert, describe, it } from "@effect/vitest"
import { sequenceFolios } from "../src/internal/layout/folios.js"
import { makeLine } from "../src/internal/layout/lines.js"
import type { Line, OrderedPage } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

const body = (y: number): Line =>
  makeLine([item("Body text of the page, set line after line in the running size.", 90, y, 11)])

/** Pages with a bare folio at the top (page index + 1) and body text, the first with `foot` as its last line. */
const pages = (foot: Line): Array<OrderedPage> =>
  [0, 1, 2, 3].map((page) => ({
    page,
    height: 792,
    items: [
      makeLine([item(String(page + 1), 516, 58, 11)]),
      body(100),
      body(400),
      ...(page === 0 ? [foot] : [body(700)])
    ]
      .map((line) => ({ _tag: "Line" as const, line }))
  }))

describe("folios beside foot notes", () => {
  it("a note whose raised label is the page's number (texinfo's note 1 on page 1) is no folio; the folio above is", () => {
    const note = makeLine([
      item("1", 90, 709.5, 6),
      item("strictly, a SEXPREC node; VECTOR_SEXPREC nodes are smaller.", 96, 712.8, 9)
    ])
    assert.strictEqual(note.marks?.[0]?.start, 0)
    const found = sequenceFolios(pages(note))
    assert.isFalse(found.has(note))
    assert.strictEqual([...found].filter((line) => line.text === "1").length, 1)
    // A foot line that starts with the number on its baseline is still taken for a folio beside a title.
    const plain = makeLine([item("1 Chapter title as a running foot of the first page", 90, 712.8, 9)])
    assert.isTrue(sequenceFolios(pages(plain)).has(plain))
  })
})
