import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item, pageBlocks } from "./support/textItems.js"

/** LaTeX listings' fixed columns: 6 points each, wider than the 4.5 points of a glyph; each token a run of its own. */
const pitch = 6
const glyph = 4.5
const token = (text: string, column: number, y: number): TextItem => ({
  ...item(text, 80 + pitch * column, y, 10, pitch * (text.length - 1) + glyph),
  style: Style.code
})
/** A line number in the text face, as large as the code, right-aligned left of it. */
const number = (n: number, y: number): TextItem => item(String(n), 60, y, 10, 5)

const listing = (numbered: boolean): Array<TextItem> => {
  const lines: ReadonlyArray<ReadonlyArray<readonly [string, number]>> = [
    [["/", 0], ["{", 2]],
    [["model", 3], ["=", 9], ["\"", 11], ["MyBoard", 12], ["\";", 19]],
    [["cpus", 3], ["{", 8]],
    [["device_type", 6], ["=", 18], ["\"", 20], ["cpu", 21], ["\";", 24]],
    [["reg", 12], ["=", 16], ["<0", 18], [">;", 20]],
    [["};", 0]]
  ]
  return [
    item("Running text before the example, long enough to set the body size here.", 50, 100),
    ...lines.flatMap((tokens, i) => [
      ...(numbered ? [number(i + 1, 124 + 12 * i)] : []),
      ...tokens.map(([text, column]) => token(text, column, 124 + 12 * i))
    ]),
    item("Running text after the example goes on here with more words in it.", 50, 208)
  ]
}

/** The listing's lines (their indentation is counted on a pitch of its own, not what this tests). */
const code = ["/ {", "model = \"MyBoard\";", "cpus {", "device_type = \"cpu\";", "reg = <0>;", "};"]
const codeLines = (block: { readonly _tag: string } | undefined): Array<string> =>
  block !== undefined && "text" in block && typeof block.text === "string"
    ? block.text.split("\n").map((line) => line.trim())
    : []

describe("a listing set in columns wider than its glyphs", () => {
  it("a token starting in the column after the last one's end is no word apart", () => {
    const found = pageBlocks(listing(false))
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.deepStrictEqual(codeLines(found[1]), code)
  })

  it("its line numbers, as large as the code and left of its deepest lines, are dropped", () => {
    const found = pageBlocks(listing(true))
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.deepStrictEqual(codeLines(found[1]), code)
  })
})
