import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { item, orderedTexts } from "./support/textItems.js"

/** Lines of a justified column: `count` lines of 10-point text from `x0` to `x1`, 12 points apart from `y`. */
const column = (name: string, x0: number, x1: number, y: number, count: number): Array<TextItem> =>
  Array.from({ length: count }, (_, i) => item(`${name} ${i + 1} `.padEnd(48, "x"), x0, y + i * 12, 10, x1 - x0))

const read = (items: ReadonlyArray<TextItem>): Array<string> =>
  orderedTexts(items).map((text) => text.replace(/ x+$/, ""))

const at = (lines: ReadonlyArray<string>, text: string): number => {
  const i = lines.findIndex((line) => line.includes(text))
  assert.isAtLeast(i, 0, `${text} in ${lines.join(" | ")}`)
  return i
}

const columns = (equation: ReadonlyArray<TextItem>): Array<string> =>
  read([
    ...column("upper-left", 72, 292, 100, 10),
    ...column("upper-right", 312, 532, 100, 10),
    ...equation,
    ...column("lower-left", 72, 292, 280, 10),
    ...column("lower-right", 312, 532, 280, 10)
  ])

describe("a display set across both columns in pieces", () => {
  it("an equation whose pieces stop short of the gutter, one standing in it, is read between the bands", () => {
    const lines = columns([
      item("[AZ]", 150, 230, 10, 60),
      item("[BZ]", 360, 230, 10, 60),
      item("R = g", 90, 238, 10, 40),
      item("+ xWQe", 304, 238, 10, 36),
      item("(7)", 520, 238, 10, 12),
      item("Q12 - MW", 150, 246, 10, 60),
      item("Q13 - MW", 360, 246, 10, 60)
    ])
    // The upper band is read column by column, then the equation, then the lower band.
    assert.isBelow(at(lines, "upper-left 10"), at(lines, "upper-right 1"))
    assert.isBelow(at(lines, "upper-right 10"), at(lines, "[AZ]"))
    assert.isBelow(at(lines, "Q13 - MW"), at(lines, "lower-left 1"))
    assert.isBelow(at(lines, "lower-left 10"), at(lines, "lower-right 1"))
  })

  it("a piece in the gutter with nothing on the other side at its baselines is the column's own", () => {
    const lines = columns([
      item("x = y", 150, 238, 10, 60),
      item("(3)", 286, 238, 10, 14)
    ])
    // No display across both columns: the left column goes on to its lower lines before the right one starts.
    assert.isBelow(at(lines, "lower-left 10"), at(lines, "upper-right 1"))
  })
})
