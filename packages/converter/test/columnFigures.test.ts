import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item, orderedTexts, pageBlocks, styledItem } from "./support/textItems.js"

/** Lines of a justified column: `count` lines of 10-point text from `x0` to `x1`, 12 points apart from `y`. */
const column = (name: string, x0: number, x1: number, y: number, count: number): Array<TextItem> =>
  Array.from({ length: count }, (_, i) => item(`${name} ${i + 1} `.padEnd(48, "x"), x0, y + i * 12, 10, x1 - x0))

const read = (items: ReadonlyArray<TextItem>): Array<string> =>
  orderedTexts(items).map((text) => text.replace(/ x+$/, ""))

const before = (lines: ReadonlyArray<string>, a: string, b: string): boolean => {
  const i = lines.indexOf(a)
  const j = lines.indexOf(b)
  return i >= 0 && j >= 0 && i < j
}

describe("two columns an em apart, beside a figure or a listing", () => {
  it("a heading and a short last line an em from the left column's edge are cut from its lines, and each column is read whole", () => {
    const left = column("left", 72, 292, 100, 30)
    const right = [
      ...column("right", 302, 522, 100, 4),
      item("2.2 A heading in the right column", 302, 160, 12, 200),
      // A figure's labels, set smaller, on the baselines of the left column's lines and between them.
      ...Array.from({ length: 20 }, (_, i) => item(`0x${i}0`, 342, 184 + i * 9.5, 8, 18)),
      ...Array.from({ length: 20 }, (_, i) => item(`label ${i}`, 386, 184 + i * 9.5, 8, 38)),
      item("the last line.", 302, 448, 10, 70)
    ]
    const lines = read([...left, ...right])
    assert.include(lines, "left 6")
    assert.include(lines, "2.2 A heading in the right column")
    assert.include(lines, "the last line.")
    assert.isTrue(before(lines, "left 30", "right 1"), lines.join(" | "))
    assert.isTrue(before(lines, "right 4", "2.2 A heading in the right column"), lines.join(" | "))
    assert.isTrue(before(lines, "2.2 A heading in the right column", "the last line."), lines.join(" | "))
  })

  it("a listing's line numbers an em right of the left column are cut from its lines", () => {
    const left = column("left", 72, 292, 100, 30)
    const listing = Array.from({ length: 30 }, (_, i) => [
      item(`${i + 1}`, i + 1 < 10 ? 305 : 301, 104 + i * 9.5, 8, i + 1 < 10 ? 4 : 8),
      item(`code = <line ${i + 1}>;`, 335, 104 + i * 9.5, 8, 90)
    ]).flat()
    const lines = read([...left, ...listing, ...column("right", 302, 522, 470, 5)])
    assert.include(lines, "left 12", lines.join(" | "))
    assert.isTrue(before(lines, "left 30", "code = <line 1>;"), lines.join(" | "))
  })

  it("a line across the gutter above both columns is read before them", () => {
    const lines = read([
      item("A title across the whole page", 150, 60, 17, 300),
      item("January 3, 2023", 256, 90, 12, 82),
      ...column("left", 72, 292, 120, 12),
      ...column("right", 302, 522, 120, 12)
    ])
    assert.deepStrictEqual(lines.slice(0, 3), ["A title across the whole page", "January 3, 2023", "left 1"])
    assert.isTrue(before(lines, "left 12", "right 1"))
  })
})

describe("a table beside the other column's running text", () => {
  it("is found without the column's lines on its baselines, which are read with their column", () => {
    const left = column("left", 54, 299, 100, 30)
    const table = [["Lefta", "Centeredb", "Right"], ["1", "2", "3"], ["10", "20", "30"], ["100", "200", "300"]]
      .flatMap((row, r) => row.map((cell, c) => item(cell, 319 + c * 110, 219.5 + r * 12, 9, cell.length * 5)))
    const page = [...left, ...table, ...column("right", 317, 562, 300, 8)]
    const lines = read(page)
    assert.notInclude(lines, "1")
    assert.include(lines, "left 11")
    assert.isTrue(before(lines, "left 30", "right 1"), lines.join(" | "))
  })
})

describe("a listing whose lines have wide gaps inside", () => {
  it("is not cut where words of its lines end together: each description stays whole", () => {
    const commands = [
      ["buy", "Attempt to get a sellable item"],
      ["coin-return", "Return all inserted coins back to the customer"],
      ["dime", "Insert a dime into the machine"],
      ["dollar", "Insert a dollar into the machine"],
      ["insert-money", "Insert a non-standard coin type"],
      ["nickel", "Insert a nickel into the machine"],
      ["quarter", "Insert a quarter into the machine"]
    ]
    // A printer driver's Courier: a run per word, 12 points, 7.2 a character, descriptions off the names' grid.
    const word = (text: string, x: number, y: number): TextItem => ({
      ...item(text, x, y, 12, text.length * 7.2),
      style: Style.code
    })
    const listing = commands.flatMap(([name, description], i) => {
      const y = 224 + i * 12
      let x = 163.2
      return [
        word(name!, 71.2, y),
        ...description!.split(" ").map((text) => {
          const placed = word(text, x, y)
          x += (text.length + 1) * 7.2
          return placed
        })
      ]
    })
    const found = pageBlocks([
      styledItem("Running text before the listing, long enough to set the body size of the page here.", 56.8, 190),
      ...listing,
      styledItem("Running text after the listing goes on here with more words in it than a code line.", 56.8, 330)
    ])
    const code = found.flatMap((block) => block._tag === "Code" ? block.text.split("\n") : [])
    for (const [, description] of commands) {
      assert.isTrue(code.some((line) => line.trimStart().endsWith(description!)), code.join(" | "))
    }
  })

  it("a grammar in the code face keeps each rule's name, sign and right side on one row", () => {
    const rule = (name: string, right: string, y: number) => [
      styledItem(name, 72, y, Style.code),
      styledItem("::=", 160, y),
      styledItem(right, 200, y, Style.code)
    ]
    const alternative = (text: string, y: number) => [styledItem(text, 200, y, Style.code)]
    const rows = [
      rule("digit", `"0" - "9"`, 200),
      rule("hex_digit", `"0" - "9" | "a" - "f" | "A" - "F"`, 212),
      rule("oct_digit", `"0" - "7"`, 224),
      rule("integer", `digit (digit | "_")*`, 236),
      alternative(`| ("0x" | "0X") hex_digit (hex_digit | "_")*`, 248),
      alternative(`| ("0o" | "0O") oct_digit (oct_digit | "_")*`, 260),
      alternative(`| ("0b" | "0B") bin_digit (bin_digit | "_")*`, 272)
    ]
    const found = pageBlocks([
      styledItem("Running text before the grammar, long enough to set the body size of the page here.", 72, 176),
      ...rows.flat()
    ])
    // Whatever form the grammar takes (a table, a listing), a row reads name, sign, right side.
    const texts = found.flatMap((block) =>
      block._tag === "Table"
        ? block.rows.map((row) => row.join(" "))
        : "text" in block
        ? block.text.split("\n")
        : []
    ).map((text) => text.replace(/\s+/g, " "))
    assert.include(texts, `hex_digit ::= "0" - "9" | "a" - "f" | "A" - "F"`, texts.join(" | "))
    assert.include(texts, `integer ::= digit (digit | "_")*`, texts.join(" | "))
  })

  it("a term in the code face an em from its justified description stays on the description's row", () => {
    const rows = Array.from({ length: 7 }, (_, k) => [
      item(`desc ${k + 1} first `.padEnd(46, "x"), 72, 200 + k * 36, 10, 228),
      item(`desc ${k + 1} second `.padEnd(46, "x"), 72, 212 + k * 36, 10, 228),
      item(`desc ${k + 1} third `.padEnd(46, "x"), 72, 224 + k * 36, 10, 228),
      // Every other term long: the terms' side is a column's width.
      {
        ...item(k % 2 === 1 ? `term-${k + 1}, another-term-${k + 1}` : `term-${k + 1}`, 311, 200 + k * 36),
        style: Style.code
      }
    ]).flat()
    const lines = orderedTexts(rows)
    for (let k = 1; k < 7; k++) {
      const term = lines.findIndex((line) => line.includes(`term-${k}`))
      const next = lines.findIndex((line) => line.startsWith(`desc ${k + 1} first`))
      assert.isTrue(term >= 0 && term < next, lines.join(" | "))
    }
  })
})
