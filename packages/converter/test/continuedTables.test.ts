import { assert, describe, it } from "@effect/vitest"
import type { Document } from "../src/index.js"
import * as Layout from "../src/internal/layout.js"

const para = (text: string): Document.Paragraph => ({ _tag: "Paragraph", text })
const pageBreak = (page: number): Document.Block => ({ _tag: "PageBreak", page })
const table = (...rows: Array<Array<string>>): Document.Table => ({ _tag: "Table", rows })

describe("a table going on over a page end", () => {
  it("under its caption marked (continued) and its header again is one table: the caption and header go", () => {
    const merged = Layout.mergeSplitParagraphs([
      para("Table 1 RPT Mappings"),
      table(["Resource", "Entity Path"], ["Processor", "{PROCESSOR,#}"]),
      pageBreak(2),
      para("Table 1 RPT Mappings (continued)"),
      table(["Resource", "Entity Path"], ["Power Supply", "{POWER_SUPPLY,#}"]),
      para("Table 2 Entity Types")
    ])
    assert.deepStrictEqual(merged.map((block) => block._tag === "Paragraph" ? block.text : block), [
      "Table 1 RPT Mappings",
      table(["Resource", "Entity Path"], ["Processor", "{PROCESSOR,#}"], ["Power Supply", "{POWER_SUPPLY,#}"]),
      pageBreak(2),
      "Table 2 Entity Types"
    ])
  })

  it("a caption marked (continued) over another table, or not after a page end, stays", () => {
    const blocks = [
      table(["Resource", "Entity Path"], ["Processor", "{PROCESSOR,#}"]),
      para("Table 1 RPT Mappings (continued)"),
      table(["Resource", "Entity Path"], ["Power Supply", "{POWER_SUPPLY,#}"]),
      pageBreak(2),
      para("Table 2 Entity Types (continued)"),
      table(["Name", "Type"], ["Fan", "COOLING_DEVICE"])
    ]
    assert.strictEqual(Layout.mergeSplitParagraphs(blocks).filter((block) => block._tag === "Paragraph").length, 2)
  })
})
