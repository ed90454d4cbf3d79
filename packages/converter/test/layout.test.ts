import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Document } from "../src/index.js"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { makeLine } from "../src/internal/layout/lines.js"
import { normalizeText } from "../src/internal/layout/text.js"

/** A text item whose width follows its length, as with a fixed-pitch font half an em wide. */
const item = (text: string, x: number, y: number, size = 10, rtl = false, style = 0): TextItem => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  rtl,
  style
})

const page = (items: ReadonlyArray<TextItem>, number = 1, width = 600, height = 800): PageText => ({
  page: number,
  width,
  height,
  items,
  figures: []
})

const layout = (pages: ReadonlyArray<PageText>, outline: ReadonlyArray<Layout.OutlineEntry> = []) =>
  Layout.layoutDocument({ pages: [...pages], outline, title: undefined, filename: "test" })

const contentBlocks = (document: Document.Document) => document.blocks.filter((block) => block._tag !== "PageBreak")

/** Body lines at 12 pt leading starting at `y`, one per text. */
const bodyLines = (texts: ReadonlyArray<string>, x: number, y: number, size = 10) =>
  texts.map((text, i) => item(text, x, y + i * size * 1.2, size))

describe("layout rules", () => {
  it.effect("the most common size is the body; larger sizes become heading levels by size", () =>
    Effect.sync(() => {
      const document = layout([page([
        item("Big Title", 50, 60, 24),
        item("Section One", 50, 100, 16),
        ...bodyLines(["Plain text that makes up the body of the page", "and goes on for a second line."], 50, 130),
        item("Section Two", 50, 200, 16),
        ...bodyLines(["More body text follows here, long enough to count", "as the running text size."], 50, 230)
      ])])
      const blocks = contentBlocks(document)
      assert.deepStrictEqual(blocks.map((block) => block._tag), [
        "Heading",
        "Heading",
        "Paragraph",
        "Heading",
        "Paragraph"
      ])
      assert.deepStrictEqual(blocks[0], { _tag: "Heading", level: 1, text: "Big Title" })
      assert.deepStrictEqual(blocks[1], { _tag: "Heading", level: 2, text: "Section One" })
      assert.deepStrictEqual(blocks[3], { _tag: "Heading", level: 2, text: "Section Two" })
    }))

  it.effect("the outline wins over font sizes, and missing outline titles are inserted", () =>
    Effect.sync(() => {
      const document = layout(
        // Below the first section (above it, it would be the title the outline leaves out).
        [page([
          item("1 Introduction", 50, 100, 10),
          item("Large Banner", 50, 130, 24),
          ...bodyLines(["Body text of the introduction."], 50, 160)
        ])],
        [
          { title: "1 Introduction", level: 1, page: 1, top: 90 },
          { title: "1.1 Hidden", level: 2, page: 1, top: 300 }
        ]
      )
      const headings = contentBlocks(document).filter((block) => block._tag === "Heading")
      assert.deepStrictEqual(headings, [
        { _tag: "Heading", level: 1, text: "1 Introduction" },
        { _tag: "Heading", level: 2, text: "1.1 Hidden" }
      ])
    }))

  it.effect("an outlined heading keeps the section number the page shows before the bookmark's title", () =>
    Effect.sync(() => {
      const document = layout(
        [page([
          item("1.1 The R environment", 50, 100, 14),
          ...bodyLines(["Body text of the section."], 50, 130),
          item("Appendix A A sample session", 50, 200, 14),
          ...bodyLines(["Body text of the appendix."], 50, 230)
        ])],
        [
          { title: "The R environment", level: 2, page: 1, top: 90 },
          { title: "A A sample session", level: 1, page: 1, top: 190 }
        ]
      )
      const headings = contentBlocks(document).filter((block) => block._tag === "Heading")
      assert.deepStrictEqual(headings, [
        { _tag: "Heading", level: 2, text: "1.1 The R environment" },
        { _tag: "Heading", level: 1, text: "Appendix A A sample session" }
      ])
    }))

  it.effect("in an outlined document, a line at an outlined heading size is a heading after the first outlined one", () =>
    Effect.sync(() => {
      const document = layout(
        [page([
          item("A Title Page Author", 50, 60, 14),
          item("1 Introduction", 50, 100, 14),
          ...bodyLines(["Body text of the introduction."], 50, 130),
          item("2 Usage", 50, 200, 14),
          ...bodyLines(["Body text of the usage."], 50, 230),
          item("Examples", 50, 300, 14),
          ...bodyLines(["Body text of the examples."], 50, 330)
        ])],
        [
          { title: "1 Introduction", level: 1, page: 1, top: 90 },
          { title: "2 Usage", level: 1, page: 1, top: 190 }
        ]
      )
      const headings = contentBlocks(document).filter((block) => block._tag === "Heading")
      assert.deepStrictEqual(headings, [
        { _tag: "Heading", level: 1, text: "1 Introduction" },
        { _tag: "Heading", level: 1, text: "2 Usage" },
        { _tag: "Heading", level: 1, text: "Examples" }
      ])
    }))

  it.effect("hyphenation at line ends is rejoined (a hyphen before a capital kept), real line breaks become spaces", () =>
    Effect.sync(() => {
      assert.strictEqual(Layout.joinLines("an exam-", "ple of text"), "an example of text")
      assert.strictEqual(Layout.joinLines("ends here", "next"), "ends here next")
      assert.strictEqual(Layout.joinLines("Jean-", "Paul"), "Jean-Paul")
      assert.strictEqual(Layout.joinLines("日本", "語"), "日本語")
      // CJK punctuation at a line end or start joins without a space too, Latin after it keeps one.
      assert.strictEqual(Layout.joinLines("为了保证拼音能正确输出，", "最好选用"), "为了保证拼音能正确输出，最好选用")
      assert.strictEqual(Layout.joinLines("一共收录有 89 个问题。", "这份"), "一共收录有 89 个问题。这份")
      assert.strictEqual(Layout.joinLines("文档（", "见下）"), "文档（见下）")
      assert.strictEqual(Layout.joinLines("输出，", "LaTeX"), "输出， LaTeX")
      const blocks = contentBlocks(
        layout([page(bodyLines(["This paragraph is hyphen-", "ated across lines."], 50, 100))])
      )
      assert.deepStrictEqual(blocks, [{ _tag: "Paragraph", text: "This paragraph is hyphenated across lines." }])
    }))

  it.effect("normalisation folds ligatures and full-width letters but keeps Chinese and Japanese punctuation", () =>
    Effect.sync(() => {
      assert.strictEqual(normalizeText("ﬁle ＡＢ１２"), "file AB12")
      assert.strictEqual(normalizeText("输出，最好（见下）：是？"), "输出，最好（见下）：是？")
    }))

  it.effect("a hyphen before a segment on the same baseline (a column beside it) is not a line-end cut", () =>
    Effect.sync(() => {
      // Three full-width lines cross the middle of the page, so no gutter is found and the two
      // segments of the last baseline are read one after the other.
      const blocks = contentBlocks(layout([page([
        ...bodyLines(["A line long enough to span both halves of this test page, wide", "and a second one"], 50, 100),
        item("as a func-", 50, 124),
        item("and more text", 330, 124)
      ])]))
      assert.deepStrictEqual(blocks, [{
        _tag: "Paragraph",
        text: "A line long enough to span both halves of this test page, wide and a second one as a func- and more text"
      }])
    }))

  it.effect("bullets and numbers become lists, with continuation lines joined", () =>
    Effect.sync(() => {
      const blocks = contentBlocks(layout([page([
        ...bodyLines(["Things to know:"], 50, 100),
        item("• first point", 50, 112),
        item("• second point that wraps", 50, 124),
        item("onto another line", 60, 136),
        item("1. one", 50, 160),
        item("2. two", 50, 172)
      ])]))
      assert.deepStrictEqual(blocks, [
        { _tag: "Paragraph", text: "Things to know:" },
        {
          _tag: "List",
          ordered: false,
          start: 0,
          items: [{ text: "first point" }, { text: "second point that wraps onto another line" }]
        },
        { _tag: "List", ordered: true, start: 1, items: [{ text: "one" }, { text: "two" }] }
      ])
    }))

  it.effect("a bullet set apart from its text at a tab stop (a word processor's list) starts an item", () =>
    Effect.sync(() => {
      // The bullet's right edge is 17 pt from its text: wider than a column gap at 12 pt, but a tab.
      const bullet = (text: string, y: number) => [item("\u2022", 84, y, 12), item(text, 108, y, 12)]
      const blocks = contentBlocks(layout([page([
        ...bodyLines(["Options are:"], 72, 70, 12),
        ...bullet("the first option", 84),
        ...bullet("the second option, whose text wraps", 100),
        item("onto a second line", 108, 114, 12),
        ...bodyLines(["After the list, a paragraph."], 72, 140, 12)
      ])]))
      assert.deepStrictEqual(blocks, [
        { _tag: "Paragraph", text: "Options are:" },
        {
          _tag: "List",
          ordered: false,
          start: 0,
          items: [{ text: "the first option" }, { text: "the second option, whose text wraps onto a second line" }]
        },
        { _tag: "Paragraph", text: "After the list, a paragraph." }
      ])
    }))

  it.effect("Word's second-level bullet, an \"o\" in Courier New before text in the text face, starts an item", () =>
    Effect.sync(() => {
      const bullet = (text: string, y: number) => [item("o", 90, y, 10, false, 1), item(text, 102, y)]
      const blocks = contentBlocks(layout([page([
        ...bodyLines(["The following constraints are met:"], 72, 70),
        ...bullet("the input integers are at most 256 bytes;", 84),
        ...bullet("the modulus length is a multiple of 32 bits;", 98),
        ...bodyLines(["After the list, a paragraph."], 72, 120),
        item("o", 72, 140, 10, false, 1),
        item("= 5 is code, set in one face.", 78, 140, 10, false, 1)
      ])]))
      assert.deepStrictEqual(blocks.slice(0, 3), [
        { _tag: "Paragraph", text: "The following constraints are met:" },
        {
          _tag: "List",
          ordered: false,
          start: 0,
          items: [
            { text: "the input integers are at most 256 bytes;" },
            { text: "the modulus length is a multiple of 32 bits;" }
          ]
        },
        { _tag: "Paragraph", text: "After the list, a paragraph." }
      ])
      assert.notStrictEqual(blocks[3]?._tag, "List")
    }))

  it.effect("a paragraph's first-line indent after a list is not a wrapped line of its last item", () =>
    Effect.sync(() => {
      const blocks = contentBlocks(layout([page([
        item("\u2022 an item whose text wraps", 60, 100),
        item("onto a line where items' text starts.", 72, 112),
        item("\u2022 the last item.", 60, 124),
        item("A new paragraph, indented less than the items' text,", 66, 140),
        item("goes on at the margin.", 50, 152)
      ])]))
      assert.deepStrictEqual(blocks, [
        {
          _tag: "List",
          ordered: false,
          start: 0,
          items: [{ text: "an item whose text wraps onto a line where items' text starts." }, {
            text: "the last item."
          }]
        },
        { _tag: "Paragraph", text: "A new paragraph, indented less than the items' text, goes on at the margin." }
      ])
    }))

  it.effect("repeated running heads and page numbers are removed", () =>
    Effect.sync(() => {
      const pages = [1, 2, 3, 4].map((n) =>
        page([
          item("Journal of Examples", 200, 30),
          ...bodyLines([`Body of page ${n} with words.`], 50, 300),
          item(String(n), 300, 780)
        ], n)
      )
      const text = contentBlocks(layout(pages)).map((block) => block._tag === "Paragraph" ? block.text : block._tag)
      assert.deepStrictEqual(text, [
        "Body of page 1 with words.",
        "Body of page 2 with words.",
        "Body of page 3 with words.",
        "Body of page 4 with words."
      ])
    }))

  it.effect("two columns are read left column first, lines spanning both stay in place", () =>
    Effect.sync(() => {
      // Columns a quarter of the page wide, as running text fills them.
      const column = (name: string) =>
        ["one", "two", "three", "four", "five"].map((n) =>
          `${name} ${n}, a line of running text${n === "five" ? "." : ""}`
        )
      const left = bodyLines(column("left"), 50, 200)
      const right = bodyLines(column("right"), 320, 200)
      const items = [
        item("A title line spanning both columns of the page", 60, 100, 10),
        // Same baselines on both sides, interleaved the way a content stream may give them.
        ...left.flatMap((l, i) => [l, right[i]!]),
        item("A footer note that also spans the whole width of the page, really", 60, 600, 10)
      ]
      const blocks = contentBlocks(layout([page(items)])).map((block) => block._tag === "Paragraph" ? block.text : "")
      assert.deepStrictEqual(blocks, [
        "A title line spanning both columns of the page",
        column("left").join(" "),
        column("right").join(" "),
        "A footer note that also spans the whole width of the page, really"
      ])
    }))

  it.effect("right-to-left lines are read from the right; presentation forms become base letters", () =>
    Effect.sync(() => {
      // Visual order left to right: the last word of the sentence is leftmost.
      const items = [
        item("ﺍﻟﻌﺮﺑﻴﺔ", 100, 100, 20, true),
        item("ﺍﻟﺨﻄﻮﻁ", 175, 100, 20, true),
        item("ﺍﻧﻮﺍﻉ", 240, 100, 20, true)
      ]
      const [block] = contentBlocks(layout([page(items)]))
      assert.deepStrictEqual(block, { _tag: "Paragraph", text: "انواع الخطوط العربية" })
      assert.isFalse(/[\uFB50-\uFDFF\uFE70-\uFEFF]/u.test(block && block._tag === "Paragraph" ? block.text : ""))
    }))

  it.effect("rows of three or more aligned cells become a table", () =>
    Effect.sync(() => {
      const row = (y: number, cells: ReadonlyArray<string>) => cells.map((cell, i) => item(cell, 50 + i * 150, y))
      const blocks = contentBlocks(layout([page([
        ...row(100, ["Name", "Size", "Kind"]),
        ...row(112, ["alpha", "10", "text"]),
        ...row(124, ["beta", "20", "image"])
      ])]))
      assert.deepStrictEqual(blocks, [{
        _tag: "Table",
        rows: [["Name", "Size", "Kind"], ["alpha", "10", "text"], ["beta", "20", "image"]]
      }])
    }))

  it.effect("the language follows the dominant script", () =>
    Effect.sync(() => {
      assert.strictEqual(Layout.detectLanguage("Hello world"), "en")
      assert.strictEqual(Layout.detectLanguage("日本語テスト"), "ja")
      assert.strictEqual(Layout.detectLanguage("我们都是黑体字"), "zh")
      assert.strictEqual(Layout.detectLanguage("انواع الخطوط العربية"), "ar")
      assert.strictEqual(Layout.detectLanguage(""), "en")
    }))

  it("text at the margin, left of a list's markers, ends the list after a sub-list, however close below", () => {
    const found = contentBlocks(layout([page([
      item("This will:", 50, 100),
      item("\u2022 Invoke autoreconf that will create the following files:", 62, 112),
      item("\u2013 INSTALL (a symlink)", 76, 124),
      item("\u2013 src/include/config.hin", 76, 136),
      item("Note that aclocal.m4 is generated and the groff m4 macros are", 50, 150),
      item("included via the acinclude.m4 file.", 50, 162)
    ])]))
    const list = found.find((block) => block._tag === "List")
    assert.notInclude(JSON.stringify(list), "Note that")
    assert.deepInclude(found, {
      _tag: "Paragraph",
      text: "Note that aclocal.m4 is generated and the groff m4 macros are included via the acinclude.m4 file."
    })
  })
})

describe("paragraphs set with a looser leading than the document's", () => {
  it("a sentence going on in lower case at the same margin stays one paragraph; a finished one ends it", () => {
    const body = bodyLines(Array.from({ length: 8 }, (_, i) => `Body line ${i + 1} of the tighter text.`), 50, 100)
    const loose = [
      "The bold paragraph has a few rules for the con-",
      "text of some characters and its cross word",
      "alternates.",
      "At this point in the devel-",
      "opment of the font, marks may break them."
    ].map((text, i) => item(text, 50, 250 + i * 16))
    const texts = contentBlocks(layout([page([...body, ...loose])])).flatMap((block) =>
      block._tag === "Paragraph" ? [block.text] : []
    )
    assert.deepStrictEqual(texts.slice(-2), [
      "The bold paragraph has a few rules for the context of some characters and its cross word alternates.",
      "At this point in the development of the font, marks may break them."
    ])
  })
})

describe("a table cell's wrapped lines read as one line", () => {
  it("the next baseline's run, back at the left, starts a new word", () => {
    const line = makeLine([
      item("Note: Used for Khamti, Aiton and", 60, 216.5, 6),
      item("Phake dotted characters.", 60, 223.4, 6),
      item("1", 132, 221.5, 4)
    ])
    assert.strictEqual(line.text, "Note: Used for Khamti, Aiton and Phake dotted characters.1")
  })
})

describe("paragraphs across page ends", () => {
  const paragraph = (text: string): Document.Block => ({ _tag: "Paragraph", text })
  const pageBreak = (page: number): Document.Block => ({ _tag: "PageBreak", page })

  it("joins a paragraph cut by a page end when it goes on in lower case", () => {
    const merged = Layout.mergeSplitParagraphs([
      pageBreak(1),
      paragraph("It was cold, and"),
      pageBreak(2),
      paragraph("she was trembling."),
      paragraph("Next one.")
    ])
    assert.deepStrictEqual(merged, [
      pageBreak(1),
      paragraph("It was cold, and she was trembling."),
      pageBreak(2),
      paragraph("Next one.")
    ])
  })

  it("rejoins a word hyphenated across the page end", () => {
    const merged = Layout.mergeSplitParagraphs([paragraph("a long sen-"), pageBreak(2), paragraph("tence goes on")])
    assert.deepStrictEqual(merged[0], paragraph("a long sentence goes on"))
  })

  it("joins the text going on after a page end to the list item it cuts, a nested one included", () => {
    const list = (text: string, inner?: string): Document.Block => ({
      _tag: "List",
      ordered: true,
      start: 1,
      items: [{ text: "First step." }, {
        text,
        ...(inner !== undefined
          ? { lists: [{ _tag: "List", ordered: false, start: 0, items: [{ text: inner }] }] }
          : {})
      }]
    })
    assert.deepStrictEqual(
      Layout.mergeSplitParagraphs([
        list("The primary system waits up to"),
        pageBreak(2),
        paragraph("fifteen seconds.")
      ])[0],
      list("The primary system waits up to fifteen seconds.")
    )
    assert.deepStrictEqual(
      Layout.mergeSplitParagraphs([
        list("It then:", "creates the flag file in its"),
        pageBreak(2),
        paragraph("local filesystem")
      ])[0],
      list("It then:", "creates the flag file in its local filesystem")
    )
    const finished = [list("All systems reboot."), pageBreak(2), paragraph("then the next paragraph")]
    assert.deepStrictEqual(Layout.mergeSplitParagraphs(finished), finished)
  })

  it("keeps paragraphs apart after a finished sentence, a capital, or a heading in between", () => {
    const blocks: ReadonlyArray<Document.Block> = [
      paragraph("The end."),
      pageBreak(2),
      paragraph("lower case after a full stop"),
      pageBreak(3),
      paragraph("Capital letter after a page end"),
      paragraph("no stop, same page"),
      paragraph("lower case on the same page is the layout's call"),
      paragraph("no stop"),
      { _tag: "Heading", level: 2, text: "Title" },
      paragraph("lower after a heading")
    ]
    assert.deepStrictEqual(Layout.mergeSplitParagraphs(blocks), blocks)
  })
})

describe("text layer quality", () => {
  /** A page of `text` repeated on lines of 10 pt until it has at least `length` characters. */
  const pageOf = (text: string, length = 600): Array<TextItem> =>
    Array.from({ length: Math.ceil(length / text.length) }, (_, i) => item(text, 50, 60 + i * 12))

  const prose = "The attitude of a user toward a system was a major determinant of whether it will be used."
  // What pdf.js reads from TAMReview's body: C0 control codes for glyph ids, a few ASCII marks.
  const controlCodes = "\u0002\u0003\u0004\u0005\u0003\u0006\u0004\u0007\b \u0004\u000e \u000f \u0010 %\u0004\u0004$ 1"
  // What pdftotext prints for the same glyphs: Latin Extended-B, Greek numeral signs, punctuation.
  const extendedB = "ǣǡ ȋȌ ͳͻ͹Ͳǯǡ Ǥ ǡ ȋ Ȍ ǡ the"
  const punctuation = "!\" # !\"$ % & % ' ( ) * !\" +"

  it.effect("prose, Arabic, CJK, tables of numbers and math are text", () =>
    Effect.sync(() => {
      for (
        const text of [
          prose,
          "انواع الخطوط العربية وأشكالها في الكتابة",
          "我们都是黑体字，这是一个测试。",
          "1,234.56   7,890.12   -3.4%   (12)   0.05",
          "∀x ∈ A: f(x) ≤ g(x) + ∑ αᵢ·xᵢ − √(β²)"
        ]
      ) {
        assert.isFalse(Layout.isJunkTextLayer(pageOf(text)), text)
      }
    }))

  it.effect("control codes, Latin Extended-B and Greek numeral signs, or bare punctuation are junk", () =>
    Effect.sync(() => {
      for (const text of [controlCodes, extendedB]) {
        assert.isTrue(Layout.isJunkTextLayer(pageOf(text)), JSON.stringify(text))
      }
      // Bare punctuation is junk when the engine says its glyphs have no Unicode mapping...
      const marks = pageOf(punctuation)
      assert.isTrue(Layout.isJunkTextLayer(marks, marks.reduce((sum, i) => sum + i.text.replace(/ /g, "").length, 0)))
      // ...and text when they do: an index of dot leaders and page numbers is 10% letters.
      assert.isFalse(Layout.isJunkTextLayer(marks))
      assert.isFalse(Layout.isJunkTextLayer(pageOf("abs . . . . . . . . . . . . . . . . . . . . . . . 12")))
      // A few running heads in real text do not save a page of junk.
      assert.isTrue(Layout.isJunkTextLayer([item(prose, 50, 40), ...pageOf(controlCodes, 2000)]))
    }))

  it.effect("a short page is not judged, nor an empty one", () =>
    Effect.sync(() => {
      assert.isFalse(Layout.isJunkTextLayer(pageOf(controlCodes, 100)))
      assert.isFalse(Layout.isJunkTextLayer([]))
    }))

  it.effect("OCR replaces a junk layer only when it reads a reasonable amount of words", () =>
    Effect.sync(() => {
      const junk = pageOf(controlCodes, 1000)
      assert.isTrue(Layout.isBetterReading(pageOf(prose, 1000), junk))
      // A figure's label, a part of the page, or specks read as marks are not the page.
      assert.isFalse(Layout.isBetterReading([item("Figure 1: Perceived usefulness", 50, 60)], junk))
      assert.isFalse(Layout.isBetterReading(pageOf(prose, 150), junk))
      assert.isFalse(Layout.isBetterReading(pageOf(punctuation, 1000), junk))
      assert.isFalse(Layout.isBetterReading(pageOf(prose, 1000), pageOf(prose, 1000)))
    }))
})

describe("tables cut by a page end", () => {
  const bold = (text: string, x: number, y: number): TextItem => item(text, x, y, 10, false, 2)
  const header = (y: number) => [bold("Name", 50, y), bold("Value", 150, y)]
  it.effect("the header printed again is dropped, and a row cut in two is one row", () =>
    Effect.sync(() => {
      const document = layout([
        page([
          ...header(100),
          ...[["a", "one"], ["b", "two"], ["c", "three begins"]].flatMap(([name, value], i) => [
            item(name!, 50, 119.5 + i * 19),
            item(value!, 150, 119.5 + i * 19)
          ])
        ], 1),
        page([...header(50), item("and ends here", 150, 69.5), item("d", 50, 88.5), item("four", 150, 88.5)], 2)
      ])
      assert.deepStrictEqual(contentBlocks(document), [{
        _tag: "Table",
        rows: [["Name", "Value"], ["a", "one"], ["b", "two"], ["c", "three begins and ends here"], ["d", "four"]],
        marks: [
          [[{ start: 0, end: 4, style: 2 }], [{ start: 0, end: 5, style: 2 }]],
          [[], []],
          [[], []],
          [[], []],
          [[], []]
        ]
      }])
    }))
})
