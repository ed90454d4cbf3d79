import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

/** A column of `count` lines of `chars` characters named `name 1`, `name 2`, ... at `x` from `y`. */
const column = (name: string, x: number, y: number, count: number, chars: number): Array<TextItem> =>
  Array.from({ length: count }, (_, i) => item(`${name} ${i + 1} `.padEnd(chars, "x"), x, y + i * 12))

const order = (items: ReadonlyArray<TextItem>, width = 600): Array<string> =>
  Layout.orderPage({ page: 1, width, height: 800, items, figures: [] } satisfies PageText).items.flatMap((
    item
  ) => item._tag === "Line" ? [item.line.text.replace(/ x+$/, "")] : [])

describe("columns by region", () => {
  it("three columns under a full-width title are read one after the other, the title first", () => {
    const lines = order([
      item("A title across the whole page, wider than any one column is", 40, 60, 16),
      ...column("left", 40, 100, 8, 32),
      ...column("middle", 220, 100, 8, 32),
      ...column("right", 400, 100, 8, 32)
    ])
    assert.deepStrictEqual(lines, [
      "A title across the whole page, wider than any one column is",
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `left ${i}`),
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `middle ${i}`),
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `right ${i}`)
    ])
  })

  it("three columns above two, apart by a gap, are each read column by column", () => {
    const lines = order([
      ...column("a", 40, 100, 6, 32),
      ...column("b", 220, 100, 6, 32),
      ...column("c", 400, 100, 6, 32),
      ...column("d", 40, 220, 6, 50),
      ...column("e", 310, 220, 6, 50)
    ])
    const first = (name: string) => lines.findIndex((line) => line.startsWith(`${name} `))
    const last = (name: string) =>
      lines.length - 1 - [...lines].reverse().findIndex((line) => line.startsWith(`${name} `))
    for (const [before, after] of [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"]] as const) {
      assert.isBelow(last(before), first(after), `${before} before ${after}: ${lines.join(" | ")}`)
    }
  })

  it("a line of one column reaching past the gutter stays in its column", () => {
    const left = column("left", 40, 100, 10, 50)
    const long = item("left long line that pokes past the gutter by a few", 40, 232)
    const lines = order([...left, long, ...column("right", 310, 100, 12, 50)])
    assert.deepStrictEqual(lines.slice(0, 11), [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `left ${i}`),
      "left long line that pokes past the gutter by a few"
    ])
    assert.strictEqual(lines[11], "right 1")
  })

  it("columns are read one after the other above a foot line whose parts cross the gutter side by side", () => {
    // A title beside a narrow block has no gutter; under a wider gap than the foot's, the band of columns must find one.
    const lines = order([
      item("A title set beside a narrow author block", 200, 60, 16),
      item("author", 40, 62),
      ...column("left", 40, 140, 10, 50),
      ...column("right", 310, 140, 10, 50),
      item("Journal of Things", 40, 278),
      item("Copyright 2022 by Someone", 240, 278),
      item("PREPRINT / 1", 480, 278)
    ])
    assert.deepStrictEqual(lines.filter((line) => /^(left|right) /.test(line)), [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `left ${i}`),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `right ${i}`)
    ], lines.join(" | "))
  })

  it("a column going on below a gap under a shorter column is read to its end before the next", () => {
    // References fill the left column; an appendix follows under a gap; the right column is short.
    const lines = order([
      ...column("refs", 40, 100, 30, 50),
      ...column("right", 310, 100, 6, 50),
      ...column("appendix", 40, 500, 6, 50)
    ])
    const at = (name: string) => lines.findIndex((line) => line.startsWith(`${name} `))
    assert.isBelow(at("refs"), at("appendix"))
    assert.isBelow(at("appendix"), at("right"), lines.join(" | "))
  })

  it("an index's two columns of short entries under the text are read column by column", () => {
    const entries = (name: string, x: number, count: number) =>
      Array.from({ length: count }, (_, i) => item(`${name}${i}: ${i + 1}, ${i + 3}.`, x, 200 + i * 12))
    const lines = order([
      item("The last line of the text above the index, which runs across the whole page width.", 40, 160),
      item("Index.", 40, 185),
      ...entries("left", 40, 8),
      ...entries("right", 300, 6)
    ])
    assert.deepStrictEqual(lines.slice(1), [
      "Index.",
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `left${i}: ${i + 1}, ${i + 3}.`),
      ...[0, 1, 2, 3, 4, 5].map((i) => `right${i}: ${i + 1}, ${i + 3}.`)
    ])
  })

  it("short terms beside their descriptions are not two columns: each row is read across", () => {
    const items = Array.from({ length: 10 }, (_, i) => [
      item(`-o${i}`, 40, 100 + i * 12),
      item(`the description of option ${i} goes here`.padEnd(60, "."), 120, 100 + i * 12)
    ]).flat()
    const lines = order(items)
    const description = (i: number) => `the description of option ${i} goes here`.padEnd(60, ".")
    assert.deepStrictEqual(lines.slice(0, 4), ["-o0", description(0), "-o1", description(1)])
  })

  it("two justified columns less than an em apart are read one after the other, not line by line", () => {
    // 28 characters at 10 pt end at x 180; the right column starts 7 pt (0.7 em) further.
    const lines = order([...column("left", 40, 100, 10, 28), ...column("right", 187, 100, 10, 28)], 400)
    assert.deepStrictEqual(lines, [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `left ${i}`),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `right ${i}`)
    ])
    // A gap as wide on one or two baselines is a stretched word space, not a gutter.
    const few = order([item("a line of text,", 40, 100), item("stretched here", 122, 100), item("and", 40, 112)])
    assert.deepStrictEqual(few, ["a line of text, stretched here", "and"])
  })

  it("a short line set flush right at a column's edge is cut from the next column's line less than an em away", () => {
    // A credit under a table ends at the left column's justified edge (x 240) on a baseline of the right column.
    const credit = "After A. Author, 1976"
    const lines = order([
      ...column("left", 40, 100, 8, 40),
      item(credit, 240 - credit.length * 5, 196),
      item("left 9 ".padEnd(40, "x"), 40, 208),
      item("left 10 ".padEnd(40, "x"), 40, 220),
      ...column("right", 247, 100, 11, 40)
    ])
    assert.deepStrictEqual(lines, [
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `left ${i}`),
      credit,
      "left 9",
      "left 10",
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => `right ${i}`)
    ])
  })

  it("a contents entry's page number stays with its leaders, so two columns of contents are not a table", () => {
    const entry = (text: string, x: number, y: number, page: string) => [
      item(`${text} . . . . . .`, x, y),
      item(page, x + 200, y)
    ]
    const lines = order([
      ...[1, 2, 3, 4, 5, 6].flatMap((i) => entry(`left entry ${i}`, 40, 100 + 12 * i, String(i))),
      ...[1, 2, 3, 4, 5, 6].flatMap((i) => entry(`right entry ${i}`, 320, 100 + 12 * i, String(i + 6)))
    ])
    assert.deepStrictEqual(lines, [
      ...[1, 2, 3, 4, 5, 6].map((i) => `left entry ${i} . . . . . . ${i}`),
      ...[1, 2, 3, 4, 5, 6].map((i) => `right entry ${i} . . . . . . ${i + 6}`)
    ])
  })
})
