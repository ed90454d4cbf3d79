import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Document } from "../src/index.js"
import { Markdown } from "../src/index.js"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { footNotes } from "../src/internal/layout/footnotes.js"
import { makeLine } from "../src/internal/layout/lines.js"
import type { OrderedPage, PageItem, Rule } from "../src/internal/layout/model.js"
import { Style } from "../src/internal/layout/model.js"
import { item } from "./support/textItems.js"

/** A line of body text with a raised label after `before` and `after` going on beside it. */
const referring = (before: string, label: string, after: string, x: number, y: number): Array<TextItem> => {
  const labelX = x + before.length * 5
  return [item(before, x, y), item(label, labelX, y - 3.5, 6), item(after, labelX + label.length * 3, y)]
}

/** A footnote separator: a short thin rule at the column's left. */
const separator = (x: number, y: number): Rule => ({ x0: x, x1: x + 100, y0: y, y1: y + 0.4, horizontal: true })

const page = (items: ReadonlyArray<TextItem>, rules: ReadonlyArray<Rule>, number = 1): PageText => ({
  page: number,
  width: 600,
  height: 800,
  items,
  figures: [],
  rules
})

/** Body lines at 12 pt leading starting at `y`. */
const bodyLines = (texts: ReadonlyArray<string>, x: number, y: number, size = 10) =>
  texts.map((text, i) => item(text, x, y + i * size * 1.2, size))

const filler = [
  "Plain text that makes up the body of the page, set in",
  "the running size, line after line, as a book would be",
  "set, long enough for the body size to be the one most",
  "lines have, so that notes are the smaller ones below."
]

const layout = (pages: ReadonlyArray<PageText>) =>
  Layout.layoutDocument({ pages: [...pages], outline: [], title: undefined, filename: "test" })

const contentBlocks = (document: Document.Document) => document.blocks.filter((block) => block._tag !== "PageBreak")

const footnotes = (document: Document.Document) =>
  document.blocks.filter((block): block is Document.Footnote => block._tag === "Footnote")

describe("footnotes at a page's foot", () => {
  it.effect("a note below a short rule, labelled as a raised reference in the body, becomes a footnote", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("The converter reads notes", "1", " and goes on with its text.", 50, 160),
        ...bodyLines(["A last line of the body ends the page here."], 50, 172),
        item("1", 50, 711, 6),
        item("A note at the foot of the page.", 54, 715, 8)
      ], [separator(50, 700)])])
      assert.deepStrictEqual(footnotes(document), [{
        _tag: "Footnote",
        label: "1",
        text: "A note at the foot of the page."
      }])
      const markdown = Markdown.render(document)
      assert.include(markdown, "The converter reads notes[^1] and goes on with its text.")
      assert.include(markdown, "\n[^1]: A note at the foot of the page.\n")
      assert.notInclude(markdown.split("[^1]:")[0]!, "A note at the foot")
    }))

  it.effect("a note in the body's size, its label raised, after a gap without a rule (LibreOffice's) answers its reference", () =>
    Effect.sync(() => {
      const notes = (label: ReadonlyArray<TextItem>) =>
        footnotes(layout([page([
          ...bodyLines(filler, 50, 100),
          ...referring("As an example, in LibreOffice 3.4+", "1", " the features can be turned on.", 50, 160),
          ...bodyLines(["A last line of the body ends the page here."], 50, 172),
          ...label,
          item("The download for LibreOffice can be found at its site.", 58, 715)
        ], [])]))
      assert.deepStrictEqual(notes([item("1", 50, 711, 6)]), [{
        _tag: "Footnote",
        label: "1",
        text: "The download for LibreOffice can be found at its site."
      }])
      // Set on the line in the body's size, the same words are a paragraph of the body.
      assert.deepStrictEqual(notes([item("1", 50, 715)]), [])
    }))

  it.effect("a note set on the line (\"2 Text\"), smaller after a gap, answers a raised reference; the sentence goes on across the page", () =>
    Effect.sync(() => {
      const document = layout([
        page([
          ...bodyLines(filler, 50, 100),
          ...referring("A sentence with a reference", "2", " that goes on at the", 50, 160),
          item("2 The note, in the note size, without a rule.", 50, 720, 8)
        ], []),
        page([...bodyLines(["top of the next page and ends there.", ...filler], 50, 100)], [], 2)
      ])
      assert.deepStrictEqual(footnotes(document), [
        { _tag: "Footnote", label: "2", text: "The note, in the note size, without a rule." }
      ])
      const texts = contentBlocks(document).map((block) => block._tag === "Paragraph" ? block.text : block._tag)
      assert.isTrue(
        texts.some((text) =>
          text.startsWith("A sentence with a reference2 that goes on at the top of the next page and ends there.")
        )
      )
      assert.include(Markdown.render(document), "with a reference[^2] that goes on at the top of the next page")
    }))

  it.effect("a note going on at the next page's foot, below its rule and without a label, is one footnote", () =>
    Effect.sync(() => {
      const document = layout([
        page([
          ...bodyLines(filler, 50, 100),
          ...referring("A reference to a long note", "1", " in the body.", 50, 160),
          item("1", 50, 711, 6),
          item("A long note that does not end on its", 54, 715, 8)
        ], [separator(50, 700)]),
        page(
          [
            ...bodyLines(filler, 50, 100),
            item("page but goes on at the foot of the next.", 50, 715, 8)
          ],
          [separator(50, 700)],
          2
        )
      ])
      assert.deepStrictEqual(footnotes(document), [
        {
          _tag: "Footnote",
          label: "1",
          text: "A long note that does not end on its page but goes on at the foot of the next."
        }
      ])
    }))

  it.effect("a note going on below a rule across the column (Word's and LaTeX's continuation rule) is one footnote", () =>
    Effect.sync(() => {
      const across: Rule = { x0: 50, x1: 550, y0: 690, y1: 690.4, horizontal: true }
      const document = layout([
        page([
          ...bodyLines(filler, 50, 100),
          ...referring("A reference to a long note", "1", " in the body.", 50, 160),
          item("1", 50, 711, 6),
          item("A long note that does not end on its", 54, 715, 8)
        ], [separator(50, 700)]),
        page(
          [
            ...bodyLines(filler, 50, 100),
            ...referring("Another reference", "2", " on this page.", 50, 160),
            item("page but goes on at the foot of the next.", 50, 702, 8),
            item("2", 50, 711, 6),
            item("The page's own note.", 54, 715, 8)
          ],
          [across],
          2
        )
      ])
      assert.deepStrictEqual(footnotes(document).map((note) => [note.label, note.text]), [
        ["1", "A long note that does not end on its page but goes on at the foot of the next."],
        ["2", "The page's own note."]
      ])
    }))

  it.effect("lines at a page's foot that are not notes stay in the body", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        // Smaller, after a gap, starting with a number, but no reference in the body says "3".
        item("3 apples and a pear are left on the table.", 50, 700, 8),
        // Below a short rule, starting with a number, but in the body's size and not raised.
        item("4 items in all, counted at the end of the list.", 50, 740)
      ], [separator(50, 728)])])
      assert.deepStrictEqual(footnotes(document), [])
      const texts = contentBlocks(document).map((block) => block._tag === "Paragraph" ? block.text : block._tag)
      assert.isTrue(texts.some((text) => text.includes("3 apples and a pear")))
      assert.isTrue(texts.some((text) => text.includes("4 items in all")))
    }))

  it.effect("a raised number without a note on its page stays a reference; a repeated one is an exponent", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("A first mention", "1", " of the note.", 50, 160),
        ...referring("Then x", "1", " again, an exponent of the same label.", 50, 172),
        item("1", 50, 711, 6),
        item("The only note of the page.", 54, 715, 8)
      ], [separator(50, 700)])])
      const markdown = Markdown.render(document)
      assert.include(markdown, "A first mention[^1] of the note.")
      assert.include(markdown, "Then x1 again")
      assert.include(markdown, "[^1]: The only note of the page.")
    }))

  it.effect("a raised number glued to the word after it is an exponent when the label stands free later", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("The checker shows foox", "2", "bar for its input.", 50, 160),
        ...referring("It checks what is generated from XML.", "2", " The rest is read.", 50, 172),
        item("2", 50, 711, 6),
        item("Think of school books made of many files.", 54, 715, 8)
      ], [separator(50, 700)])])
      const markdown = Markdown.render(document)
      assert.include(markdown, "foox2bar for its input.")
      assert.include(markdown, "generated from XML.[^2] The rest is read.")
      assert.include(markdown, "[^2]: Think of school books made of many files.")
    }))
})

describe("footnotes of a right-to-left page", () => {
  /** A right-to-left run ending at `right`. */
  const rtl = (text: string, right: number, y: number, size = 10): TextItem => ({
    ...item(text, right - text.length * size * 0.5, y, size),
    rtl: true
  })
  it.effect("notes aligned at the right, below a rule at the right, are footnotes however short or long", () =>
    Effect.sync(() => {
      const lines = filler.map((text, i) => rtl(text, 550, 100 + i * 12))
      const first = rtl("A sentence with a reference", 550, 160)
      const label = { ...item("1", first.x - 3, 156.5, 6), rtl: true }
      const second = rtl("Another sentence refers", 550, 172)
      const label2 = { ...item("2", second.x - 3, 168.5, 6), rtl: true }
      const document = layout([page([
        ...lines,
        first,
        label,
        rtl(" and goes on.", label.x, 160),
        second,
        label2,
        rtl(" to the second note.", label2.x, 172),
        rtl("1 A short note.", 550, 715, 8),
        rtl("2 The second note is a much longer one, reaching far to the left.", 550, 727, 8)
      ], [{ x0: 450, x1: 550, y0: 700, y1: 700.4, horizontal: true }])])
      assert.deepStrictEqual(footnotes(document).map((note) => [note.label, note.text]), [
        ["1", "A short note."],
        ["2", "The second note is a much longer one, reaching far to the left."]
      ])
    }))
})

describe("notes set as a list in the text", () => {
  it.effect("entries whose labels answer the references met before become footnotes; a numbered list does not", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("One claim", "1", " and another", 50, 160),
        ...referring("claim here", "2", " in the text.", 50, 172),
        ...bodyLines(["1. First step of a list.", "2. Second step of a list."], 50, 200),
        item("Notes", 50, 260, 10),
        ...bodyLines(["1 Where the first claim comes from.", "2 Where the second one comes from."], 50, 280)
      ], [])])
      assert.deepStrictEqual(footnotes(document).map((note) => [note.label, note.text]), [
        ["1", "Where the first claim comes from."],
        ["2", "Where the second one comes from."]
      ])
      const markdown = Markdown.render(document)
      assert.include(markdown, "One claim[^1] and another claim here[^2] in the text.")
    }))

  it.effect("one entry is a note when its label stands alone beside its text (rst2pdf); a lone \"1 text\" line is not", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("One claim", "1", " and the text goes on.", 50, 160),
        item("1", 63, 300),
        item("The only note, its label in a column of its own.", 148, 300)
      ], [])])
      assert.deepStrictEqual(footnotes(document).map((note) => [note.label, note.text]), [
        ["1", "The only note, its label in a column of its own."]
      ])
      const plain = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("One claim", "1", " and the text goes on.", 50, 160),
        item("1 A numbered line of the body that no note is.", 50, 300)
      ], [])])
      assert.deepStrictEqual(footnotes(plain), [])
    }))

  it.effect("a list of tables, each entry's leaders ending in a page number, answers no raised figures before it", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("the constant over c", "2", " and then", 50, 160),
        ...referring("the power h", "3", " of the law.", 50, 172),
        item("List of Tables", 50, 260, 10),
        ...bodyLines(
          [
            "1 A simple table . . . . . . . . . . . . . . 2",
            "2 Table with more complicated columns . . . . . . 2",
            "3 Table at full column width . . . . . . . . . 4"
          ],
          50,
          280
        )
      ], [])])
      assert.deepStrictEqual(footnotes(document), [])
      assert.include(Markdown.render(document), "2 Table with more complicated columns . . .")
    }))
})

describe("references set on the line", () => {
  it.effect("a note symbol glued to a word answers a note with that label (troff's -me and mom); later ones stay text", () =>
    Effect.sync(() => {
      const document = layout([page([
        item("Eric P. Allman*", 250, 80),
        ...bodyLines(filler, 50, 100),
        ...bodyLines(
          [
            "The facilities available on the UNIX† operating system",
            "and the pattern debian/* names every file there."
          ],
          50,
          160
        ),
        item("*Author's current address: Berkeley, California.", 70, 700, 8),
        item("†UNIX is a trademark of AT&T Bell Laboratories.", 70, 710, 8)
      ], [])])
      assert.deepStrictEqual(footnotes(document).map((note) => [note.label, note.text]), [
        ["*", "Author's current address: Berkeley, California."],
        ["†", "UNIX is a trademark of AT&T Bell Laboratories."]
      ])
      const markdown = Markdown.render(document)
      assert.match(markdown, /Eric P\. Allman\[\^note(-\d)?\]/)
      assert.match(markdown, /on the UNIX\[\^note(-\d)?\] operating system/)
      assert.include(markdown, "debian/\\* names")
    }))

  it.effect("a number glued to CJK text answers a note of its page; one with no note stays text", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        item("必要は全くありません。2", 50, 160),
        item("少なくとも 2 文字以上で、30 文字以内の長さにするのが望ましいです。", 50, 172),
        item("2基本的な操作はここから学べます。", 60, 715, 8)
      ], [separator(50, 700)])])
      assert.deepStrictEqual(footnotes(document).map((note) => [note.label, note.text]), [[
        "2",
        "基本的な操作はここから学べます。"
      ]])
      const markdown = Markdown.render(document)
      assert.include(markdown, "必要は全くありません。[^2]")
      assert.include(markdown, "30 文字以内")
    }))

  it.effect("labels in superior figures (\"1⁴\") follow the numbers before them and answer their references", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        item("それは数字で始まらなければいけません。13 できることなら短くします。1⁴", 50, 160),
        item("13この厳しい目のルールは混乱を避けます。", 60, 715, 8),
        item("1⁴デフォルトのフィールド長は 10 です。", 60, 725, 8)
      ], [separator(50, 700)])])
      assert.deepStrictEqual(footnotes(document).map((note) => note.label), ["13", "14"])
      const markdown = Markdown.render(document)
      assert.include(markdown, "いけません。[^13] できることなら短くします。[^14]")
    }))

  it.effect("a note whose first line is indented as a paragraph's, its next lines further left, is one note", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("The list below produces", "3", ":", 50, 160),
        item("3", 72, 696, 6),
        item("By the way, if you whisk the first three ingredients madly over a medium flame", 76, 700, 8),
        item("until the mixture reaches the consistency of custard, you will have a sauce.", 50, 710, 8)
      ], [])])
      assert.deepStrictEqual(footnotes(document).map((note) => [note.label, note.text]), [[
        "3",
        "By the way, if you whisk the first three ingredients madly over a medium flame until the mixture reaches the consistency of custard, you will have a sauce."
      ]])
    }))

  it.effect("a reference its page's foot note answers is not answered again by numbered lines of the body", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("Every package needs these files", "1", ".", 50, 160),
        ...bodyLines(
          ["1-7 Lines one to seven describe the source package.", "1 Line one is the name of the source package."],
          50,
          300
        ),
        item("1", 50, 711, 6),
        item("Where it is obvious, the directory is left out.", 54, 715, 8)
      ], [separator(50, 700)])])
      assert.deepStrictEqual(footnotes(document).map((note) => note.text), [
        "Where it is obvious, the directory is left out."
      ])
      const texts = contentBlocks(document).map((block) => block._tag === "Paragraph" ? block.text : "")
      assert.isTrue(texts.some((text) => text.includes("1 Line one is the name of the source package.")))
    }))

  it.effect("labels in another script's digits (Persian \"۱\", \"۲\") are references and notes in sequence", () =>
    Effect.sync(() => {
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        ...referring("A first term", "۱", " and", 50, 160),
        ...referring("a second one", "۲", " in the text.", 50, 172),
        item("۱", 50, 711, 6),
        item("The first note.", 54, 715, 8),
        item("۲", 50, 721, 6),
        item("The second note.", 54, 725, 8)
      ], [separator(50, 700)])])
      assert.deepStrictEqual(footnotes(document).map((note) => [note.label, note.text]), [
        ["۱", "The first note."],
        ["۲", "The second note."]
      ])
      assert.include(Markdown.render(document), "A first term[^note] and a second one[^note-2] in the text.")
    }))
  it.effect("a note below a table, answering a raised label in a cell of it, is a footnote without a rule above it", () =>
    Effect.sync(() => {
      const horizontal = (y: number): Rule => ({ x0: 40, x1: 560, y0: y, y1: y + 0.5, horizontal: true })
      const document = layout([page([
        ...bodyLines(filler, 50, 100),
        item("Feature", 50, 215),
        item("Implementation", 300, 212),
        item("Notes", 300, 224),
        item("1", 325, 220.5, 6),
        item("Dal", 50, 250),
        item("G,O,T", 300, 250),
        item("Meem", 50, 280),
        item("G,O,T", 300, 280),
        item("1", 50, 711, 8),
        item("G=Implemented in Graphite; O=Implemented in OpenType.", 57, 711, 8)
      ], [horizontal(200), horizontal(232), horizontal(262), horizontal(292)])])
      assert.deepStrictEqual(footnotes(document), [{
        _tag: "Footnote",
        label: "1",
        text: "G=Implemented in Graphite; O=Implemented in OpenType."
      }])
      assert.include(Markdown.render(document), "Implementation Notes[^1]")
    }))
  it("a label raised alone on its own line over its note's first line starts that note (LaTeX's two columns)", () => {
    const line = (text: string, x: number, y: number, size: number): PageItem => ({
      _tag: "Line",
      line: makeLine([item(text, x, y, size)])
    })
    const ordered: OrderedPage = {
      page: 1,
      height: 800,
      items: [
        ...filler.map((text, i) => line(text, 44, 600 + i * 12, 10)),
        line("1", 54.8, 701.3, 6),
        line("Note that in the previous release we offered", 58.9, 704.1, 8),
        line("a means to achieve this effect.", 44, 713.6, 8)
      ],
      separators: [{ x0: 43.3, x1: 142.1, y0: 694.3, y1: 695.1, horizontal: true, long: false }]
    }
    const found = footNotes(ordered, 10, false)
    assert.deepStrictEqual(
      found.notes.map((note) => [note.label, note.lines.map((l) => l.text).join(" ").slice(note.cut)]),
      [["1", "Note that in the previous release we offered a means to achieve this effect."]]
    )
    assert.strictEqual(found.page.items.length, filler.length)
  })
  it("a reference read as a line of its own above the line it ends goes back to that line's end", () => {
    const line = (text: string, x: number, y: number, size: number): PageItem => ({
      _tag: "Line",
      line: makeLine([item(text, x, y, size, size === 10 ? text.length * 4.3 : 4)])
    })
    const ordered: OrderedPage = {
      page: 1,
      height: 800,
      items: [
        line("commands can be used anywhere in the document, i.e.,", 43.6, 549.4, 10),
        line("2", 217.2, 557.8, 7),
        line("they are not restricted to the preamble.", 45.2, 561.4, 10),
        line("2 This is now also true for the corresponding commands.", 44, 724, 8)
      ],
      separators: [{ x0: 43.3, x1: 142.1, y0: 713.2, y1: 714, horizontal: true, long: false }]
    }
    const found = footNotes(ordered, 10, false)
    assert.deepStrictEqual(found.notes.map((note) => note.label), ["2"])
    const lines = found.page.items.flatMap((placed) => placed._tag === "Line" ? [placed.line] : [])
    assert.deepStrictEqual(lines.map((l) => l.text), [
      "commands can be used anywhere in the document, i.e.,",
      "they are not restricted to the preamble.2"
    ])
    assert.deepStrictEqual(lines[1]!.marks, [{ start: 40, end: 41, style: Style.footnote }])
  })
})
