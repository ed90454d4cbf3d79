/**
 * The structure the Markdown and the EPUB keep, pinned on small PDFs made here with pdf-lib:
 * Courier for code, Helvetica-Oblique and -Bold for emphasis and strong, Helvetica for the rest.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fflate from "fflate"
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { PDFFont, PDFPage } from "pdf-lib"
import { PDFDocument, PDFHexString, PDFNumber, PDFOperator, PDFOperatorNames, StandardFonts } from "pdf-lib"
import * as Epub from "../src/Epub.js"
import * as Engine from "../src/internal/engine.js"
import * as Layout from "../src/internal/layout.js"
import * as Markdown from "../src/Markdown.js"
import { epubcheckJar } from "./support/corpus.js"
import { engineOptions } from "./support/engineOptions.js"

const options = engineOptions({ ignorePdfErrors: false, ignoreOcrErrors: false, filename: "structure" })

interface Fonts {
  readonly body: PDFFont
  readonly code: PDFFont
  readonly italic: PDFFont
  readonly bold: PDFFont
}

/** One run of a line: its text and font. */
type Run = readonly [string, keyof Fonts]

const size = 11
const left = 72

/** Draws runs one after the other on one baseline (`y` from the page top), from `x`. */
const drawLine = (page: PDFPage, fonts: Fonts, runs: ReadonlyArray<Run>, y: number, x = left, at = size) => {
  let cursor = x
  for (const [text, font] of runs) {
    page.drawText(text, { x: cursor, y: page.getHeight() - y, size: at, font: fonts[font] })
    cursor += fonts[font].widthOfTextAtSize(text, at)
  }
}

/** A one-page PDF drawn by `draw` with the four fonts. */
const makePdf = (draw: (page: PDFPage, fonts: Fonts) => void) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    const fonts: Fonts = {
      body: await document.embedFont(StandardFonts.Helvetica),
      code: await document.embedFont(StandardFonts.Courier),
      italic: await document.embedFont(StandardFonts.HelveticaOblique),
      bold: await document.embedFont(StandardFonts.HelveticaBold)
    }
    draw(document.addPage([612, 792]), fonts)
    return document.save()
  })

const read = (pdf: Uint8Array) => Effect.map(Engine.readDocument(pdf, options, "markdown"), (read) => read.document)

/** Courier's advance: every glyph is 0.6 em wide. */
const codeChar = size * 0.6

/** A page with each rule's case, one below the other, 14 pt leading, paragraphs 28 pt apart. */
const drawAll = (page: PDFPage, fonts: Fonts) => {
  const line = (runs: ReadonlyArray<Run>, y: number, x = left) => drawLine(page, fonts, runs, y, x)
  drawLine(page, fonts, [["1.2 Getting started", "bold"]], 60, left, 18)
  line([
    ["Call ", "body"],
    ["parse()", "code"],
    [" to read a file, it is ", "body"],
    ["very", "italic"],
    [
      " fast and ",
      "body"
    ],
    ["safe", "bold"],
    [".", "body"]
  ], 100)
  // A code block: indentation in characters, a blank line, a hyphen at a line end kept.
  const code = ["function f(x) {", "  if (x) {", "    return well-", "  }", "", "  return 0", "}"]
  code.forEach((text, i) => {
    const indent = text.length - text.trimStart().length
    if (text !== "") line([[text.trimStart(), "code"]], 140 + i * 13, left + indent * codeChar)
  })
  line([["A list of things to know:", "body"]], 260)
  line([["\u2022 first point", "body"]], 288)
  line([["\u2022 nested point", "body"]], 302, left + 18)
  line([["\u2022 second point that wraps", "body"]], 316)
  line([["onto a second line", "body"]], 330, left + 9)
  // A listing with aligned columns: three rows, three cells each, is code and not a table.
  const rows = [["name", "type", "default"], ["dot", "boolean", "false"], ["posix", "boolean", "true"]]
  rows.forEach((cells, i) =>
    cells.forEach((cell, column) => line([[cell, "code"]], 370 + i * 13, left + column * 12 * codeChar))
  )
  line([["A paragraph with a word split by an exam-", "body"]], 440)
  line([["ple and a name split as Trace-", "body"]], 454)
  line([["Monkey, set in a well-known way.", "body"]], 468)
  line([["2.1 Options", "bold"]], 510)
  line([["What the options are.", "body"]], 538)
  // A real table: three rows of three cells in a proportional font, aligned in columns.
  const grid = [["Option", "Type", "Default"], ["dot", "boolean", "false"], ["posix", "boolean", "true"]]
  grid.forEach((cells, i) => cells.forEach((cell, column) => line([[cell, "body"]], 580 + i * 14, left + column * 120)))
}

describe("structure kept in Markdown", () => {
  it.effect("code blocks keep indentation, blank lines and hyphens; inline code, emphasis and strong in a sentence", () =>
    Effect.gen(function*() {
      const markdown = Markdown.render(yield* read(yield* makePdf(drawAll)))
      assert.include(
        markdown,
        "```\nfunction f(x) {\n  if (x) {\n    return well-\n  }\n\n  return 0\n}\n```"
      )
      assert.include(markdown, "Call `parse()` to read a file, it is *very* fast and **safe**.")
    }))

  it.effect("a nested list, an item that wraps staying one item", () =>
    Effect.gen(function*() {
      const markdown = Markdown.render(yield* read(yield* makePdf(drawAll)))
      assert.include(markdown, "- first point\n  - nested point\n- second point that wraps onto a second line")
    }))

  it.effect("numbered headings keep their numbers, by size and as a bold numbered line at the body size", () =>
    Effect.gen(function*() {
      const document = yield* read(yield* makePdf(drawAll))
      const headings = document.blocks.flatMap((block) => block._tag === "Heading" ? [block] : [])
      assert.deepStrictEqual(headings.map((heading) => heading.text), ["1.2 Getting started", "2.1 Options"])
      assert.strictEqual(headings[1]!.level, 2)
    }))

  it.effect("a code listing with aligned columns is a code block, never a table; a grid of prose cells is one", () =>
    Effect.gen(function*() {
      const document = yield* read(yield* makePdf(drawAll))
      const tables = document.blocks.flatMap((block) => block._tag === "Table" ? [block.rows] : [])
      assert.deepStrictEqual(tables, [[["Option", "Type", "Default"], ["dot", "boolean", "false"], [
        "posix",
        "boolean",
        "true"
      ]]])
      const markdown = Markdown.render(document)
      assert.include(markdown, "```\nname        type        default\ndot         boolean     false\n")
      assert.include(markdown, "| Option | Type | Default |\n| --- | --- | --- |\n| dot | boolean | false |")
    }))

  it.effect("terms in the code face over an indented definition are bold terms with code spans; a listing over text at its margin is code", () =>
    Effect.gen(function*() {
      const pdf = yield* makePdf((page, fonts) => {
        const line = (runs: ReadonlyArray<Run>, y: number, x = left) => drawLine(page, fonts, runs, y, x)
        line([["The formulae below specify models.", "body"]], 100)
        // texinfo's @table @code: two terms at the margin, their definition indented under them.
        line([["y ~ x", "code"]], 128)
        line([["y ~ 1 + x", "code"]], 142)
        line([["Both imply the same simple linear regression.", "body"]], 156, left + 36)
        line([["y ~ 0 + x", "code"]], 184)
        line([["Regression through the origin.", "body"]], 198, left + 36)
        // An example: a listing indented from the margin, then text at the margin.
        line([["fit <- lm(y ~ x)", "code"]], 240, left + 24)
        line([["Then the fit is summarised.", "body"]], 254)
      })
      const markdown = Markdown.render(yield* read(pdf))
      assert.include(
        markdown,
        "**`y ~ x`**\n\n**`y ~ 1 + x`**\n\nBoth imply the same simple linear regression.\n\n**`y ~ 0 + x`**\n\nRegression through the origin."
      )
      assert.include(markdown, "```\nfit <- lm(y ~ x)\n```\n\nThen the fit is summarised.")
    }))

  it.effect("curly quotes in a listing are the quotes one types; in running text they stay curly", () =>
    Effect.gen(function*() {
      const pdf = yield* makePdf((page, fonts) => {
        drawLine(page, fonts, [["Type \u201Cthis\u201D and it\u2019s done:", "body"]], 100)
        drawLine(page, fonts, [["echo \u201CHello!\u201D", "code"]], 128, left + 24)
        drawLine(page, fonts, [["grep \u2018x\u2019 file", "code"]], 141, left + 24)
      })
      const markdown = Markdown.render(yield* read(pdf))
      assert.include(markdown, "Type \u201Cthis\u201D and it\u2019s done:")
      assert.include(markdown, "```\necho \"Hello!\"\ngrep 'x' file\n```")
    }))

  it.effect("a hyphen at a line end is removed inside a word, kept before a capital, in code never touched", () =>
    Effect.gen(function*() {
      const markdown = Markdown.render(yield* read(yield* makePdf(drawAll)))
      assert.include(
        markdown,
        "A paragraph with a word split by an example and a name split as Trace-Monkey, set in a well-known way."
      )
      assert.include(markdown, "    return well-\n")
    }))

  it.effect("a spacing accent before its letter and a dotless i under a combining mark are composed (NFC)", () =>
    Effect.gen(function*() {
      const pdf = yield* makePdf((page, fonts) => drawLine(page, fonts, [["A na\u00A8ive reader.", "body"]], 100))
      assert.include(Markdown.render(yield* read(pdf)), "A naïve reader.")
      const document = Layout.layoutDocument({
        pages: [{
          page: 1,
          width: 600,
          height: 800,
          items: [{ text: "A na\u0131\u0308ve reader.", x: 50, y: 100, width: 80, size: 10, rtl: false, style: 0 }],
          figures: []
        }],
        outline: [],
        title: undefined,
        filename: "test"
      })
      assert.deepStrictEqual(document.blocks.filter((block) => block._tag === "Paragraph"), [
        { _tag: "Paragraph", text: "A naïve reader." }
      ])
    }))
})

describe("text read from PDFium", () => {
  it.effect("a glyph without a Unicode value does not shift the characters after it", () =>
    Effect.gen(function*() {
      const pdf = yield* Effect.promise(async () => {
        const document = await PDFDocument.create()
        const font = await document.embedFont(StandardFonts.Helvetica)
        const page = document.addPage([612, 792])
        const name = page.node.newFontDictionary("F9", font.ref)
        // Code 0 has no glyph in WinAnsiEncoding: PDFium gives it the Unicode value 0.
        const show = (hex: string, y: number) => [
          PDFOperator.of(PDFOperatorNames.BeginText),
          PDFOperator.of(PDFOperatorNames.SetFontAndSize, [name, PDFNumber.of(11)]),
          PDFOperator.of(PDFOperatorNames.MoveText, [PDFNumber.of(72), PDFNumber.of(y)]),
          PDFOperator.of(PDFOperatorNames.ShowText, [PDFHexString.of(hex)]),
          PDFOperator.of(PDFOperatorNames.EndText)
        ]
        const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("")
        page.pushOperators(...show(`00${ascii(" Projects")}`, 700), ...show(ascii("References and more"), 660))
        return document.save()
      })
      const markdown = Markdown.render(yield* read(pdf))
      assert.include(markdown, "References and more")
    }))
})

/**
 * A page printed the way a browser prints HTML: 1.5 leading, 1 em between paragraphs, 1.33 em
 * around an `<h4>` set in the body's bold; three larger headings above.
 */
const drawSpaced = (page: PDFPage, fonts: Fonts) => {
  const leading = size * 1.5
  const paragraph = leading + size
  const h4 = leading + size * 1.33
  drawLine(page, fonts, [["Title", "bold"]], 60, left, 24)
  drawLine(page, fonts, [["Section", "bold"]], 100, left, 18)
  drawLine(page, fonts, [["Subsection", "bold"]], 135, left, 14)
  let y = 165
  const text = (gapAfter: number) => {
    drawLine(page, fonts, [["A paragraph of running text that goes on", "body"]], y)
    drawLine(page, fonts, [["onto a second line of the same paragraph.", "body"]], y + leading)
    y += leading + gapAfter
  }
  const bold = (title: string, gapAfter: number) => {
    drawLine(page, fonts, [[title, "bold"]], y)
    y += gapAfter
  }
  text(paragraph)
  text(paragraph)
  bold("Params", paragraph)
  text(paragraph)
  text(h4)
  bold("command.alias(name)", h4)
  text(paragraph)
  drawLine(page, fonts, [["2.9.1 ", "bold"], ["options.ignorecase", "code"]], y)
  y += paragraph
  text(paragraph)
}

describe("headings set in bold running text", () => {
  it.effect("a bold line with an <h4>'s space around it is a heading, one with a paragraph's is not", () =>
    Effect.gen(function*() {
      const markdown = Markdown.render(yield* read(yield* makePdf(drawSpaced)))
      assert.include(markdown, "\n\n#### command.alias(name)\n\n")
      assert.include(markdown, "\n\n**Params**\n\n")
    }))

  it.effect("a bold numbered line with a code span in it is a heading of its number's depth, the span kept", () =>
    Effect.gen(function*() {
      const markdown = Markdown.render(yield* read(yield* makePdf(drawSpaced)))
      assert.include(markdown, "\n\n### 2.9.1 `options.ignorecase`\n\n")
    }))
})

/**
 * Tables as a browser prints them: the header row in bold, each row's cells centred vertically
 * (a short cell on another baseline than the lines of a wrapped one), columns as close as a wide
 * word space; and two bands of text without a header (a term and its description beside it).
 */
const drawTables = (page: PDFPage, fonts: Fonts) => {
  const leading = size * 1.5
  const line = (runs: ReadonlyArray<Run>, y: number, x = left) => drawLine(page, fonts, runs, y, x)
  /** One row: the wrapped cell's lines from `top`, the short cells centred against them. */
  const row = (
    top: number,
    short: ReadonlyArray<readonly [Run, number]>,
    wrapped: ReadonlyArray<string>,
    x: number
  ) => {
    wrapped.forEach((text, i) => line([[text, "body"]], top + i * leading, x))
    const middle = top + (wrapped.length - 1) * leading / 2
    for (const [run, at] of short) line([run], middle, at)
    return top + (wrapped.length - 1) * leading + leading + 6
  }
  line([["The names:", "body"]], 60)
  // "gamma" ends 9 pt before the second column: closer than the gap that cuts a baseline in two.
  line([["Name", "bold"]], 100, left + 4)
  line([["Description", "bold"]], 100, 118)
  let y = 125
  y = row(
    y,
    [[["alpha", "body"], left]],
    ["The first line of a long", "description that wraps", "onto three lines."],
    118
  )
  y = row(y, [[["beta", "body"], left]], ["Two lines of text in", "this description."], 118)
  row(y, [[["gamma", "body"], left]], ["Short one."], 118)
  line([["Text after the first table, running across the columns of it.", "body"]], 260)
  line([["Option", "bold"]], 300, left + 4)
  line([["Type", "bold"]], 300, 160)
  line([["Description", "bold"]], 300, 260)
  y = 325
  y = row(y, [[["dot", "code"], left], [["boolean", "code"], 150]], [
    "Match dotfiles, which",
    "are left out otherwise."
  ], 250)
  row(y, [[["posix", "code"], left], [["boolean", "code"], 150]], [
    "Support the classes",
    "of POSIX brackets, as",
    "in [[:alpha:]]."
  ], 250)
  line([["Text after the second table, running across its columns too.", "body"]], 440)
  line([["-v", "body"]], 480)
  line([["Print the version number and exit.", "body"]], 480, 150)
  line([["-h", "body"]], 480 + leading)
  line([["Print the help.", "body"]], 480 + leading, 150)
}

describe("tables printed by a browser", () => {
  it.effect("a two- and a three-column table with wrapped, centred cells are tables; a term list is not", () =>
    Effect.gen(function*() {
      const document = yield* read(yield* makePdf(drawTables))
      const tables = document.blocks.flatMap((block) => block._tag === "Table" ? [block.rows] : [])
      assert.deepStrictEqual(tables, [
        [
          ["Name", "Description"],
          ["alpha", "The first line of a long description that wraps onto three lines."],
          ["beta", "Two lines of text in this description."],
          ["gamma", "Short one."]
        ],
        [
          ["Option", "Type", "Description"],
          ["dot", "boolean", "Match dotfiles, which are left out otherwise."],
          ["posix", "boolean", "Support the classes of POSIX brackets, as in [[:alpha:]]."]
        ]
      ])
      const markdown = Markdown.render(document)
      assert.include(
        markdown,
        "| **Option** | **Type** | **Description** |\n| --- | --- | --- |\n| `dot` | `boolean` |"
      )
    }))
})

describe("structure kept in EPUB", () => {
  it.effect(
    "<pre><code>, <code>, <em>, <strong>, nested lists and <table>; epubcheck finds nothing",
    () =>
      Effect.gen(function*() {
        const epub = Epub.build(yield* read(yield* makePdf(drawAll)), { modified: new Date("2024-01-02T03:04:05Z") })
        const files = Fflate.unzipSync(epub)
        const xhtml = Object.keys(files).filter((name) => name.endsWith(".xhtml") && !name.endsWith("nav.xhtml"))
          .map((name) => new TextDecoder().decode(files[name])).join("\n")
        assert.include(
          xhtml,
          "<pre><code>function f(x) {\n  if (x) {\n    return well-\n  }\n\n  return 0\n}</code></pre>"
        )
        assert.include(
          xhtml,
          "Call <code>parse()</code> to read a file, it is <em>very</em> fast and <strong>safe</strong>."
        )
        assert.include(
          xhtml,
          "<ul><li>first point<ul><li>nested point</li></ul></li><li>second point that wraps onto a second line</li></ul>"
        )
        assert.include(xhtml, "<tr><td>dot</td><td>boolean</td><td>false</td></tr>")
        assert.isTrue(existsSync(epubcheckJar), `epubcheck is required at ${epubcheckJar} (apt-get install epubcheck)`)
        const dir = mkdtempSync(Path.join(Os.tmpdir(), "structure-epub-"))
        try {
          const file = Path.join(dir, "structure.epub")
          writeFileSync(file, epub)
          const output = execFileSync("java", ["-jar", epubcheckJar, file], { encoding: "utf8" })
          assert.include(output, "No errors or warnings detected")
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }),
    120_000
  )
})
