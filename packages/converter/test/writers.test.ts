import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fflate from "fflate"
import { marked } from "marked"
import { execFile } from "node:child_process"
import * as Crypto from "node:crypto"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { promisify } from "node:util"
import * as Zlib from "node:zlib"
import type { Document } from "../src/index.js"
import { Epub, Markdown } from "../src/index.js"
import { encodePng } from "../src/internal/png.js"
import { epubcheckJar } from "./support/corpus.js"

const execFileAsync = promisify(execFile)

const tinyPng = encodePng(new Uint8Array(64 * 64).fill(128), 64, 64, 1)

/** A footnote reference: the stretch of `text` that is `label`, `from` its `nth` occurrence. */
const reference = (text: string, label: string, nth = 1): Document.Mark => {
  let start = -1
  for (let i = 0; i < nth; i++) start = text.indexOf(label, start + 1)
  return { start, end: start + label.length, style: 8 }
}

/** Two pages whose notes both say "1", one reference without a note, and a note without a reference. */
const notes: ReadonlyArray<Document.Block> = (() => {
  const first = "The first page says this1 and more."
  const second = "The second page says that1 in a list."
  const lonely = "A reference 7 with no note."
  return [
    { _tag: "Heading", level: 1, text: "One" },
    { _tag: "Paragraph", text: first, marks: [reference(first, "1")] },
    { _tag: "Footnote", label: "1", text: "Note of the first page." },
    { _tag: "PageBreak", page: 2 },
    { _tag: "Heading", level: 1, text: "Two" },
    { _tag: "List", ordered: false, start: 0, items: [{ text: second, marks: [reference(second, "1")] }] },
    { _tag: "Paragraph", text: lonely, marks: [reference(lonely, "7")] },
    { _tag: "Footnote", label: "1", text: "Note of the second page.", marks: [{ start: 12, end: 18, style: 4 }] },
    { _tag: "Footnote", label: "*", text: "A note nobody refers to." }
  ]
})()

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

/** A 64-pixel PNG figure of `data`. */
const figure = (data: Uint8Array): Document.Block => ({
  _tag: "Figure",
  data,
  mediaType: "image/png",
  width: 64,
  height: 64
})

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

  it.effect("writes a bare URL as an autolink, its address unescaped and its trailing punctuation outside", () =>
    Effect.sync(() => {
      assert.strictEqual(
        Markdown.escapeText("see http://a.org/~jo/x_y.html, then (https://w.org/Foo_(bar)) and ftp://f.org."),
        "see <http://a.org/~jo/x_y.html>, then (<https://w.org/Foo_(bar)>) and <ftp://f.org>."
      )
      const html = marked.parse(Markdown.escapeText("at http://a.org/~jo/x_y_z and ~b~ here"), { async: false })
      assert.include(html, "href=\"http://a.org/~jo/x_y_z\"")
      assert.include(html, "~b~ here")
      // A line wrap inside an address leaves no host to link to.
      assert.strictEqual(Markdown.escapeText("at https://www. acm.org/x"), "at https://www. acm.org/x")
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

  it.effect("footnotes: each reference links to the note of its label after it, labels repeat, lone ones stay text", () =>
    Effect.sync(() => {
      const markdown = Markdown.render(document(notes))
      assert.strictEqual(
        markdown,
        [
          "# One",
          "The first page says this[^1] and more.",
          "[^1]: Note of the first page.",
          "# Two",
          "- The second page says that[^1-2] in a list.",
          "A reference 7 with no note.",
          "[^1-2]: Note of the *second* page.",
          "[^note]: A note nobody refers to."
        ].join("\n\n") + "\n"
      )
      // A document without footnotes leaves its references as text.
      assert.strictEqual(Markdown.render(document([notes[1]!])), "The first page says this1 and more.\n")
    }))

  it.effect("a definition list's terms are bold lines, their code spans kept, each above its description", () =>
    Effect.sync(() => {
      const markdown = Markdown.render(document([
        { _tag: "Term", text: "-d dir", marks: [{ start: 0, end: 6, style: 1 }] },
        { _tag: "Term", text: "--dir=dir", marks: [{ start: 0, end: 9, style: 1 }] },
        { _tag: "Paragraph", text: "Set the stow directory to dir." },
        { _tag: "Term", text: "prefix/bin or bindir" },
        { _tag: "Paragraph", text: "The front-end script." },
        { _tag: "Term", text: "*" }
      ]))
      assert.strictEqual(
        markdown,
        [
          "**`-d dir`**",
          "**`--dir=dir`**",
          "Set the stow directory to dir.",
          "**prefix/bin or bindir**",
          "The front-end script.",
          // A term that would close the bold itself stays as it is.
          "\\*"
        ].join("\n\n") + "\n"
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

  it.effect("a lone title over its sections: the book is split at the sections, the title opens the first", () =>
    Effect.sync(() => {
      const files = Fflate.unzipSync(Epub.build(document([
        { _tag: "Heading", level: 1, text: "The Title" },
        { _tag: "Paragraph", text: "Front matter." },
        { _tag: "Heading", level: 2, text: "First" },
        { _tag: "Paragraph", text: "One." },
        { _tag: "Heading", level: 3, text: "Inner" },
        { _tag: "Heading", level: 2, text: "Second" },
        { _tag: "Paragraph", text: "Two." }
      ])))
      const text = (name: string) => new TextDecoder().decode(files[name])
      const chapters = Object.keys(files).filter((name) => /chapter-\d+\.xhtml$/.test(name)).sort()
      assert.deepStrictEqual(chapters, [
        "OEBPS/chapter-001.xhtml",
        "OEBPS/chapter-002.xhtml",
        "OEBPS/chapter-003.xhtml"
      ])
      assert.include(text("OEBPS/chapter-001.xhtml"), "Front matter.")
      assert.include(text("OEBPS/chapter-002.xhtml"), "Inner")
      assert.include(text("OEBPS/chapter-003.xhtml"), "Two.")
    }))

  it.effect("a figure shown again (the same bytes, in this chapter or another) is one file in the book", () =>
    Effect.sync(() => {
      const other = encodePng(new Uint8Array(64 * 64).fill(32), 64, 64, 1)
      const files = Fflate.unzipSync(Epub.build(document([
        { _tag: "Heading", level: 1, text: "One" },
        figure(tinyPng),
        figure(other),
        { _tag: "Heading", level: 1, text: "Two" },
        // Equal bytes in another array: the same image.
        figure(tinyPng.slice()),
        figure(tinyPng)
      ])))
      const text = (name: string) => new TextDecoder().decode(files[name])
      const images = Object.keys(files).filter((name) => name.startsWith("OEBPS/images/")).sort()
      assert.deepStrictEqual(images, ["OEBPS/images/figure-0001.png", "OEBPS/images/figure-0002.png"])
      assert.deepStrictEqual(files["OEBPS/images/figure-0001.png"], tinyPng)
      const sources = (chapter: string) => [...text(chapter).matchAll(/<img src="([^"]+)"/g)].map((m) => m[1])
      assert.deepStrictEqual(sources("OEBPS/chapter-001.xhtml"), ["images/figure-0001.png", "images/figure-0002.png"])
      assert.deepStrictEqual(sources("OEBPS/chapter-002.xhtml"), ["images/figure-0001.png", "images/figure-0001.png"])
      assert.strictEqual(text("OEBPS/content.opf").match(/media-type="image\/png"/g)?.length, 2)
    }))

  it.effect("figures of one length and CRC-32 but other bytes are two files; each entry's CRC is its bytes'", () =>
    Effect.sync(() => {
      // Any message followed by its own CRC-32 (little-endian) has the CRC-32 0x2144DF1C.
      const withCrc = (text: string) => {
        const message = new TextEncoder().encode(text)
        const out = new Uint8Array(message.length + 4)
        out.set(message)
        new DataView(out.buffer).setUint32(message.length, Zlib.crc32(message), true)
        return out
      }
      const first = withCrc("first figure bytes")
      const second = withCrc("other figure bytes")
      assert.strictEqual(Zlib.crc32(first), Zlib.crc32(second))
      const epub = Epub.build(document([figure(first), figure(second)]))
      const files = Fflate.unzipSync(epub)
      assert.deepStrictEqual(files["OEBPS/images/figure-0001.png"], first)
      assert.deepStrictEqual(files["OEBPS/images/figure-0002.png"], second)
      // fflate checks each entry's CRC against its bytes as it reads; Info-ZIP's test does too.
      assert.strictEqual(Object.keys(files).filter((name) => name.startsWith("OEBPS/images/")).length, 2)
    }))

  it.effect("the book's identifier is the SHA-256 of its title and texts, one after the other", () =>
    Effect.sync(() => {
      const blocks: ReadonlyArray<Document.Block> = [
        { _tag: "Heading", level: 1, text: "One" },
        { _tag: "Paragraph", text: "Body text." },
        { _tag: "List", ordered: false, start: 0, items: [{ text: "a" }, { text: "b" }] },
        { _tag: "Code", text: "x = 1" }
      ]
      const files = Fflate.unzipSync(Epub.build(document(blocks, "Title")))
      const hex = Crypto.createHash("sha256").update("TitleOneBody text.a\nbx = 1").digest("hex")
      const opf = new TextDecoder().decode(files["OEBPS/content.opf"])
      assert.include(opf, `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-`)
    }))

  it.effect(
    "footnotes are asides linked from their references, in their chapter or another; figures keep their description; terms make a definition list; epubcheck finds nothing",
    () =>
      Effect.gen(function*() {
        // The first note goes to the second chapter, away from its reference.
        const blocks: ReadonlyArray<Document.Block> = [
          notes[0]!,
          notes[1]!,
          { _tag: "Term", text: "-d dir", marks: [{ start: 0, end: 6, style: 1 }] },
          { _tag: "Term", text: "--dir=dir" },
          { _tag: "Paragraph", text: "Set the directory." },
          // A term with no description before the next block that can be one.
          { _tag: "Term", text: "Alone" },
          { _tag: "Figure", data: tinyPng, mediaType: "image/png", width: 64, height: 64, alt: "A \"grey\" <square>" },
          notes[4]!,
          notes[2]!,
          ...notes.slice(5)
        ]
        const epub = Epub.build(document(blocks), { modified: new Date("2024-01-02T03:04:05Z") })
        const files = Fflate.unzipSync(epub)
        const text = (name: string) => new TextDecoder().decode(files[name])
        const one = text("OEBPS/chapter-001.xhtml")
        const two = text("OEBPS/chapter-002.xhtml")
        assert.include(
          one,
          "says this<sup><a epub:type=\"noteref\" href=\"chapter-002.xhtml#fn-1\">1</a></sup> and more."
        )
        assert.include(one, "alt=\"A &quot;grey&quot; &lt;square&gt;\"")
        assert.include(
          one,
          "<dl><dt><code>-d dir</code></dt>\n<dt>--dir=dir</dt>\n<dd><p>Set the directory.</p></dd></dl>\n<dl><dt>Alone</dt>\n<dd></dd></dl>\n<figure>"
        )
        assert.include(two, "<aside epub:type=\"footnote\" id=\"fn-1\"><p>1 Note of the first page.</p></aside>")
        assert.include(two, "that<sup><a epub:type=\"noteref\" href=\"#fn-1-2\">1</a></sup> in a list.")
        assert.include(two, "<p>A reference 7 with no note.</p>")
        assert.include(
          two,
          "<aside epub:type=\"footnote\" id=\"fn-1-2\"><p>1 Note of the <em>second</em> page.</p></aside>"
        )
        assert.include(two, "<aside epub:type=\"footnote\" id=\"fn-note\"><p>* A note nobody refers to.</p></aside>")
        assert.isTrue(existsSync(epubcheckJar), `epubcheck is required at ${epubcheckJar} (apt-get install epubcheck)`)
        const dir = mkdtempSync(Path.join(Os.tmpdir(), "footnotes-epub-"))
        const file = Path.join(dir, "notes.epub")
        writeFileSync(file, epub)
        const output = yield* Effect.promise(() => execFileAsync("java", ["-jar", epubcheckJar, file])).pipe(
          Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        )
        assert.include(output.stdout, "No errors or warnings detected")
      }),
    120_000
  )
})
