import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import type { Rule } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

const horizontal = (y: number, x0: number, x1: number): Rule => ({ x0, x1, y0: y, y1: y + 0.5, horizontal: true })
const vertical = (x: number, y0: number, y1: number): Rule => ({ x0: x, x1: x + 0.5, y0, y1, horizontal: false })

/** Every text of the page in reading order, a table's cells row by row. */
const texts = (items: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule>): Array<string> =>
  Layout.orderPage({ page: 1, width: 600, height: 800, items, figures: [], rules } satisfies PageText).items.flatMap(
    (placed) => placed._tag === "Line" ? [placed.line.text] : placed._tag === "Table" ? placed.rows.flat() : []
  )

/** A box's function names at `x`, each with its description level with it, 8 points apart from `y`. */
const box = (name: string, x: number, y: number): Array<TextItem> =>
  Array.from({ length: 7 }, (_, i) => [
    item(`${name}${i + 1}`, x, y + i * 8, 6),
    item(`Describes ${name} function ${i + 1}`, x + 80, y + i * 8, 6)
  ]).flat()

describe("boxes side by side", () => {
  it("a frame parted by a rule its whole height, each part a list of names beside descriptions, is read part by part", () => {
    const read = texts(
      [item("A reference card", 40, 80, 14), ...box("left", 40, 110), ...box("right", 310, 110)],
      [
        horizontal(100, 30, 570),
        horizontal(170, 30, 570),
        vertical(30, 100, 170),
        vertical(300, 100, 170),
        vertical(570, 100, 170)
      ]
    )
    const at = (text: string) => read.findIndex((t) => t.includes(text))
    assert.strictEqual(at("A reference card"), 0)
    assert.isAbove(at("left7"), 0)
    assert.isBelow(at("Describes left function 7"), at("right1"))
    assert.isBelow(at("left7"), at("right1"))
  })

  it("a table ruled only at its top and bottom, one piece a cell, is still read row by row", () => {
    const rows = Array.from({ length: 7 }, (_, i) => [
      item(`first${i + 1}`, 40, 110 + i * 12),
      item(`second${i + 1}`, 310, 110 + i * 12)
    ]).flat()
    const read = texts(rows, [
      horizontal(100, 30, 570),
      horizontal(200, 30, 570),
      vertical(30, 100, 200),
      vertical(300, 100, 200),
      vertical(570, 100, 200)
    ])
    const at = (text: string) => read.findIndex((t) => t.includes(text))
    assert.isBelow(at("second1"), at("first2"))
    assert.isBelow(at("first1"), at("second1"))
  })
})
