import { assert, describe, it } from "@effect/vitest"
import type * as Document from "../src/Document.js"
import type { Line } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"
import type { Unit } from "../src/internal/tagged/model.js"
import type { TaggedPage } from "../src/internal/tagged/page.js"
import { leadHeading, treeHeadingSizes } from "../src/internal/tagged/paragraphHeadings.js"

const line = (text: string, size: number, bold: boolean, y = 100): Line => ({
  text,
  x0: 50,
  x1: 50 + text.length * size * 0.5,
  y,
  size,
  rtl: false,
  ...(bold ? { marks: [{ start: 0, end: text.length, style: Style.strong }] } : {})
})

const headingUnit = (text: string, level: number, size: number, bold = true): Unit => ({
  _tag: "Block",
  make: () => ({ _tag: "Heading", level, text }),
  lines: [],
  heading: { level, line: line(text, size, bold) },
  item: false,
  continued: false,
  continues: false
})

const tagged = (units: ReadonlyArray<Unit>): TaggedPage => ({
  _tag: "Tagged",
  page: 1,
  height: 800,
  units,
  artifacts: []
})

const paragraph = (text: string, bold: boolean): Document.Paragraph => ({
  _tag: "Paragraph",
  text,
  ...(bold ? { marks: [{ start: 0, end: text.length, style: Style.strong }] } : {})
})

describe("headings the structure tree tags as paragraphs", () => {
  const sizes = treeHeadingSizes([tagged([
    headingUnit("Akatab Documentation", 1, 14),
    headingUnit("Smart Font Features", 2, 12),
    headingUnit("Configuring Microsoft Word for Windows", 2, 12),
    headingUnit("A plain heading in the text face", 3, 13, false)
  ])])

  it("the tree's bold headings give each size its level; a heading not in bold gives none", () => {
    assert.deepStrictEqual([...sizes].sort(), [[12, 2], [14, 1]])
  })

  it("a paragraph's first line in a tree heading's bold face, over more text, is a heading at its level", () => {
    const title = "Configuring Microsoft Word for Mac"
    const text = "Since Akatab uses OpenType features, the user needs to check the settings."
    const blocks = leadHeading(
      [line(title, 12, true), line(text, 11, false, 116)],
      [paragraph(title, true), paragraph(text, false)],
      sizes,
      11
    )
    assert.deepStrictEqual(blocks, [{ _tag: "Heading", level: 2, text: title }, paragraph(text, false)])
  })

  it("stays a paragraph alone, at the body's size, at another size, not bold, or ending in a colon", () => {
    const text = paragraph("The text under it goes on here.", false)
    const cases: ReadonlyArray<readonly [Line, Document.Paragraph, ReadonlyArray<Document.Block>]> = [
      [line("A lone line", 12, true), paragraph("A lone line", true), []],
      [line("Bold lead-in at the body size", 11, true), paragraph("Bold lead-in at the body size", true), [text]],
      [line("Bold at no heading's size", 13, true), paragraph("Bold at no heading's size", true), [text]],
      [line("Plain at a heading's size", 12, false), paragraph("Plain at a heading's size", false), [text]],
      [line("The steps are these:", 12, true), paragraph("The steps are these:", true), [text]]
    ]
    for (const [first, block, rest] of cases) {
      const blocks = [block, ...rest]
      assert.deepStrictEqual(leadHeading([first], blocks, sizes, 11), blocks)
    }
    // Even where the tree has headings at the body's size: a bold line there is a lead-in.
    const lead = [paragraph("Bold lead-in at the body size", true), text]
    assert.deepStrictEqual(
      leadHeading([line("Bold lead-in at the body size", 11, true)], lead, new Map([[11, 3]]), 11),
      lead
    )
  })
})
