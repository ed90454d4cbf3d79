import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import type { TextItem } from "../src/internal/layout.js"
import { item, pageBlocks } from "./support/textItems.js"

/** Running text of a column: lines of about 46 characters, 12 points apart. */
const text = (x: number, y: number, count: number, what: string): Array<TextItem> =>
  Array.from(
    { length: count },
    (_, i) => item(`Line ${i + 1} of ${what} runs over the column's width`, x, y + i * 12, 10, 240)
  )

/** A numbered list at `x`: each item a marker line and one wrapped line under its text. */
const items = (x: number, y: number, from: number, count: number): Array<TextItem> =>
  Array.from({ length: count }, (_, i) => [
    item(`${from + i}. Item ${from + i} of the list has a first line here`, x, y + i * 24, 10, 230),
    item(`and a second line under its text, ending it.`, x + 15, y + 12 + i * 24, 10, 200)
  ]).flat()

const lists = (blocks: ReadonlyArray<Document.Block>) => blocks.filter((block) => block._tag === "List")

describe("a list going on at the top of the next column", () => {
  it("keeps its items at their depth, and the text after it leaves the list", () => {
    const left = 50
    const right = 320
    const blocks = pageBlocks([
      ...text(left, 100, 20, "the left column"),
      ...items(left + 10, 352, 1, 18),
      ...items(right + 10, 100, 19, 3),
      ...text(right, 184, 44, "the right column")
    ])
    const found = lists(blocks)
    assert.strictEqual(found.length, 1)
    const list = found[0] as Document.List
    assert.deepStrictEqual(list.items.map((entry) => entry.text.split(" ").slice(0, 2).join(" ")), [
      ...Array.from({ length: 21 }, (_, i) => `Item ${i + 1}`)
    ])
    assert.isTrue(list.items.every((entry) => entry.lists === undefined))
    assert.strictEqual(blocks[blocks.length - 1]!._tag, "Paragraph")
  })
})
