import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import * as Layout from "../src/internal/layout.js"

const para = (text: string): Document.Paragraph => ({ _tag: "Paragraph", text })
const pageBreak = (page: number): Document.Block => ({ _tag: "PageBreak", page })
const table: Document.Block = { _tag: "Table", rows: [["Run", "12.5"], ["Run 2", "24"]] }

describe("a paragraph going on past a float", () => {
  it("past a figure's labels and caption at the next page's top, the labels and caption kept after it", () => {
    const merged = Layout.mergeSplitParagraphs([
      para("The version field may be used with books. By default, the text will read"),
      pageBreak(2),
      para("s Γa n θ = 1 h"),
      para("conduction by potential theory(b)"),
      para("Fig. 2 A figure with two subfigures"),
      para("version 'number' as in Refs. [11,16], but other wording may be chosen.")
    ])
    assert.deepStrictEqual(merged.map((block) => block._tag === "Paragraph" ? block.text : block._tag), [
      "The version field may be used with books. By default, the text will read version 'number' as in Refs. [11,16], but other wording may be chosen.",
      "PageBreak",
      "s Γa n θ = 1 h",
      "conduction by potential theory(b)",
      "Fig. 2 A figure with two subfigures"
    ])
  })

  it("past a page holding only a captioned table", () => {
    const merged = Layout.mergeSplitParagraphs([
      para("The module database is read by the"),
      pageBreak(2),
      para("Table 1: Modules and their files"),
      table,
      pageBreak(3),
      para("checkout command when it starts.")
    ])
    assert.strictEqual(
      (merged[0] as Document.Paragraph).text,
      "The module database is read by the checkout command when it starts."
    )
    assert.deepStrictEqual(merged.slice(1).map((block) => block._tag), ["PageBreak", "Paragraph", "Table", "PageBreak"])
  })

  it("past a figure at its own page's foot, into a bracket opening the next page", () => {
    const merged = Layout.mergeSplitParagraphs([
      para("They use three types of statistics: double maximum"),
      para("gender = Female gender = Male"),
      para("Figure 3: Conditional mosaic plot."),
      pageBreak(2),
      para("(maximum of maximum statistics) and sum of squares.")
    ])
    assert.strictEqual(
      (merged[0] as Document.Paragraph).text,
      "They use three types of statistics: double maximum (maximum of maximum statistics) and sum of squares."
    )
    assert.strictEqual(merged.length, 4)
  })

  it("a float's table going on over the next page end stays one table", () => {
    const header = ["Key", "Meaning"]
    const merged = Layout.mergeSplitParagraphs([
      para("The keys are read by the"),
      pageBreak(2),
      para("Table 2: Keys"),
      { _tag: "Table", rows: [header, ["a", "one"]] },
      pageBreak(3),
      { _tag: "Table", rows: [header, ["b", "two"]] },
      para("loader when it starts.")
    ])
    assert.deepStrictEqual(merged.filter((block) => block._tag === "Table"), [
      { _tag: "Table", rows: [header, ["a", "one"], ["b", "two"]] }
    ])
    assert.strictEqual((merged[0] as Document.Paragraph).text, "The keys are read by the loader when it starts.")
  })

  it("a finished paragraph does not take a later one past a caption", () => {
    const blocks = [para("It ends here."), pageBreak(2), para("Figure 1: A plot"), para("then a line.")]
    assert.strictEqual(Layout.mergeSplitParagraphs(blocks).length, 4)
  })
})
