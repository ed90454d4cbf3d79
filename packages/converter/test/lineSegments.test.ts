import { assert, describe, it } from "@effect/vitest"
import { segmentEnd, segmentItems, segmentRow } from "../src/internal/layout/lines.js"
import { item } from "./support/textItems.js"

describe("a baseline's segments", () => {
  // A bullet with its text at a tab stop, a contents entry whose page number stands far past its dot leaders, a column.
  const items = [
    item("•", 72, 100),
    item("First point", 90, 100),
    item("Chapter one . . . .", 200, 100),
    item("17", 400, 100),
    item("Other column", 460, 100)
  ]
  const row = { y: 100, size: 10, items }

  it("are cut at wide gaps, not after a bullet alone nor between leaders and a page number", () => {
    assert.deepStrictEqual(
      segmentItems(row).map((segment) => segment.map((run) => run.text)),
      [["•", "First point"], ["Chapter one . . . .", "17"], ["Other column"]]
    )
  })

  it("end where the lines made of them end, without making them", () => {
    assert.deepStrictEqual(segmentItems(row).map(segmentEnd), segmentRow(row).map((line) => line.x1))
    assert.deepStrictEqual(segmentItems(row).map(segmentEnd), [145, 410, 520])
  })
})
