import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import type { Rule } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"
import { styledItem } from "./support/textItems.js"

const item = styledItem

const horizontal = (y: number, x0 = 80, x1 = 500): Rule => ({ x0, x1, y0: y, y1: y + 0.5, horizontal: true })
const vertical = (x: number, y0: number, y1: number): Rule => ({ x0: x, x1: x + 0.5, y0, y1, horizontal: false })

const tables = (items: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [], rules }
  return Layout.orderPage(page).items.flatMap((item) => item._tag === "Table" ? [item.rows] : [])
}

describe("ruled tables", () => {
  it("cells between rules, parted by a vertical rule, are a table; a cell wrapped over two lines stays one cell", () => {
    const found = tables([
      item("PARAMETER", 90, 115),
      item("DESCRIPTION", 250, 115),
      item("ENTITY_ROOT", 90, 140),
      item("Indicates the entity root of the", 250, 140),
      item("entity path.", 250, 152),
      item("ACTIVE_OV", 90, 177),
      item("Holds the Active OV IP address.", 250, 177)
    ], [
      horizontal(100),
      horizontal(122),
      horizontal(160),
      horizontal(185),
      vertical(80, 100, 185),
      vertical(240, 100, 185),
      vertical(500, 100, 185)
    ])
    assert.deepStrictEqual(found, [[
      ["PARAMETER", "DESCRIPTION"],
      ["ENTITY_ROOT", "Indicates the entity root of the entity path."],
      ["ACTIVE_OV", "Holds the Active OV IP address."]
    ]])
  })

  it("a top border drawn cell by cell, the right cell's a hair higher, is one rule: the first row's left cell is kept", () => {
    const found = tables([
      item("trace.tchange(start)", 90, 86),
      item("Change one or more trace parameters", 250, 86),
      item("trace.treset( )", 90, 166),
      item("Resets tracing parameters to default", 250, 166)
    ], [
      horizontal(76.2, 80, 240),
      { x0: 240, x1: 500, y0: 75.7, y1: 77.6, horizontal: true },
      horizontal(157.6),
      horizontal(170),
      horizontal(182),
      vertical(80, 76.2, 182),
      vertical(240, 77.6, 182),
      vertical(500, 77.6, 182)
    ])
    assert.deepStrictEqual(found, [[
      ["trace.tchange(start)", "Change one or more trace parameters"],
      ["trace.treset( )", "Resets tracing parameters to default"]
    ]])
  })

  it("short keywords in code type beside their descriptions are a table, though most runs are code (DocBook FOP)", () => {
    const mono = Style.code
    const keys = ["RRRR", "YYYY", "IY", "MM"]
    const texts = ["4-digit year, rounded to the century", "4-digit year", "2 digit year, by ISO week", "Month (01-12)"]
    const found = tables([
      ...keys.map((key, i) => item(key, 90, 115 + i * 20, mono)),
      item("Returns", 250, 115),
      item("AD", 290, 115, mono),
      item("or", 305, 115),
      item("BC", 320, 115, mono),
      ...texts.slice(1).map((text, i) => item(text, 250, 135 + i * 20))
    ], [
      ...[100, 122, 142, 162, 182].map((y) => horizontal(y)),
      vertical(80, 100, 182),
      vertical(240, 100, 182),
      vertical(500, 100, 182)
    ])
    assert.deepStrictEqual(found, [[
      ["RRRR", "Returns AD or BC"],
      ["YYYY", "4-digit year"],
      ["IY", "2 digit year, by ISO week"],
      ["MM", "Month (01-12)"]
    ]])
  })

  it("columns without vertical rules are the gaps no cell crosses; a first cell left empty goes on with the row above", () => {
    const found = tables([
      item("Sensor", 90, 115),
      item("Value", 300, 115),
      item("Fan Health", 90, 135),
      item("OK", 300, 135),
      item("Degraded", 300, 147),
      item("Power", 90, 159),
      item("Failed", 300, 159)
    ], [horizontal(100), horizontal(122), horizontal(170)])
    assert.deepStrictEqual(found, [[["Sensor", "Value"], ["Fan Health", "OK Degraded"], ["Power", "Failed"]]])
  })

  it("cell borders going on past the top and bottom rules keep the open header and last row in the table (XEP)", () => {
    const edges = [80, 240, 500]
    const found = tables([
      item("Table 2 Entity Types", 80, 90),
      item("Entity Name", 90, 115),
      item("Entity Type", 250, 115),
      item("Processor", 90, 135),
      item("PROCESSOR", 250, 135),
      item("Power Module", 90, 155),
      item("POWER_MODULE", 250, 155),
      item("Fan", 90, 175),
      item("COOLING_DEVICE", 250, 175),
      item("The entity location for the system chassis is set in the configuration.", 60, 210)
    ], [
      ...[122, 142, 162].map((y) => horizontal(y)),
      ...edges.flatMap((x) => [[100, 122], [122, 142], [142, 162], [162, 185]].map(([a, b]) => vertical(x, a!, b!)))
    ])
    assert.deepStrictEqual(found, [[
      ["Entity Name", "Entity Type"],
      ["Processor", "PROCESSOR"],
      ["Power Module", "POWER_MODULE"],
      ["Fan", "COOLING_DEVICE"]
    ]])
  })

  it("two booktabs tables of different widths one over the other are two tables", () => {
    const found = tables([
      item("Table 1 A simple table", 380, 50),
      item("Experiment", 365, 72),
      item("Speed", 425, 72),
      item("Heat", 470, 72),
      item("Run 11", 365, 90),
      item("12.5", 425, 90),
      item("103.4", 470, 90),
      item("Run 12", 365, 101),
      item("24", 425, 101),
      item("68.3", 470, 101),
      item("Table 2 Table with more complicated columns", 322, 122),
      item("Experiment", 322, 144),
      item("Speed", 440, 144),
      item("Heat", 500, 144),
      item("The first experiment", 322, 162),
      item("124.3", 440, 162),
      item("68.3", 500, 162),
      item("Our competitor's data", 322, 186),
      item("72.321", 440, 186),
      item("141.384", 500, 186)
    ], [
      ...[60, 78, 106].map((y) => horizontal(y, 360, 505)),
      ...[132, 150, 195].map((y) => horizontal(y, 319, 545))
    ])
    assert.deepStrictEqual(found, [[
      ["Experiment", "Speed", "Heat"],
      ["Run 11", "12.5", "103.4"],
      ["Run 12", "24", "68.3"]
    ], [
      ["Experiment", "Speed", "Heat"],
      ["The first experiment", "124.3", "68.3"],
      ["Our competitor's data", "72.321", "141.384"]
    ]])
  })

  it("borders down a table's two sides only part no columns: the gaps no cell crosses do (Writer)", () => {
    const found = tables([
      item("Feature Name", 90, 115),
      item("Setting", 250, 115),
      item("Shapes", 400, 115),
      item("Ethiopic digits", 90, 135),
      item("Standard", 250, 135),
      item("1 2 3", 400, 135),
      item("Connected", 250, 150),
      item("cv02=1", 330, 150),
      item("mwa alternates", 90, 175),
      item("Standard", 250, 175),
      item("4 5", 400, 175)
    ], [
      ...[100, 122, 160, 185].map((y) => horizontal(y)),
      vertical(80, 100, 185),
      vertical(499.5, 100, 185)
    ])
    assert.deepStrictEqual(found, [[
      ["Feature Name", "Setting", "", "Shapes"],
      ["Ethiopic digits", "Standard Connected", "cv02=1", "1 2 3"],
      ["mwa alternates", "Standard", "", "4 5"]
    ]])
  })

  it("two narrow booktabs tables parted by a caption wider than them; cells 0.3 em apart start columns; group rows stay rows", () => {
    const w = (text: string, x: number, y: number) => ({ ...item(text, x, y), width: text.length * 4 })
    const table = (top: number, first: string) => [
      w("Feature", 150, top + 13),
      w("Option", 206, top + 13),
      w("Tag", 260, top + 13),
      w(first, 150, top + 30),
      w("=", 154 + first.length * 4, top + 30),
      ...["Swash", "Alternate", "WordInitial"].flatMap((option, i) => [
        w(option, 206, top + 30 + 12 * i),
        w(["cswh", "calt", "init"][i]!, 253, top + 30 + 12 * i)
      ])
    ]
    const found = tables([
      ...table(100, "Contextuals"),
      w("Note under the first table, wider than it, and a caption.", 100, 180),
      w("Table 2: the second table's caption, wider than it.", 100, 192),
      ...table(200, "Letters")
    ], [100, 117, 170, 200, 217, 270].map((y) => horizontal(y, 145, 280)))
    const rows = (first: string) => [
      ["Feature", "Option", "Tag"],
      [`${first} =`, "Swash", "cswh"],
      ["", "Alternate", "calt"],
      ["", "WordInitial", "init"]
    ]
    assert.deepStrictEqual(found, [rows("Contextuals"), rows("Letters")])
  })

  it("a rule under some cells of a framed table parts rows there; the cell spanning both goes on past it", () => {
    const small = (text: string, x: number, y: number) => item(text, x, y, 0, 6)
    const found = tables([
      item("Feature", 90, 115),
      item("Setting", 210, 115),
      item("Example", 330, 115),
      item("Show invisible", 90, 140),
      small("(U+061C, U+200C,", 90, 150),
      small("U+200E, U+200F)", 90, 170),
      item("0=False", 210, 140),
      item("1=True", 210, 180),
      small("XeTeX: invisible", 210, 190),
      small("characters=True", 210, 198),
      small("a b c", 330, 195)
    ], [
      horizontal(100),
      horizontal(122),
      horizontal(165, 200, 500),
      horizontal(205),
      ...[80, 200, 320, 500].map((x) => vertical(x, 100, 205))
    ])
    assert.deepStrictEqual(found, [[
      ["Feature", "Setting", "Example"],
      ["Show invisible (U+061C, U+200C, U+200E, U+200F)", "0=False", ""],
      ["", "1=True XeTeX: invisible characters=True", "a b c"]
    ]])
  })

  it("a table framed by cell borders is read by its rules: a bold header, a row taller than 180 pt, cells of two sizes", () => {
    const bold = (text: string, x: number, y: number) => item(text, x, y, Style.strong, 12)
    const body = (text: string, x: number, y: number) => item(text, x, y, 0, 12)
    const tall = ["Permitted only", "where the", "visual result", "differs from", "placing the", "coeng before"]
    const found = tables([
      bold("Feature", 60, 118),
      bold("Microsoft", 210, 118),
      bold("OS X", 360, 118),
      body("Helping the", 60, 145),
      body("user to type", 60, 159),
      body("Fairly good", 210, 145),
      body("implementation", 210, 159),
      body("Depending on", 360, 145),
      body("Coeng after", 60, 215),
      body("vowels", 60, 229),
      body("Yes, any coeng", 210, 215),
      ...tall.map((line, i) => body(line, 360, 215 + 36 * i)),
      item("Examples (order", 60, 435),
      item("of elements)", 60, 447),
      body("x y", 210, 437),
      body("Depends", 360, 437)
    ], [
      ...[100, 130, 200, 420, 460].map((y) => horizontal(y, 50, 500)),
      ...[50, 200, 350, 500].flatMap((x) =>
        [[100, 130], [130, 200], [200, 420], [420, 460]].map(([y0, y1]) => vertical(x, y0!, y1!))
      )
    ])
    assert.deepStrictEqual(found, [[
      ["Feature", "Microsoft", "OS X"],
      ["Helping the user to type", "Fairly good implementation", "Depending on"],
      ["Coeng after vowels", "Yes, any coeng", tall.join(" ")],
      ["Examples (order of elements)", "x y", "Depends"]
    ]])
  })

  it("note marks raised over a framed row's words are no row of their own", () => {
    const rules = [horizontal(100, 240, 360), horizontal(116, 240, 360)].concat(
      [240, 300, 360].map((x) => vertical(x, 100, 116))
    )
    const found = tables([
      item("Inside", 250, 112),
      item("9", 280, 108, 0, 8),
      item("a", 287, 112),
      item("tabular", 304, 112),
      item("10", 340, 108, 0, 8)
    ], rules)
    assert.deepStrictEqual(found, [])
  })

  it("a framed listing, a framed note, and rules under a running head are no tables", () => {
    const code = ["int main() {", "  return 0;   /* done */", "}"].map((line, i) =>
      item(line, 90, 115 + i * 12, Style.code)
    )
    assert.deepStrictEqual(tables(code, [horizontal(100), horizontal(160)]), [])
    const note = [
      item("Note:", 90, 115),
      item("Text of the note that goes on", 150, 115),
      item("over a line.", 150, 127)
    ]
    assert.deepStrictEqual(
      tables(note, [horizontal(100), horizontal(140), vertical(80, 100, 140), vertical(500, 100, 140)]),
      []
    )
    assert.deepStrictEqual(tables([item("Chapter 2", 90, 40), item("Page 7", 450, 40)], [horizontal(45)]), [])
  })

  it("an example set large in one cell of a ruled row is a cell; a large title alone between rules parts no table", () => {
    const rows = [
      item("Feature", 90, 115),
      item("Example", 300, 115),
      item("Comma", 90, 140),
      item("A", 300, 145, 0, 24),
      item("Heh", 90, 175),
      item("B", 300, 180, 0, 24),
      item("Meem", 90, 210),
      item("C", 300, 215, 0, 24)
    ]
    const rules = [horizontal(100), horizontal(122), horizontal(155), horizontal(190), horizontal(225)]
    assert.deepStrictEqual(tables(rows, rules), [[["Feature", "Example"], ["Comma", "A"], ["Heh", "B"], ["Meem", "C"]]])
    // The same rules with a heading alone in the middle band: two tables' rules, not one table.
    const titled = rows.filter((r) => r.text !== "Heh" && r.text !== "B").concat([item("Table 2", 90, 178, 0, 16)])
    assert.deepStrictEqual(tables(titled, rules), [])
  })

  it("a heading and an example between two tables ruled top, under the header and bottom part them: two tables", () => {
    const mono = Style.code
    const found = tables([
      item("Term", 90, 115),
      item("Df", 300, 115),
      item("sex", 90, 135),
      item("1", 300, 135),
      item("Residuals", 90, 147),
      item("93", 300, 147),
      item("2.4 lm", 90, 185, Style.strong, 14),
      item("fm2 <- lm(tlimth ~ sex)", 90, 205, mono),
      item("Estimate", 90, 245),
      item("Pr", 300, 245),
      item("sexM", 90, 265),
      item("0.78", 300, 265)
    ], [horizontal(100), horizontal(122), horizontal(155), horizontal(230), horizontal(252), horizontal(275)])
    assert.deepStrictEqual(found, [
      [["Term", "Df"], ["sex", "1"], ["Residuals", "93"]],
      [["Estimate", "Pr"], ["sexM", "0.78"]]
    ])
  })

  describe("a slide theme's bars and boxes are no table", () => {
    const strips = (y0: number, n: number, x0: number, x1: number) =>
      Array.from({ length: n }, (_, i) => horizontal(y0 + 1.5 * i, x0, x1))
    const slide = [
      item("Introduction", 20, 8, 0, 5),
      item("Conclusion", 560, 8, 0, 5),
      item("Why a new language ?", 10, 30, 0, 12),
      item("advantages", 40, 80),
      item("Memory mapping, interrupt management", 40, 100),
      item("inconveniences", 40, 130),
      item("Not high level language", 40, 150)
    ]
    const bars = [...strips(0, 13, -1, 601), ...strips(36, 3, -1, 601)]

    it("a shadow's edge shaded in strips a hair apart is one border", () => {
      const found = tables(slide, [
        ...bars,
        ...strips(84, 3, 32, 560),
        ...strips(140, 3, 24, 560),
        ...strips(158, 3, 32, 560),
        ...Array.from({ length: 11 }, (_, i) => vertical(537 + 0.5 * i, 0, 160)),
        vertical(538, 46, 84)
      ])
      assert.deepStrictEqual(found, [])
    })

    it("rules drawn past the page's edge (a clipped shadow) are no borders", () => {
      const found = tables(slide, [
        ...bars,
        ...strips(84, 3, 32, 5702),
        ...strips(140, 3, 24, 5694),
        ...strips(158, 3, 32, 5702),
        ...[300, 420, 537].map((x) => vertical(x, -5585, 160)),
        vertical(538, 46, 84)
      ])
      assert.deepStrictEqual(found, [])
    })
  })
  it("doubled rules above and below (REVTeX's Scotch rules) are two, not four: rows are the baselines, a raised note label stays in its cell", () => {
    const found = tables([
      item("a", 110, 108, 0, 7),
      item("Left", 90, 112),
      item("Right", 250, 112),
      item("1", 90, 130),
      item("2", 250, 130),
      item("10", 90, 142),
      item("20", 250, 142)
    ], [horizontal(100), horizontal(102), horizontal(117), horizontal(148), horizontal(150)])
    assert.deepStrictEqual(found, [[["Lefta", "Right"], ["1", "2"], ["10", "20"]]])
  })
})
