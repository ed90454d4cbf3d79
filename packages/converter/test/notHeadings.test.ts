import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { isCaption, isStamp } from "../src/internal/layout/notHeadings.js"
import { item } from "./support/textItems.js"

const blocks = (items: ReadonlyArray<TextItem>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [] }
  return Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Heading" ? [`h${block.level} ${block.text}`] : block._tag === "Paragraph" ? [block.text] : [])
}

const body = (y: number): Array<TextItem> => [
  item("Body text of the section, long enough to be set in the body size here.", 50, y),
  item("Its second line goes on with the body text of the same section here.", 50, y + 12)
]

describe("lines that are not headings", () => {
  it("a caption set as large as a heading stays text, the heading beside it is kept", () => {
    const found = blocks([
      item("2 Results", 50, 100, 12),
      ...body(120),
      item("Figure 4-2. The Parameters and their Subclasses", 50, 170, 12),
      ...body(190)
    ])
    assert.deepStrictEqual(found.filter((text) => text.startsWith("h")), ["h1 2 Results"])
    assert.isTrue(found.some((text) => text.startsWith("Figure 4-2. The Parameters")))
  })

  it("a caption is a label and its number before a text; a title that names figures or tables is not", () => {
    assert.isTrue(isCaption("Table 1: Frequency of Special Characters"))
    assert.isTrue(isCaption("Fig. 1 A figure caption with math"))
    assert.isTrue(isCaption("Table 8.2. Numeric Types"))
    assert.isFalse(isCaption("Table of Contents"))
    assert.isFalse(isCaption("Figures and Tables"))
    assert.isFalse(isCaption("Table 1"))
  })

  it("a title page's date and version under its title are text; its sections stay headings", () => {
    const found = blocks([
      item("A Style for Slides", 50, 60, 18),
      item("\u275a 1 April 1993", 50, 90, 14),
      item("Version 1.0", 50, 110, 14),
      item("1 Introduction", 50, 150, 14),
      ...body(170)
    ])
    assert.deepStrictEqual(found.filter((text) => text.startsWith("h")), ["h1 A Style for Slides", "h2 1 Introduction"])
    assert.isTrue(found.some((text) => !text.startsWith("h") && text.includes("Version 1.0")))
  })

  it("a stamp is a date or a version alone", () => {
    assert.isTrue(isStamp("2022-07-05"))
    assert.isTrue(isStamp("Oct 19, 2022"))
    assert.isTrue(isStamp("Version 1.20, December 30, 2022"))
    assert.isFalse(isStamp("Version Control"))
    assert.isFalse(isStamp("April 1993 Report"))
  })

  it("a table's header cells set large side by side are not headings; a numeral set apart from its title is", () => {
    const found = blocks([
      item("2 Results", 50, 100, 14),
      ...body(120),
      item("mpg cyl disp", 200, 170, 14, 84),
      item("hp drat wt", 305, 170, 14, 70),
      item("Mazda RX4 21.00 6.00 160.00 110.00 3.90 2.62", 200, 190),
      item("II.", 50, 230, 14, 21),
      item("MATH AND EQUATIONS", 95, 230, 14),
      ...body(250)
    ])
    const headings = found.filter((text) => text.startsWith("h"))
    assert.isFalse(headings.some((text) => text.includes("mpg") || text.includes("drat")))
    assert.isTrue(headings.some((text) => text.endsWith("MATH AND EQUATIONS")))
    assert.isTrue(found.some((text) => text.includes("mpg cyl disp hp drat wt")))
  })
})
