import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import type { Rule } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"
import { ruledSpans } from "../src/internal/layout/ruledTables.js"
import { item, styledItem } from "./support/textItems.js"

const horizontal = (y: number, x0 = 80, x1 = 400): Rule => ({ x0, x1, y0: y, y1: y + 0.8, horizontal: true })

const tables = (items: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [], rules }
  return Layout.orderPage(page).items.flatMap((placed) => placed._tag === "Table" ? [placed.rows] : [])
}

/** A line of code, each word a run of its own 5 points after the one before (a fixed-pitch space). */
const code = (text: string, x: number, y: number): Array<TextItem> => {
  let at = x
  return text.split(" ").map((word) => {
    const run = styledItem(word, at, y, Style.code)
    at += run.width + 5
    return run
  })
}

/** A row of cells at the given x positions on baseline `y`. */
const row = (y: number, cells: ReadonlyArray<readonly [string, number]>): Array<TextItem> =>
  cells.map(([text, x]) => item(text, x, y))

describe("tables of reports", () => {
  it("a title and a line of code between two booktabs tables part them: each keeps its columns", () => {
    const found = tables([
      ...row(108, [["Df", 150], ["Sum Sq", 200]]),
      ...row(125, [["sex", 90], ["1", 150], ["75.37", 200]]),
      ...row(137, [["grade", 90], ["1", 150], ["36.31", 200]]),
      styledItem("Anova table", 80, 175, Style.strong),
      ...code("fm2b <- lm(tlimth ~ ethnicty, data = tli)", 80, 190),
      ...row(212, [["Res.Df", 150], ["RSS", 200]]),
      ...row(229, [["1", 90], ["96", 150], ["19053.59", 200]]),
      ...row(241, [["2", 90], ["93", 150], ["18480.04", 200]])
    ], [
      horizontal(100, 80, 260),
      horizontal(113, 80, 260),
      horizontal(142, 80, 260),
      horizontal(203, 80, 260),
      horizontal(216, 80, 260),
      horizontal(246, 80, 260)
    ])
    assert.deepStrictEqual(found, [
      [["", "Df", "Sum Sq"], ["sex", "1", "75.37"], ["grade", "1", "36.31"]],
      [["", "Res.Df", "RSS"], ["1", "96", "19053.59"], ["2", "93", "18480.04"]]
    ])
  })

  it("rules around blocks of rows (four or more, none between the rows of a block) part no rows", () => {
    const found = tables([
      ...row(108, [["Start", 200], ["Step 1", 260]]),
      ...row(125, [["AIC", 90], ["1872.1", 200], ["407.6", 260]]),
      ...row(137, [["BIC", 90], ["1882.8", 200], ["412.9", 260]]),
      ...row(158, [["AIC", 90], ["3915.8", 200], ["3916.7", 260]]),
      ...row(170, [["BIC", 90], ["3947.8", 200], ["3943.4", 260]])
    ], [horizontal(100), horizontal(113), horizontal(145), horizontal(176)])
    assert.deepStrictEqual(found, [[
      ["", "Start", "Step 1"],
      ["AIC", "1872.1", "407.6"],
      ["BIC", "1882.8", "412.9"],
      ["AIC", "3915.8", "3916.7"],
      ["BIC", "3947.8", "3943.4"]
    ]])
  })

  it("notes led by small labels above a table's closing rule stay out of it, and cross no column", () => {
    const page: PageText = {
      page: 1,
      width: 600,
      height: 800,
      items: [
        ...row(108, [["Start", 200], ["Step 1", 260]]),
        ...row(125, [["AIC", 90], ["1872.1", 200], ["407.6", 260]]),
        ...row(137, [["BIC", 90], ["1882.8", 200], ["412.9", 260]]),
        item("1", 90, 150, 7),
        item("Coefficient of this variable not significant.", 96, 153),
        item("2", 90, 162, 7),
        item("No reduction of AIC and BIC by a further one.", 96, 165)
      ],
      figures: [],
      rules: [horizontal(100), horizontal(113), horizontal(142), horizontal(170)]
    }
    const placed = Layout.orderPage(page).items
    assert.deepStrictEqual(placed.flatMap((p) => p._tag === "Table" ? [p.rows] : []), [[
      ["", "Start", "Step 1"],
      ["AIC", "1872.1", "407.6"],
      ["BIC", "1882.8", "412.9"]
    ]])
    assert.isTrue(placed.some((p) => p._tag === "Line" && p.line.text.includes("Coefficient of this variable")))
  })

  it("a cell in a larger face a hair under its row's baseline is that row's, its raised note label after it", () => {
    const found = tables([
      ...row(108, [["Feature", 90], ["Setting", 200], ["ID", 280], ["Shapes", 340]]),
      ...row(125, [["dda alternates", 90], ["Standard", 200]]),
      item("ABCD", 340, 126.2, 11),
      ...row(141, [["Alternate", 200], ["cv32=1", 280]]),
      item("ABCD", 340, 142.2, 11),
      item("6", 362, 137.3, 7)
    ], [horizontal(100, 80, 420), horizontal(113, 80, 420), horizontal(150, 80, 420)])
    assert.deepStrictEqual(found, [[
      ["Feature", "Setting", "ID", "Shapes"],
      ["dda alternates", "Standard", "", "ABCD"],
      ["", "Alternate", "cv32=1", "ABCD6"]
    ]])
  })

  it("a header's two rules and a bottom rule of the same extent far under them hold one table's rows", () => {
    const rules = [horizontal(100), horizontal(113), horizontal(420), horizontal(470, 420, 560)]
    assert.deepStrictEqual(ruledSpans(rules, 600).map(([y0, y1]) => [y0, Math.round(y1)]), [[100, 421]])
  })

  it("a tall table's bottom rule close over the next table's wider rules closes its own table", () => {
    const rules = [
      horizontal(100),
      horizontal(113),
      horizontal(420),
      ...[450, 462, 500].map((y) => horizontal(y, 60, 420))
    ]
    assert.deepStrictEqual(ruledSpans(rules, 600).map(([y0, y1]) => [y0, Math.round(y1)]), [[100, 421], [450, 501]])
  })
})
