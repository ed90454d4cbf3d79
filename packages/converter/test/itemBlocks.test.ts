import { assert, describe, it } from "@effect/vitest"
import * as Fflate from "fflate"
import { Lexer, type Tokens } from "marked"
import type { Document } from "../src/index.js"
import { Epub, Markdown } from "../src/index.js"
import * as Layout from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { pageBlocks, styledItem } from "./support/textItems.js"

const item = styledItem

const blocks = pageBlocks

/** A numbered list as LaTeX sets it: item 2 announces a listing set under its text, then goes on after it. */
const numbered = (secondEnds: string) => [
  item("Running text before the list, long enough to set the body size of the page.", 50, 100),
  item("1. Typeset the sample file to see that everything is working.", 62, 120),
  item(`2. To start making landscape slides, ${secondEnds}`, 62, 140),
  item("\\begin{slide}", 100, 156, Style.code),
  item("\\end{slide}", 100, 168, Style.code),
  item("and print out your document in landscape mode.", 76, 184),
  item("3. For A4 paper, use the a4 style option.", 62, 204)
]

const listing: Document.Code = { _tag: "Code", text: "\\begin{slide}\n\\end{slide}" }

describe("list items holding listings", () => {
  it("a listing set under an item's text that announces it, and the text after it, stay in the item", () => {
    assert.deepStrictEqual(blocks(numbered("use")).slice(1), [{
      _tag: "List",
      ordered: true,
      start: 1,
      items: [
        { text: "Typeset the sample file to see that everything is working." },
        {
          text: "To start making landscape slides, use",
          blocks: [listing, { _tag: "Paragraph", text: "and print out your document in landscape mode." }]
        },
        { text: "For A4 paper, use the a4 style option." }
      ]
    }])
  })

  it("a colon announces the listing too; a full stop ends the item before it", () => {
    const announced = blocks(numbered("write:")).slice(1)
    assert.deepStrictEqual(announced.map((block) => block._tag), ["List"])
    const ended = blocks(numbered("see the sample.")).slice(1)
    assert.deepStrictEqual(ended.map((block) => block._tag), ["List", "Code", "Paragraph", "List"])
    assert.deepStrictEqual(ended[1], listing)
  })

  it("a listing at the margin, left of the item's text, is not the item's", () => {
    const found = blocks([
      item("Running text before the list, long enough to set the body size of the page.", 50, 100),
      item("\u2022 Define the commands", 62, 120),
      item("\\leftsliderotation", 50, 136, Style.code),
      item("Running text after the listing, long enough to be a paragraph of its own.", 50, 156)
    ]).slice(1)
    assert.deepStrictEqual(found.map((block) => block._tag), ["List", "Code", "Paragraph"])
  })

  const list: Document.List = {
    _tag: "List",
    ordered: true,
    start: 4,
    items: [
      { text: "Start with", blocks: [listing, { _tag: "Paragraph", text: "and print it." }] },
      { text: "Next." }
    ]
  }
  const book = (blocks: ReadonlyArray<Document.Block>): Document.Document => ({
    title: "T",
    language: "en",
    blocks,
    pages: 1
  })

  it("Markdown indents an item's blocks under its text, so a reader reads one list", () => {
    const markdown = Markdown.render(book([list, { _tag: "Paragraph", text: "After." }]))
    assert.strictEqual(
      markdown,
      "4. Start with\n\n   ```\n   \\begin{slide}\n   \\end{slide}\n   ```\n\n   and print it.\n\n5. Next.\n\nAfter.\n"
    )
    const tokens = new Lexer().lex(markdown).filter((token) => token.type !== "space")
    assert.deepStrictEqual(tokens.map((token) => token.type), ["list", "paragraph"])
    const items = (tokens[0] as Tokens.List).items
    const kinds = items.map((entry) => entry.tokens.flatMap((token) => token.type === "space" ? [] : [token.type]))
    assert.deepStrictEqual(kinds, [["paragraph", "code", "paragraph"], ["paragraph"]])
  })

  it("EPUB puts an item's blocks inside its <li>", () => {
    const files = Fflate.unzipSync(Epub.build(book([{ _tag: "Heading", level: 1, text: "One" }, list])))
    const chapter = Object.keys(files).find((name) => /chapter-\d+\.xhtml$/.test(name))!
    assert.include(
      new TextDecoder().decode(files[chapter]),
      "<li>Start with<pre><code>\\begin{slide}\n\\end{slide}</code></pre><p>and print it.</p></li><li>Next.</li>"
    )
  })

  it("text going on after a page end joins the item's last paragraph; after a listing it does not", () => {
    const pageBreak: Document.Block = { _tag: "PageBreak", page: 2 }
    const cut: Document.List = {
      _tag: "List",
      ordered: false,
      start: 0,
      items: [{ text: "Start with", blocks: [listing, { _tag: "Paragraph", text: "and print" }] }]
    }
    const merged = Layout.mergeSplitParagraphs([cut, pageBreak, { _tag: "Paragraph", text: "it twice." }])
    assert.deepStrictEqual(merged[0], {
      ...cut,
      items: [{ text: "Start with", blocks: [listing, { _tag: "Paragraph", text: "and print it twice." }] }]
    })
    const afterListing: Document.List = { ...cut, items: [{ text: "Start with", blocks: [listing] }] }
    const apart = Layout.mergeSplitParagraphs([afterListing, pageBreak, { _tag: "Paragraph", text: "then more." }])
    assert.strictEqual(apart.length, 3)
  })
})
