import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

const headings = (items: ReadonlyArray<TextItem>, outline: ReadonlyArray<Layout.OutlineEntry>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [] }
  return Layout.layoutDocument({ pages: [page], outline, title: undefined, filename: "t" }).blocks.flatMap((
    block
  ) => block._tag === "Heading" ? [[block.level, block.text] as const] : [])
}

describe("headings", () => {
  it("an outlined heading keeps the letters the page shows (small capitals read as capitals)", () => {
    const found = headings([
      item("1 INTRODUCTION", 50, 100, 12),
      item("Body text of the introduction, long enough to be the body size.", 50, 130),
      item("1.1 Wrapped Title That", 50, 160, 12),
      item("Goes On", 50, 175, 12),
      item("More body text of the section, long enough to be the body size.", 50, 200)
    ], [
      { title: "Introduction", level: 1, page: 1, top: 90 },
      { title: "Wrapped Title That Goes On", level: 2, page: 1, top: 150 }
    ])
    assert.deepStrictEqual(found, [[1, "1 INTRODUCTION"], [2, "1.1 Wrapped Title That Goes On"]])
  })

  it("an outline title with its own section number takes the capitals the page shows", () => {
    const found = headings([
      item("2 TEMPLATE OVERVIEW", 50, 100, 12),
      item("Body text of the overview, long enough to be the body size here.", 50, 130)
    ], [{ title: "2 Template Overview", level: 1, page: 1, top: 90 }, { title: "Other", level: 1, page: 2, top: 90 }])
    assert.deepStrictEqual(found.slice(0, 1), [[1, "2 TEMPLATE OVERVIEW"]])
  })
})

describe("a title the outline leaves out", () => {
  const bold = (text: string, x: number, y: number, size = 10): TextItem => ({ ...item(text, x, y, size), style: 2 })
  const outline: ReadonlyArray<Layout.OutlineEntry> = [
    { title: "1 Introduction", level: 1, page: 1, top: 140 },
    { title: "1.1 Scope", level: 2, page: 1, top: 200 },
    { title: "2 Usage", level: 1, page: 1, top: 320 }
  ]
  const page = [
    item("The Name of the Paper", 50, 60, 18),
    item("Ann Author and Bob Writer", 50, 90, 12),
    item("1 Introduction", 50, 150, 14),
    item("Body text of the introduction, long enough to be the body size.", 50, 170),
    item("Its second line, which goes on with the body text of the section.", 50, 182),
    item("1.1 Scope", 50, 210, 12),
    item("Body text of the section on scope, long enough to be the body size.", 50, 230),
    item("Its second line, which goes on with the body text of the section.", 50, 242),
    bold("1.1.1 Limits", 50, 270),
    item("Body text of the subsection on limits, long enough to be the body size.", 50, 290),
    item("Its second line, which goes on with the body text of the section.", 50, 302),
    item("2 Usage", 50, 330, 14),
    item("Body text of the usage section, long enough to be the body size.", 50, 350),
    item("Its second line, which goes on with the body text of the section.", 50, 362)
  ]

  it("is the level 1 heading, the outline's levels one deeper, numbered headings at their number's level", () => {
    assert.deepStrictEqual(headings(page, outline), [
      [1, "The Name of the Paper"],
      [2, "1 Introduction"],
      [3, "1.1 Scope"],
      [4, "1.1.1 Limits"],
      [2, "2 Usage"]
    ])
  })

  it("is not taken from a line no larger than the outline's headings", () => {
    const found = headings([item("The Name of the Paper", 50, 60, 14), ...page.slice(1)], outline)
    assert.deepStrictEqual(found, [[1, "1 Introduction"], [2, "1.1 Scope"], [3, "1.1.1 Limits"], [1, "2 Usage"]])
  })
})

describe("section numbers set apart by a tab", () => {
  const bold = (text: string, x: number, y: number, size = 10): TextItem => ({ ...item(text, x, y, size), style: 2 })

  it("a Word heading's number two ems left of its title is part of the heading, not a paragraph", () => {
    const page: PageText = {
      page: 1,
      width: 600,
      height: 800,
      items: [
        bold("1", 50, 100, 16),
        bold("About This Book", 84, 100, 16),
        item("Body text of the first chapter, long enough to be the body size.", 50, 130),
        bold("1.1", 50, 160, 14),
        bold("Audience", 90, 160, 14),
        item("Body text of the first section, long enough to be the body size.", 50, 190),
        bold("1.2", 50, 220, 14),
        bold("Organization", 90, 220, 14),
        item("Body text of the next section, long enough to be the body size too.", 50, 250)
      ],
      figures: []
    }
    const blocks = Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks
    const found = blocks.flatMap((block) => block._tag === "Heading" ? [[block.level, block.text] as const] : [])
    assert.deepStrictEqual(found, [[1, "1 About This Book"], [2, "1.1 Audience"], [2, "1.2 Organization"]])
    assert.isFalse(blocks.some((block) => block._tag === "Paragraph" && /^1\.\d$/.test(block.text)))
  })

  const numberedPair = (number: string, title: string, sub: string, subTitle: string, size: number) =>
    Layout.layoutDocument({
      pages: [{
        page: 1,
        width: 600,
        height: 800,
        items: [
          bold(number, 50, 100, size),
          bold(title, 80, 100, size),
          bold(sub, 50, 125, 12),
          bold(subTitle, 80, 125, 12),
          item("Body text of the first section, long enough to be the body size.", 50, 150),
          item("Its second line, which goes on with the body text of the section.", 50, 162)
        ],
        figures: []
      }],
      outline: [],
      title: undefined,
      filename: "t"
    }).blocks

  it("a bold chapter number and title over a bold section's are two headings, not a table", () => {
    const blocks = numberedPair("2", "Gallery", "2.1", "Data frame", 14)
    assert.isFalse(blocks.some((block) => block._tag === "Table"))
    const found = blocks.flatMap((block) => block._tag === "Heading" ? [[block.level, block.text] as const] : [])
    assert.deepStrictEqual(found, [[1, "2 Gallery"], [2, "2.1 Data frame"]])
  })

  it("a bold part letter and title over a bold numbered question's are headings, not a table", () => {
    const blocks = numberedPair("B", "Basic notions", "5", "What is TeX?", 16)
    assert.isFalse(blocks.some((block) => block._tag === "Table"))
  })

  it("a bold chapter number and title at the text size over a paragraph is a heading at the number's depth", () => {
    const found = headings([
      bold("1 Overview", 50, 100),
      item("Body text of the overview, long enough to be the body size of the page.", 60, 116),
      item("Its second line, which goes on with the body text of the overview.", 50, 128),
      bold("2. Basics of Text Processing", 50, 160),
      item("Body text of the basics, long enough to be the body size of the page.", 60, 176),
      item("Its second line, which goes on with the body text of the basics.", 50, 188),
      bold("2.1 Filling", 50, 220),
      item("Body text of the filling, long enough to be the body size of the page.", 60, 236),
      item("Its second line, which goes on with the body text of the filling.", 50, 248),
      bold("3 Apples, pears and plums were bought and eaten by all of the children there", 50, 280),
      item("Body text after a bold sentence, long enough to be the body size.", 50, 292)
    ], [])
    assert.deepStrictEqual(found, [[1, "1 Overview"], [1, "2. Basics of Text Processing"], [2, "2.1 Filling"]])
  })

  it("a bold numbered title over a shorter paragraph indented past it is a heading (groff -me's nested text)", () => {
    const text = [
      item("Body text before the section, long enough to be the body size of the page.", 65, 100),
      item("Its last line, short.", 65, 112),
      bold("5. THE WHOLE SCOOP ON THE CONFIGURATION FILE", 50, 136),
      item("This section describes the file.", 90, 152),
      item("The next paragraph, long enough to be the body size of the page and more.", 90, 168),
      item("Its second line, which goes on with the body text of the page and more.", 65, 180)
    ]
    assert.deepStrictEqual(headings(text, []), [[1, "5. THE WHOLE SCOOP ON THE CONFIGURATION FILE"]])
  })

  it("a bold appendix title stands beside the numbered sections, not under them", () => {
    const found = headings([
      item("A Fortran to C Converter", 50, 60, 14),
      bold("10. REFERENCES", 50, 100),
      item("[1] American National Standard Programming Language FORTRAN, ANSI.", 75, 116),
      item("American National Standards Institute, New York, NY, 1978, and more.", 50, 128),
      item("[2] American National Standard for Information Systems, CBEMA, 1989.", 50, 140),
      bold("Appendix A: Commercial Fortran-to-C Vendors", 50, 172),
      item("At the time of this writing, we are aware that the following vendors offer", 75, 188),
      item("Fortran to C conversion service, and others are invited to tell us theirs.", 50, 200),
      item("Omitted vendors are invited to inform us of their existence, so we may.", 50, 212)
    ], [])
    assert.deepStrictEqual(found, [
      [1, "A Fortran to C Converter"],
      [1, "10. REFERENCES"],
      [1, "Appendix A: Commercial Fortran-to-C Vendors"]
    ])
  })

  it("a bold section heading over a table gives the table its own columns, not the heading's", () => {
    const row = (y: number, cells: ReadonlyArray<string>, style: 0 | 2) =>
      cells.map((text, i) => ({ ...item(text, [50, 150, 300][i]!, y), style }))
    const blocks = Layout.layoutDocument({
      pages: [{
        page: 1,
        width: 600,
        height: 800,
        items: [
          bold("9.3", 50, 100, 12),
          bold("Tools for building programs", 80, 100, 12),
          ...row(125, ["package", "popcon", "size"], 2),
          ...row(140, ["make", "V:147", "1592"], 0),
          ...row(155, ["cmake", "V:16", "28897"], 0),
          ...row(170, ["meson", "V:2", "3451"], 0)
        ],
        figures: []
      }],
      outline: [],
      title: undefined,
      filename: "t"
    }).blocks
    const tables = blocks.flatMap((block) => block._tag === "Table" ? [block.rows] : [])
    assert.deepStrictEqual(tables, [[
      ["package", "popcon", "size"],
      ["make", "V:147", "1592"],
      ["cmake", "V:16", "28897"],
      ["meson", "V:2", "3451"]
    ]])
  })

  it("a number in a table's first column stays apart from the cell beside it", () => {
    const found = headings([
      item("Body text of the page, long enough to be the body size of it.", 50, 100),
      item("1.1", 50, 130),
      item("Released the first version", 90, 130),
      item("1.2", 50, 145),
      item("Fixed the second version", 90, 145)
    ], [])
    assert.deepStrictEqual(found, [])
  })
})

describe("bold headings in the body's size told apart by their numbers", () => {
  const bold = (text: string, y: number): TextItem => ({ ...item(text, 50, y), style: Style.strong })
  // A larger title, then bold headings with more space around them than the paragraphs between.
  const page = (chapter: string) => {
    const body = [148, 178, 208, 238, 268, 298].flatMap((y, i) => [
      item(`Paragraph ${i + 1} of the section runs over the whole width of the page`, 50, y),
      item("and ends on its second line.", 50, y + 12)
    ])
    return [
      item("Programmer's Guide", 50, 60, 16),
      bold(chapter, 100),
      bold("1.1 IDENTIFICATION", 124),
      ...body,
      bold("1.2 SYSTEM OVERVIEW", 334),
      item("The last paragraph of the section, long enough for the body.", 50, 358)
    ]
  }

  it("a chapter's number stands its title over the sections numbered under it", () => {
    // The larger title stands over them all (`titleAbove`).
    assert.deepStrictEqual(headings(page("1. SCOPE"), []), [
      [1, "Programmer's Guide"],
      [2, "1. SCOPE"],
      [3, "1.1 IDENTIFICATION"],
      [3, "1.2 SYSTEM OVERVIEW"]
    ])
  })

  it("a title without a number keeps the level under the larger sizes", () => {
    assert.deepStrictEqual(headings(page("SCOPE"), []).slice(1, 3), [[2, "SCOPE"], [2, "1.1 IDENTIFICATION"]])
  })
})

describe("slides' bullets", () => {
  it("a size bulleted items are set in is text, not a heading size, though larger than the body", () => {
    const page: PageText = {
      page: 1,
      width: 720,
      height: 540,
      items: [
        item("What is Locality Sensitive Hashing", 40, 60, 28),
        item("\u2022 Traditional hashes have the property that a small change", 40, 120, 20),
        item("results in a completely different hash", 60, 144, 20),
        item("\u2013 You can measure the similarity of 2 files", 70, 170, 18),
        item("A box of smaller text, set at the size most of the deck's characters are in,", 40, 300, 14),
        item("long enough to make that size the body's: pseudo-code, tables and references.", 40, 318, 14),
        item("More of that text, so that its size is the body's and the bullets' is larger.", 40, 336, 14)
      ],
      figures: []
    }
    const blocks = Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks
    assert.deepStrictEqual(
      blocks.flatMap((block) => block._tag === "Heading" ? [block.text] : []),
      ["What is Locality Sensitive Hashing"]
    )
    const list = blocks.find((block): block is Document.List => block._tag === "List")
    assert.strictEqual(
      list?.items[0]?.text,
      "Traditional hashes have the property that a small change results in a completely different hash"
    )
    assert.strictEqual(list?.items[0]?.lists?.[0]?.items[0]?.text, "You can measure the similarity of 2 files")
  })
})

describe("a bulleted line at an outlined heading's size", () => {
  it("is a list item, not a heading of that size's level", () => {
    const blocks = Layout.layoutDocument({
      pages: [{
        page: 1,
        width: 600,
        height: 800,
        items: [
          item("1 Usage", 50, 100, 12),
          item("Body text of the usage section, long enough to be the body size here.", 50, 130),
          item("• an environment which delivers footnotes", 60, 160, 12),
          item("• a macro to patch environments", 60, 180, 12),
          item("2 Notes", 50, 220, 12),
          item("More body text of the notes section, long enough to be the body size.", 50, 250)
        ],
        figures: []
      }],
      outline: [{ title: "Usage", level: 1, page: 1, top: 90 }, { title: "Notes", level: 1, page: 1, top: 210 }],
      title: undefined,
      filename: "t"
    }).blocks
    assert.deepStrictEqual(blocks.flatMap((block) => block._tag === "Heading" ? [block.text] : []), [
      "1 Usage",
      "2 Notes"
    ])
    const list = blocks.find((block): block is Document.List => block._tag === "List")
    assert.deepStrictEqual(list?.items.map((entry) => entry.text), [
      "an environment which delivers footnotes",
      "a macro to patch environments"
    ])
  })
})
