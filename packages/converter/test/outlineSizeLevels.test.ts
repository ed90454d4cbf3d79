import { assert, describe, it } from "@effect/vitest"
import { matchOutline, outlineSizeLevels } from "../src/internal/layout/headings.js"
import type { Line, OrderedPage } from "../src/internal/layout/model.js"

const line = (text: string, y: number, size: number): Line => ({ text, x0: 50, x1: 400, y, size, rtl: false })

/** A page of a section title at 14, a subsection title at 12, then `terms` description terms at 12 and body text at 10. */
const page = (number: number, terms: number): OrderedPage => ({
  page: number,
  height: 800,
  items: [
    line(`${number} Section ${number}`, 60, 14),
    line(`${number}.1 Part ${number}`, 90, 12),
    ...Array.from({ length: terms }, (_, i) => line(`v0.${i} (2016/04/${10 + i}) A release note`, 120 + i * 40, 12)),
    ...Array.from(
      { length: 12 },
      (_, i) => line(`Body text of page ${number}, line ${i}, in a sentence.`, 130 + i * 40, 10)
    )
  ].map((l) => ({ _tag: "Line" as const, line: l }))
})

const outline = (pages: number) =>
  Array.from({ length: pages }, (_, i) => [
    { title: `${i + 1} Section ${i + 1}`, level: 1, page: i + 1, top: 700 },
    { title: `${i + 1}.1 Part ${i + 1}`, level: 2, page: i + 1, top: 670 }
  ]).flat()

const levels = (terms: number): Map<number, number> => {
  const pages = [1, 2, 3].map((n) => page(n, terms))
  return outlineSizeLevels(matchOutline(pages, outline(3)).lines, pages, 10)
}

describe("heading levels by size in an outlined document", () => {
  it("a size mostly the outline's headings takes their level", () => {
    assert.deepStrictEqual([...levels(1)].sort(), [[12, 2], [14, 1]])
  })

  it("a size that running text is set in far more often than the outline names it gets no level", () => {
    // Three subsection titles among 3 + 15 lines at 12: a sixth of the size's lines.
    assert.deepStrictEqual([...levels(5)], [[14, 1]])
  })
})
