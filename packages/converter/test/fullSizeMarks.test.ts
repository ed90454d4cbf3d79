import { assert, describe, it } from "@effect/vitest"
import { footNotes } from "../src/internal/layout/footnotes.js"
import { makeLine } from "../src/internal/layout/lines.js"
import type { OrderedPage } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"
import { item, styledItem } from "./support/textItems.js"

const filler = [
  "Plain text that makes up the body of the page, set in",
  "the running size, line after line, as a report would be",
  "set, long enough for the body size to be the one most",
  "lines have, and for the notes below to stand apart."
]

describe("note marks set in the text's own size", () => {
  it("a note symbol raised half its size above the line is a reference, set in the line's size (troff's ∗)", () => {
    const line = makeLine([item("S. I. Feldman", 240, 341), item("\u2217", 294, 336, 10, 5)])
    assert.deepStrictEqual(line.marks, [{ start: 13, end: 14, style: Style.footnote }])
    // Raised a little (a symbol's own place), or on the line, it stays text.
    assert.strictEqual(makeLine([item("S. I. Feldman", 240, 341), item("\u2217", 294, 339, 10, 5)]).marks, undefined)
    assert.strictEqual(
      makeLine([item("x times", 240, 341), item("2", 280, 336, 10, 5), item("more", 290, 341)]).marks?.[0]?.start,
      8
    )
  })

  it("the cover page's note marked so leaves the body, its reference kept where the author's name is", () => {
    const name = makeLine([styledItem("S. I. Feldman", 240, 341, Style.emphasis, 10), item("\u2217", 294, 336, 10, 5)])
    const note = makeLine([
      item("\u2217", 144, 683, 10, 5),
      item("Bell Communications Research, Morristown, NJ 07960", 149, 688)
    ])
    const page: OrderedPage = {
      page: 0,
      height: 792,
      items: [name, ...filler.map((text, i) => makeLine([item(text, 72, 400 + i * 12)])), note]
        .map((line) => ({ _tag: "Line" as const, line })),
      // troff's short rule over the notes.
      separators: [{ x0: 144, x1: 216, y0: 672, y1: 672.5, horizontal: true, long: false }]
    }
    const found = footNotes(page, 10, false)
    assert.deepStrictEqual(found.notes.map((n) => n.lines.map((l) => l.text).join(" ").slice(n.cut)), [
      "Bell Communications Research, Morristown, NJ 07960"
    ])
    assert.strictEqual(found.page.items.length, filler.length + 1)
    const first = found.page.items[0]!
    assert.deepStrictEqual(first._tag === "Line" ? first.line.marks : undefined, [
      { start: 0, end: 13, style: Style.emphasis },
      { start: 13, end: 14, style: Style.footnote }
    ])
  })
})
