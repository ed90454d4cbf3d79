import { assert, describe, it } from "@effect/vitest"
import * as Fflate from "fflate"
import type { Document } from "../src/index.js"
import { Epub } from "../src/index.js"
import * as Layout from "../src/internal/layout.js"

const nested: Document.List = { _tag: "List", ordered: false, start: 0, items: [{ label: "a.", text: "A condition." }] }

const section = (after: string): Document.List => ({
  _tag: "List",
  ordered: true,
  start: 2,
  items: [{ text: "You may modify it:", lists: [nested], after: [{ _tag: "Paragraph", text: after }] }]
})

const book = (blocks: ReadonlyArray<Document.Block>): Document.Document => ({
  title: "T",
  language: "en",
  blocks,
  pages: 1
})

describe("an item's text after its nested list", () => {
  it("EPUB puts it in the item's <li>, after the nested list", () => {
    const files = Fflate.unzipSync(
      Epub.build(book([{ _tag: "Heading", level: 1, text: "One" }, section("These apply.")]))
    )
    const chapter = Object.keys(files).find((name) => /chapter-\d+\.xhtml$/.test(name))!
    assert.include(
      new TextDecoder().decode(files[chapter]),
      "<li>You may modify it:<ul><li>a. A condition.</li></ul><p>These apply.</p></li>"
    )
  })

  it("text going on after a page end joins it, not the nested list's last item", () => {
    const pageBreak: Document.Block = { _tag: "PageBreak", page: 2 }
    const merged = Layout.mergeSplitParagraphs([section("These requirements apply to"), pageBreak, {
      _tag: "Paragraph",
      text: "the work as a whole."
    }])
    assert.deepStrictEqual(merged, [section("These requirements apply to the work as a whole."), pageBreak])
  })

  it("a labelled item going on after a page end keeps its label", () => {
    const cut: Document.List = { _tag: "List", ordered: true, start: 1, items: [{ label: "(b)", text: "the files" }] }
    const merged = Layout.mergeSplitParagraphs([cut, { _tag: "PageBreak", page: 2 }, {
      _tag: "Paragraph",
      text: "modified by you."
    }])
    assert.deepStrictEqual(merged[0], { ...cut, items: [{ label: "(b)", text: "the files modified by you." }] })
  })
})
