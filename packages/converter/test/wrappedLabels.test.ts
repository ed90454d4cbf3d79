import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import type { TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

const lists = (items: ReadonlyArray<TextItem>): Array<Document.List> =>
  Layout.layoutDocument({
    pages: [{ page: 1, width: 600, height: 800, items, figures: [] }],
    outline: [],
    title: undefined,
    filename: "t"
  }).blocks.flatMap((block) => block._tag === "List" ? [block] : [])

/** Bulleted reasons whose third item's wrapped line starts with an option's letter in brackets. */
const reasons = (wrapped: string): Array<TextItem> => [
  item("A mail message may be queued for these reasons, long enough to be the body size:", 50, 100),
  item("\u2022 If a mail message is temporarily undeliverable, it is queued and delivery is", 55, 112),
  item("attempted later, for those recipients to whom delivery is not possible.", 65, 124),
  item("\u2022 If the SuperSafe option is set to true, all mail messages are queued.", 55, 136),
  item("\u2022 If the load average becomes higher than the value of the QueueFactor", 55, 148),
  item(wrapped, 65, 160),
  item("\u2022 The mail message has been marked as quarantined via a mail filter.", 55, 172)
]

describe("a label at the start of an item's wrapped line", () => {
  it("goes on with the item's sentence when no open list goes on to it or starts with it", () => {
    const found = lists(reasons("(q) option divided by the load average, messages are queued."))
    assert.strictEqual(found.length, 1)
    const items = found[0]!.items
    assert.deepStrictEqual(items.map((entry) => entry.lists?.length ?? 0), [0, 0, 0, 0])
    assert.include(items[2]!.text, "the QueueFactor (q) option divided by the load average")
  })

  it("starts a nested list when its number starts one", () => {
    const found = lists(reasons("(a) the first of the conditions, which are lettered."))
    assert.strictEqual(found[0]!.items[2]!.lists?.length, 1)
  })
})
