import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

const code = (text: string, x: number, y: number): TextItem => ({ ...item(text, x, y, 8), style: Style.code })

/** The page's items in reading order: a table as its rows, cells parted by " | ". */
const read = (items: ReadonlyArray<TextItem>) =>
  Layout.orderPage({ page: 1, width: 600, height: 800, items, figures: [] } satisfies PageText).items.map((placed) =>
    placed._tag === "Line"
      ? placed.line.text
      : placed._tag === "Table"
      ? `table: ${placed.rows.map((row) => row.join(" | ")).join(" / ")}`
      : ""
  )

const commands = ["C-b", "C-f", "C-a", "C-e"]
const meanings = ["move back one character", "move forward one character", "move to the start", "move to the end"]

/** A reference card's section: commands in the code face at x 40, what they do at x 110, `leading` apart. */
const card = (leading: number): Array<TextItem> =>
  commands.flatMap((
    command,
    i
  ) => [code(command, 40, 100 + i * leading), item(meanings[i]!, 110, 100 + i * leading, 7)])

describe("a two-column tabulation", () => {
  it("of commands and what they do, on baselines at the text's leading, is a table", () => {
    assert.deepStrictEqual(read(card(9)), [
      "table: C-b | move back one character / C-f | move forward one character / C-a | move to the start / C-e | move to the end"
    ])
  })

  it("is no table when its rows stand a paragraph apart (a definition list's terms beside their text)", () => {
    assert.isFalse(read(card(16)).some((text) => text.startsWith("table:")))
  })

  it("is no table when its first cells are plain text (a term and its description in prose)", () => {
    const prose = commands.flatMap((
      command,
      i
    ) => [item(command, 40, 100 + i * 9, 8), item(meanings[i]!, 110, 100 + i * 9, 7)])
    assert.isFalse(read(prose).some((text) => text.startsWith("table:")))
  })

  it("is no table when its descriptions are sentences (a definition list of short terms)", () => {
    const sentences = commands.flatMap((command, i) => [
      code(command, 40, 100 + i * 9),
      item(`Moves ${meanings[i]!.slice(5)}.`, 110, 100 + i * 9, 7)
    ])
    assert.isFalse(read(sentences).some((text) => text.startsWith("table:")))
  })

  it("cuts a row whose long first cell leaves a narrow gap before the second column's stop", () => {
    // "sprand (n, m, d)" ends 4 points (half an em) short of the stop at x 110 the rows around are cut at.
    const items = card(9)
    const long = code("sprand (n,m)", 40, 127)
    const rows = [...items.slice(0, 6), { ...long, width: 66 }, item("sparse rand matrix", 110, 127, 7)]
    assert.deepStrictEqual(read(rows), [
      "table: C-b | move back one character / C-f | move forward one character / C-a | move to the start / sprand (n,m) | sparse rand matrix"
    ])
  })
})
