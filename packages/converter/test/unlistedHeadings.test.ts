import { assert, describe, it } from "@effect/vitest"
import type { OutlineEntry, PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { item, styledItem } from "./support/textItems.js"

const paragraph = (top: number): Array<TextItem> => [
  item("The function's text runs over the whole width of the page and", 50, top),
  item("ends on its second line.", 50, top + 12)
]

/** A texinfo section in 14-point bold over function names in 12-point bold (`@subheading`), each over its text. */
const page = (names: ReadonlyArray<string>, style: number = Style.strong): Array<TextItem> => [
  styledItem("4.1 Schema functions", 50, 100, Style.strong, 14),
  ...paragraph(130),
  ...names.flatMap((name, i) => [styledItem(name, 50, 180 + i * 60, style, 12), ...paragraph(200 + i * 60)])
]

const outline: ReadonlyArray<OutlineEntry> = [
  { title: "4.1 Schema functions", level: 1, page: 1, top: 90 },
  { title: "4.2 Field functions", level: 1, page: 2, top: 90 }
]

const headings = (style?: number) => {
  const names = ["asn1_parser2tree", "asn1_parser2array", "asn1_array2tree"]
  const pages: Array<PageText> = [
    { page: 1, width: 600, height: 800, items: page(names, style), figures: [] },
    {
      page: 2,
      width: 600,
      height: 800,
      items: [styledItem("4.2 Field functions", 50, 100, Style.strong, 14), ...paragraph(130)],
      figures: []
    }
  ]
  return Layout.layoutDocument({ pages, outline, title: undefined, filename: "t" }).blocks.flatMap((block) =>
    block._tag === "Heading" ? [[block.level, block.text] as const] : []
  )
}

describe("bold headings an outline leaves out", () => {
  it("are headings one level under the outlined ones when a size between them and the text holds only them", () => {
    assert.deepStrictEqual(headings(), [
      [1, "4.1 Schema functions"],
      [2, "asn1_parser2tree"],
      [2, "asn1_parser2array"],
      [2, "asn1_array2tree"],
      [1, "4.2 Field functions"]
    ])
  })

  it("stay text when that size is not bold (terms set a little larger than the text)", () => {
    assert.deepStrictEqual(headings(0), [[1, "4.1 Schema functions"], [1, "4.2 Field functions"]])
  })
})

describe("bold headings a little under the text's size that an outline leaves out", () => {
  /** Asciidoctor: an outlined section, a numbered subsection deeper than the outline, function names in 9-point bold. */
  const pages = (style: number): Array<PageText> => [{
    page: 1,
    width: 600,
    height: 800,
    items: [
      styledItem("2.2 GPIO operations", 50, 100, Style.strong, 14),
      ...paragraph(130),
      styledItem("2.2.1 GPIO setup", 50, 180, Style.strong),
      ...paragraph(210),
      ...["ao_enable_output", "ao_enable_input", "ao_gpio_set"].flatMap((name, i) => [
        styledItem(name, 50, 260 + i * 60, style, 9),
        ...paragraph(280 + i * 60)
      ])
    ],
    figures: []
  }, {
    page: 2,
    width: 600,
    height: 800,
    items: [styledItem("2.3 Memory", 50, 100, Style.strong, 14), ...paragraph(130)],
    figures: []
  }]
  const outline: ReadonlyArray<OutlineEntry> = [
    { title: "2.2 GPIO operations", level: 1, page: 1, top: 90 },
    { title: "2.3 Memory", level: 1, page: 2, top: 90 }
  ]
  const found = (style: number) =>
    Layout.layoutDocument({ pages: pages(style), outline, title: undefined, filename: "t" }).blocks.flatMap((block) =>
      block._tag === "Heading" ? [`${block.level} ${block.text}`] : []
    )

  it("are headings under the deepest numbered title above them", () => {
    assert.deepStrictEqual(found(Style.strong), [
      "1 2.2 GPIO operations",
      "3 2.2.1 GPIO setup",
      "4 ao_enable_output",
      "4 ao_enable_input",
      "4 ao_gpio_set",
      "1 2.3 Memory"
    ])
  })

  it("stay text when not bold (a smaller print's passages)", () => {
    assert.deepStrictEqual(found(0), ["1 2.2 GPIO operations", "3 2.2.1 GPIO setup", "1 2.3 Memory"])
  })
})
