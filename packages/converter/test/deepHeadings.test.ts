import { assert, describe, it } from "@effect/vitest"
import { deepHeadings } from "../src/internal/layout/deepHeadings.js"
import { matchOutline } from "../src/internal/layout/headings.js"
import type { Line, OrderedPage } from "../src/internal/layout/model.js"

const line = (text: string, y: number, size = 10): Line => ({ text, x0: 50, x1: 400, y, size, rtl: false })

/** A page of lines, each `[text, y]`, in reading order. */
const page = (number: number, lines: ReadonlyArray<readonly [string, number]>): OrderedPage => ({
  page: number,
  height: 800,
  items: lines.map(([text, y]) => ({
    _tag: "Line" as const,
    line: line(text, y, text === "3.2 CJK features" ? 12 : 10)
  }))
})

const found = (pages: ReadonlyArray<OrderedPage>, titles: ReadonlyArray<string>): Array<string> => {
  const outline = titles.map((title) => ({ title, level: 2, page: 1, top: 700 }))
  return [...deepHeadings(pages, matchOutline(pages, outline).lines, 1.25)].map((l) => l.text)
}

describe("headings numbered deeper than the outline goes", () => {
  const manual = page(1, [
    ["3.2 CJK features", 100],
    ["Fonts for Asian scripts have features of their own.", 120],
    ["3.2.1 Annotation — nalt", 147],
    ["Some fonts have annotated forms of their glyphs.", 166],
    ["selected numerically as Example 33 shows.", 178],
    ["3.2.2 Character width", 205],
    ["Many Asian fonts are equipped with variously spaced characters.", 224],
    ["3.2.3 and 3.2.4 below show the rest of it", 236],
    ["3.3 Other features", 270]
  ])

  it("are lines numbered under an outlined heading's number, set apart from the lines around them", () => {
    assert.deepStrictEqual(found([manual], ["3.2 CJK features"]), ["3.2.1 Annotation — nalt", "3.2.2 Character width"])
  })

  it("are none under a number the outline does not list, nor at a depth it lists", () => {
    assert.deepStrictEqual(found([manual], ["Other features"]), [])
    const deeper = page(2, [["3.1.1 Listed", 40], ["The text of the listed one.", 60]])
    assert.deepStrictEqual(found([manual, deeper], ["3.2 CJK features", "3.1.1 Listed"]), [])
  })
})
