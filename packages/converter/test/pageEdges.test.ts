import { assert, describe, it } from "@effect/vitest"
import type { OrderedPage } from "../src/internal/layout/model.js"
import { pageEdges } from "../src/internal/layout/pageEdges.js"

/** A page whose body-size lines start at `starts`. */
const page = (number: number, starts: ReadonlyArray<number>, size = 10): OrderedPage => ({
  page: number,
  height: 800,
  items: starts.map((x0, i) => ({
    _tag: "Line" as const,
    line: {
      text: `line ${i}`,
      x0,
      x1: x0 + 300,
      y: 100 + 12 * i,
      size,
      rtl: false,
      marks: undefined,
      charWidth: undefined
    }
  }))
})

describe("pageEdges", () => {
  it("gives each page the most common edge of its parity, rounded, the first one counted on a tie", () => {
    const edges = pageEdges([
      page(1, [72.2, 90]),
      page(2, [100.4]),
      page(3, [71.8]),
      page(4, [110]),
      page(5, [90])
    ], 10)
    // Odd pages: 72 (twice) against 90; even pages: 100 and 110 once each, 100 counted first.
    assert.deepStrictEqual([...edges], [[1, 72], [2, 100], [3, 72], [4, 100], [5, 72]])
  })

  it("leaves a parity with no edge to each page's own, and a page with no body-size line out", () => {
    const edges = pageEdges([page(1, [50.3]), page(2, [60], 14), page(3, [40])], 10)
    // The even page has only larger lines: its parity has no edge, nor has it one of its own; odd pages tie, 50 first.
    assert.deepStrictEqual([...edges], [[1, 50], [3, 50]])
  })
})
