import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fflate from "fflate"
import type { Document } from "../src/index.js"
import { Epub, Markdown } from "../src/index.js"

const document = (blocks: ReadonlyArray<Document.Block>, title = "A <Book> & \"more\""): Document.Document => ({
  title,
  language: "en",
  blocks,
  pages: 1
})

/** The local file headers of a ZIP, in order: name, compression method, extra field length. */
const localHeaders = (zip: Uint8Array) => {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const headers: Array<{ name: string; method: number; extra: number }> = []
  let offset = 0
  while (view.getUint32(offset, true) === 0x04034b50) {
    const method = view.getUint16(offset + 8, true)
    const compressed = view.getUint32(offset + 18, true)
    const nameLength = view.getUint16(offset + 26, true)
    const extra = view.getUint16(offset + 28, true)
    const name = new TextDecoder().decode(zip.subarray(offset + 30, offset + 30 + nameLength))
    headers.push({ name, method, extra })
    offset += 30 + nameLength + extra + compressed
  }
  return headers
}

describe("Markdown", () => {
  it.effect("escapes markup so text shows literally", () =>
    Effect.sync(() => {
      assert.strictEqual(
        Markdown.escapeText("a *b* _c_ [d](e) <f> `g` ~h~ \\"),
        "a \\*b\\* \\_c\\_ \\[d\\](e) \\<f\\> \\`g\\` \\~h\\~ \\\\"
      )
      assert.strictEqual(Markdown.escapeText("# not a heading"), "\\# not a heading")
      assert.strictEqual(Markdown.escapeText("1. not a list"), "1\\. not a list")
      assert.strictEqual(Markdown.escapeText("- not a bullet"), "\\- not a bullet")
      assert.strictEqual(Markdown.escapeText("> not a quote"), "\\> not a quote")
    }))

  it.effect("renders headings, paragraphs, lists and GFM tables; figures and page breaks leave no text", () =>
    Effect.sync(() => {
      const markdown = Markdown.render(document([
        { _tag: "PageBreak", page: 1 },
        { _tag: "Heading", level: 2, text: "Title" },
        { _tag: "Paragraph", text: "Some text." },
        { _tag: "List", ordered: true, start: 3, items: [{ text: "three" }, { text: "four" }] },
        { _tag: "List", ordered: false, start: 0, items: [{ text: "dot" }] },
        { _tag: "Table", rows: [["a", "b|c"], ["1"]] },
        { _tag: "Figure", data: new Uint8Array([1]), mediaType: "image/png", width: 1, height: 1 }
      ]))
      assert.strictEqual(
        markdown,
        "## Title\n\nSome text.\n\n3. three\n4. four\n\n- dot\n\n| a | b\\|c |\n| --- | --- |\n| 1 |  |\n"
      )
    }))

  it.effect("renderUtf8 gives the bytes of render, whatever the characters", () =>
    Effect.sync(() => {
      const texts = [
        "plain ASCII",
        "é à ü ñ",
        "日本語テスト",
        "emoji 😀 and a lone \uD800 surrogate",
        "a\\b*c",
        "- item"
      ]
      const full = document([
        { _tag: "Heading", level: 1, text: texts[0]! },
        ...texts.map((text): Document.Block => ({ _tag: "Paragraph", text })),
        { _tag: "List", ordered: false, start: 0, items: texts.map((text) => ({ text })) },
        { _tag: "Table", rows: [texts.slice(0, 3), texts.slice(3)] }
      ])
      const encoded = new TextEncoder().encode(Markdown.render(full))
      assert.deepStrictEqual(Markdown.renderUtf8(full), encoded)
      assert.strictEqual(
        new TextDecoder().decode(Markdown.renderUtf8(full)),
        Markdown.render(full).replaceAll("\uD800", "\uFFFD")
      )
      assert.deepStrictEqual(Markdown.renderUtf8(document([{ _tag: "PageBreak", page: 1 }])), new Uint8Array(0))
    }))
})

describe("EPUB", () => {
  it.effect("escapes XML and strips characters XML cannot carry", () =>
    Effect.sync(() => {
      assert.strictEqual(Epub.escapeXml("a<b>&\"c'\u0001\u0008\uFFFE\uD800d"), "a&lt;b&gt;&amp;&quot;c&apos;d")
    }))

  it.effect("puts mimetype first and stored, with the OCF and package files", () =>
    Effect.sync(() => {
      const epub = Epub.build(
        document([
          { _tag: "Heading", level: 1, text: "One <1>" },
          { _tag: "Paragraph", text: "Bad \u0002 char & more" },
          { _tag: "Heading", level: 1, text: "Two" },
          { _tag: "Paragraph", text: "Second chapter." }
        ]),
        { modified: new Date("2024-01-02T03:04:05.678Z") }
      )
      const headers = localHeaders(epub)
      assert.deepStrictEqual(headers[0], { name: "mimetype", method: 0, extra: 0 })
      const files = Fflate.unzipSync(epub)
      const text = (name: string) => new TextDecoder().decode(files[name])
      assert.strictEqual(text("mimetype"), "application/epub+zip")
      assert.include(text("META-INF/container.xml"), "OEBPS/content.opf")
      const opf = text("OEBPS/content.opf")
      assert.include(opf, "<dc:title>A &lt;Book&gt; &amp; &quot;more&quot;</dc:title>")
      assert.include(opf, "<dc:language>en</dc:language>")
      assert.include(opf, "<meta property=\"dcterms:modified\">2024-01-02T03:04:05Z</meta>")
      assert.match(opf, /<dc:identifier id="uid">urn:uuid:[0-9a-f-]{36}<\/dc:identifier>/)
      // Two top-level headings: two chapters, both in the nav and the NCX.
      assert.include(text("OEBPS/chapter-001.xhtml"), "<p>Bad  char &amp; more</p>")
      assert.include(text("OEBPS/chapter-002.xhtml"), "<h1 id=\"h1\">Two</h1>")
      assert.include(text("OEBPS/nav.xhtml"), "<a href=\"chapter-001.xhtml#h1\">One &lt;1&gt;</a>")
      assert.include(text("OEBPS/toc.ncx"), "<content src=\"chapter-002.xhtml#h1\"/>")
    }))
})
