import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { item } from "./support/textItems.js"

/** Every text of an A4 landscape page in reading order, a table's cells row by row. */
const texts = (items: ReadonlyArray<TextItem>): Array<string> =>
  Layout.orderPage({ page: 1, width: 842, height: 595, items, figures: [] } satisfies PageText).items.flatMap(
    (placed) => placed._tag === "Line" ? [placed.line.text] : placed._tag === "Table" ? placed.rows.flat() : []
  )

/** A card column at `x`: a title over commands, each beside its meaning at a tab stop, 9 points apart. */
const column = (name: string, x: number): Array<TextItem> => [
  item(`${name} Commands`, x, 40, 9, 90),
  ...Array.from({ length: 12 }, (_, i) => [
    item(`${name}cmd${i + 1}`, x, 52 + i * 9, 7, 40 + (i % 3) * 15),
    item(`what ${name} command ${i + 1} does here`, x + 100, 52 + i * 9, 7, 140)
  ]).flat()
]

describe("reference card columns", () => {
  it("three unruled columns of commands beside their meaning, blank strips between them, are read one after the other", () => {
    const read = texts([...column("first", 30), ...column("second", 300), ...column("third", 570)])
    const at = (text: string) => read.findIndex((t) => t.includes(text))
    assert.isBelow(at("what first command 12 does"), at("second Commands"))
    assert.isBelow(at("what second command 12 does"), at("third Commands"))
    assert.isBelow(at("first Commands"), at("firstcmd1"))
  })

  it("two columns each near half the page wide are no card's: the page is read as before", () => {
    const wide = (name: string, x: number) =>
      Array.from(
        { length: 12 },
        (_, i) => item(`${name} line ${i + 1} of running text in a column`, x, 52 + i * 9, 7, 360)
      )
    const read = texts([...wide("left", 30), ...wide("right", 440)])
    const at = (text: string) => read.findIndex((t) => t.includes(text))
    assert.isBelow(at("left line 12"), at("right line 1"))
  })
})
