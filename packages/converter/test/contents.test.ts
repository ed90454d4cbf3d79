import { assert, describe, it } from "@effect/vitest"
import type * as Document from "../src/Document.js"
import type { TextItem } from "../src/internal/layout.js"
import type { PageText } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item, pageBlocks } from "./support/textItems.js"

/** An entry's text at `x`, dot leaders to 520, its page number ending at 540. */
const dotted = (text: string, x: number, y: number, page: string): Array<TextItem> => {
  const start = x + text.length * 5
  return [
    item(text, x, y),
    item(".".repeat(Math.floor((520 - start) / 5)), start, y),
    item(page, 540 - page.length * 5, y)
  ]
}

/** An entry's text at `x` and its page number alone at the right edge (540). */
const ragged = (text: string, x: number, y: number, page: string): Array<TextItem> => [
  item(text, x, y),
  item(page, 540 - page.length * 5, y)
]

/** The items of a list and of its nested lists as "depth:text". */
const outline = (list: Document.List, depth = 1): Array<string> =>
  list.items.flatMap((entry) => [
    `${depth}:${entry.text}`,
    ...(entry.lists ?? []).flatMap((nested) => outline(nested, depth + 1))
  ])

const lists = (items: ReadonlyArray<TextItem>) =>
  pageBlocks(items).flatMap((block) => block._tag === "List" ? [outline(block)] : [])

const texts = (items: ReadonlyArray<TextItem>) =>
  pageBlocks(items).map((block) =>
    block._tag === "Table" ? `table:${block.rows.map((row) => row.join("|")).join(";")}` : "text" in block
      ? block.text
      : block._tag
  )

describe("a contents page", () => {
  it("is a list nested by indent, without leaders or page numbers", () => {
    const items = [
      item("Contents", 50, 60, 16),
      ...dotted("1 Introduction", 50, 100, "1"),
      ...dotted("1.1 Audience", 65, 114, "2"),
      ...dotted("1.1.1 Readers", 80, 128, "2"),
      ...dotted("1.2 Conventions", 65, 142, "3"),
      ...dotted("2 Installing", 50, 156, "5"),
      ...dotted("Index", 50, 170, "19")
    ]
    assert.deepStrictEqual(lists(items), [[
      "1:1 Introduction",
      "2:1.1 Audience",
      "3:1.1.1 Readers",
      "2:1.2 Conventions",
      "1:2 Installing",
      "1:Index"
    ]])
  })

  it("without leaders is a list when its page numbers end at one edge, a wrapped entry whole", () => {
    const items = [
      item("Contents", 50, 60, 16),
      ...ragged("1 Why does it start?", 50, 100, "1"),
      item("2 Why does the driver say that the device is busy when nothing else uses the", 50, 128),
      ...ragged("device at all?", 62, 140, "2"),
      ...ragged("3 Which one should I buy?", 50, 168, "4")
    ]
    assert.deepStrictEqual(lists(items), [[
      "1:1 Why does it start?",
      "1:2 Why does the driver say that the device is busy when nothing else uses the device at all?",
      "1:3 Which one should I buy?"
    ]])
  })

  it("needs its title: untitled entries (a contents going on over a page) are left as they were", () => {
    const entries = [4, 5, 6, 7, 8].flatMap((n, i) => dotted(`${n} Question number ${n}`, 50, 100 + i * 28, `${n + 3}`))
    assert.deepStrictEqual(lists(entries), [])
    const titled = [item("Contents", 50, 70, 16), ...entries]
    assert.deepStrictEqual(lists(titled), [[4, 5, 6, 7, 8].map((n) => `1:${n} Question number ${n}`)])
  })

  it("goes on at the next page's top when its page ended in it, and only then", () => {
    const page = (n: number, items: ReadonlyArray<TextItem>): PageText => ({
      page: n,
      width: 600,
      height: 800,
      items,
      figures: []
    })
    const entries = (from: number, y: number) =>
      [0, 1, 2, 3, 4].flatMap((i) => dotted(`${from + i} Question number ${from + i}`, 50, y + i * 28, `${from + i}`))
    const first = [item("Contents", 50, 70, 16), ...entries(1, 100)]
    const next = page(2, [item("iv", 520, 40), ...entries(6, 100), item("Some text goes on here.", 50, 400)])
    const documentLists = (pages: Array<PageText>) =>
      Layout.layoutDocument({ pages, outline: [], title: undefined, filename: "t" }).blocks.flatMap((block) =>
        block._tag === "List" ? [outline(block).length] : []
      )
    // The first page's run reaches its foot (a folio under it): the second page's top goes on in one list.
    assert.deepStrictEqual(documentLists([page(1, [...first, item("iii", 300, 760)]), next]), [10])
    // Text under the first page's run: the contents ended there.
    const ended = [...first, item("A paragraph of the text that comes after the contents.", 50, 300)]
    assert.deepStrictEqual(documentLists([page(1, ended), next]), [5])
  })

  it("in two columns is left as it was: an entry's row holds the other column's entry", () => {
    const items = [
      item("Contents", 50, 60, 16),
      ...[0, 1, 2, 3].flatMap((i) => [
        item(`${i + 1} Left entry`, 50, 100 + i * 14),
        item(`${i + 1}`, 255, 100 + i * 14),
        ...ragged(`${i + 5} Right entry`, 310, 100 + i * 14, `${i + 9}`)
      ])
    ]
    assert.deepStrictEqual(lists(items), [])
  })

  it("leaves a list of tables as it was (its entries are captions)", () => {
    const items = [
      item("List of Tables", 50, 60, 16),
      ...dotted("1 A simple table", 50, 100, "2"),
      ...dotted("2 Table with more columns", 50, 114, "3"),
      ...dotted("3 A table spanning two columns", 50, 128, "5")
    ]
    assert.deepStrictEqual(lists(items), [])
  })

  it("is not an index, a price list or a table of values", () => {
    // An index: its page numbers go back and forth.
    const index = [
      item("Index", 50, 60, 16),
      ...dotted("apples", 50, 100, "12"),
      ...dotted("bananas", 50, 114, "3"),
      ...dotted("cherries", 50, 128, "27"),
      ...dotted("dates", 50, 142, "8")
    ]
    assert.deepStrictEqual(lists(index), [])
    // Prices with leaders, in no order.
    const prices = [
      ...dotted("Coffee", 50, 100, "3"),
      ...dotted("Tea with milk", 50, 114, "2"),
      ...dotted("Hot chocolate", 50, 128, "4"),
      ...dotted("Lemonade", 50, 142, "2"),
      ...dotted("Orange juice", 50, 156, "5")
    ]
    assert.deepStrictEqual(lists(prices), [])
    // Values at a right edge, growing, no title, no leaders, no section numbers.
    const values = ["Apples", "Pears", "Plums", "Figs", "Kiwis"].flatMap((name, i) =>
      ragged(name, 50, 100 + i * 14, `${10 + i * 7}`)
    )
    assert.deepStrictEqual(lists(values), [])
    assert.isTrue(texts(values).some((text) => text.includes("Apples")))
  })
})
