import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item, pageBlocks } from "./support/textItems.js"

/** A bold run a point smaller than the 10-point text, as REVTeX sets its section headings. */
const small = (text: string, y: number, x = 50): TextItem => ({ ...item(text, x, y, 9), style: Style.strong })

/** Two-line paragraphs 12 points a line, 18 points between paragraphs; each section's heading 30 above, 24 over its text. */
const section = (heading: ReadonlyArray<TextItem>, top: number): { items: Array<TextItem>; bottom: number } => {
  const start = top + 24 + (heading.length - 1) * 11
  const items = [0, 1, 2, 3].flatMap((i) => [
    item(`Paragraph ${i + 1} of the section runs over the whole width of its column`, 50, start + i * 30),
    item("and ends on its second line.", 50, start + i * 30 + 12)
  ])
  return { items: [...heading, ...items], bottom: start + 102 }
}

const page = (headings: ReadonlyArray<ReadonlyArray<(y: number) => TextItem>>) => {
  const items: Array<TextItem> = []
  let y = 60
  for (const heading of headings) {
    const made = section(heading.map((make, i) => make(y + 30 + i * 11)), y + 30)
    items.push(...made.items)
    y = made.bottom
  }
  return pageBlocks(items)
}

const headingsOf = (blocks: ReturnType<typeof pageBlocks>) =>
  blocks.flatMap((block) => block._tag === "Heading" ? [[block.level, block.text] as const] : [])

describe("bold headings set smaller than the text", () => {
  it("roman, lettered and arabic numbers nest in outline order; a roman heading after a lettered one is its parent's sibling", () => {
    const blocks = page([
      [(y) => small("I. INTRODUCTION", y)],
      [(y) => small("A. Scope of the work", y)],
      [(y) => small("1. Notes on the scope", y)],
      [(y) => small("II. METHODS", y)],
      [(y) => small("ACKNOWLEDGMENTS", y)]
    ])
    assert.deepStrictEqual(headingsOf(blocks), [
      [1, "I. INTRODUCTION"],
      [2, "A. Scope of the work"],
      [3, "1. Notes on the scope"],
      [1, "II. METHODS"],
      [1, "ACKNOWLEDGMENTS"]
    ])
    assert.isFalse(blocks.some((block) => block._tag === "List"))
  })

  it("a lettered section read before any roman one still stands under the roman ones", () => {
    const blocks = page([[(y) => small("B. Scope of the work", y)], [(y) => small("II. METHODS", y)]])
    assert.deepStrictEqual(headingsOf(blocks), [[2, "B. Scope of the work"], [1, "II. METHODS"]])
  })

  it("a title ending in a colon takes the line under it", () => {
    const blocks = page([
      [(y) => small("I. FIRST-LEVEL HEADING:", y), (y) => small("THE LINE BREAK WAS FORCED", y)],
      [(y) => small("II. SECOND SECTION", y)]
    ])
    assert.deepStrictEqual(headingsOf(blocks), [
      [1, "I. FIRST-LEVEL HEADING: THE LINE BREAK WAS FORCED"],
      [1, "II. SECOND SECTION"]
    ])
  })

  it("a centred title ending in a colon takes the centred line under it", () => {
    const centred = (text: string) => (y: number) => small(text, y, 200 - text.length * 9 * 0.25)
    const blocks = page([[centred("IV. FLOATS AND OTHER MATTERS:"), centred("FIGURES")], [centred("V. SUMMARY")]])
    assert.deepStrictEqual(headingsOf(blocks).map(([, text]) => text), [
      "IV. FLOATS AND OTHER MATTERS: FIGURES",
      "V. SUMMARY"
    ])
  })

  it("where paragraphs stand wide apart, two lines' space under the heading is enough", () => {
    // Paragraphs 32 points apart (a display's space, say); each heading 40 above its text, 25 over it.
    const items = [0, 1].flatMap((s) => [
      small(s === 0 ? "I. INTRODUCTION" : "II. METHODS", 60 + s * 220),
      ...[0, 1, 2, 3].flatMap((i) => [
        item("A paragraph of the section runs over the whole width of its column", 50, 85 + s * 220 + i * 44),
        item("and ends on its second line.", 50, 97 + s * 220 + i * 44)
      ])
    ])
    assert.deepStrictEqual(headingsOf(pageBlocks(items)), [[1, "I. INTRODUCTION"], [1, "II. METHODS"]])
  })

  it("small bold labelled lines set close together, without a heading's space, stay a list", () => {
    const items = [
      item("Running text before the list, long enough to set the body size of the page.", 50, 100),
      item("and a second line of it that goes on to the end.", 50, 112),
      ...["i. first of the items", "ii. second of the items", "iii. third of the items"].map((text, i) =>
        small(text, 130 + i * 11, 60)
      ),
      item("Text after the list, back at the margin, goes on here.", 50, 170),
      ...[0, 1, 2, 3, 4, 5].flatMap((i) => [
        item("Another paragraph of running text, over the whole width.", 50, 200 + i * 30),
        item("and its second line.", 50, 212 + i * 30)
      ])
    ]
    const blocks = pageBlocks(items)
    assert.deepStrictEqual(headingsOf(blocks), [])
    const list = blocks.find((block) => block._tag === "List")
    assert.deepStrictEqual(list?._tag === "List" ? list.items.map((entry) => entry.label) : [], ["i.", "ii.", "iii."])
  })
})
