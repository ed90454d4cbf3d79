import { assert, describe, it } from "@effect/vitest"
import * as Fflate from "fflate"
import { Lexer, type Tokens } from "marked"
import { Epub, Markdown } from "../src/index.js"
import type { Document } from "../src/index.js"
import { labelRuns } from "../src/internal/layout/labels.js"
import type { Line } from "../src/internal/layout/model.js"
import { listParts } from "../src/internal/tagged/items.js"
import type { TagNode } from "../src/internal/tagged/model.js"
import { item, pageBlocks } from "./support/textItems.js"

const line = (text: string, x0: number, y: number): Line => ({
  text,
  x0,
  x1: x0 + text.length * 5,
  y,
  size: 10,
  rtl: false
})

const lead = "Running text before the list, long enough to set the body size of the page."

/** A clause whose sub-clauses are labelled `labels`, one line each under it, then a line of text after. */
const clause = (labels: ReadonlyArray<string>, x = 80) => [
  item(lead, 50, 100),
  item("You distribute at least one of the following with the Work:", 50, 114),
  ...labels.map((label, i) => item(`${label} An item of the clause, its own sentence.`, x, 128 + 14 * i)),
  item("Text after the list, back at the margin, goes on here.", 50, 128 + 14 * labels.length)
]

const listOf = (blocks: ReadonlyArray<Document.Block>): Document.List | undefined =>
  blocks.find((block): block is Document.List => block._tag === "List")

describe("lettered and roman list labels", () => {
  it("a run of roman labels at one indent are items; each keeps its label", () => {
    const list = listOf(pageBlocks(clause(["i.", "ii.", "iii.", "iv."])))
    assert.deepStrictEqual(list?.items.map((entry) => [entry.label, entry.text]), [
      ["i.", "An item of the clause, its own sentence."],
      ["ii.", "An item of the clause, its own sentence."],
      ["iii.", "An item of the clause, its own sentence."],
      ["iv.", "An item of the clause, its own sentence."]
    ])
    assert.strictEqual(list?.start, 1)
  })

  it("upper-case letters and roman numbers in brackets make a run too", () => {
    assert.deepStrictEqual(listOf(pageBlocks(clause(["A.", "B.", "C."])))?.items.map((entry) => entry.label), [
      "A.",
      "B.",
      "C."
    ])
    assert.deepStrictEqual(listOf(pageBlocks(clause(["(ii)", "(iii)"])))?.items.map((entry) => entry.label), [
      "(ii)",
      "(iii)"
    ])
  })

  it("a lone upper-case label starting a sentence is text, not an item", () => {
    const blocks = pageBlocks([
      item(lead, 50, 100),
      item("A. Smith wrote the first version of this program in 1998.", 50, 114),
      item("II. Methods were chosen after that, as told below.", 50, 140)
    ])
    assert.isUndefined(listOf(blocks))
  })

  it("labels out of sequence, of two shapes, or at two indents are no run", () => {
    assert.strictEqual(labelRuns([line("A. one", 50, 100), line("C. two", 50, 114)]).size, 0)
    assert.strictEqual(labelRuns([line("A. one", 50, 100), line("(B) two", 50, 114)]).size, 0)
    assert.strictEqual(labelRuns([line("ii. one", 50, 100), line("iii. two", 80, 114)]).size, 0)
  })

  it("a line left of both labels between them ends the run", () => {
    const runs = labelRuns([line("I. one", 60, 100), line("Text at the margin.", 40, 114), line("II. two", 60, 128)])
    assert.strictEqual(runs.size, 0)
  })

  it("flush-right roman labels are one run; \"i\" after \"h\" is a letter, before \"ii\" a roman one", () => {
    const runs = labelRuns([line("i. one", 62, 100), line("ii. two", 59, 114), line("iii. three", 56, 128)])
    assert.deepStrictEqual([...runs.values()].map((label) => label.number), [1, 2, 3])
    const letters = labelRuns([line("(h) one", 60, 100), line("(i) two", 60, 114)])
    assert.deepStrictEqual([...letters.values()].map((label) => label.number), [8, 9])
  })

  it("a tagged list keeps its items' lettered or roman labels (Lbl), not their digits or bullets", () => {
    const node = (numbering: string): TagNode => ({
      role: "L",
      kids: [],
      alt: "",
      actualText: "",
      numbering,
      rowSpan: 1,
      colSpan: 1
    })
    const list = (numbering: string, labels: ReadonlyArray<string>) =>
      listParts(
        node(numbering),
        labels.map((label, i) => ({ lines: [line(`item ${i}`, 60, 100 + 14 * i)], label, lists: [], after: [] })),
        [labels.length]
      )[0]!(undefined)
    const labelsOf = (made: Document.List) => made.items.map((entry) => entry.label)
    assert.deepStrictEqual(labelsOf(list("LowerAlpha", ["a)", "b)"])), ["a)", "b)"])
    assert.deepStrictEqual(labelsOf(list("UpperRoman", ["I.", "II."])), ["I.", "II."])
    assert.deepStrictEqual(labelsOf(list("Decimal", ["1.", "2."])), [undefined, undefined])
    assert.deepStrictEqual(labelsOf(list("Disc", ["o", "o"])), [undefined, undefined])
  })

  const labelled: Document.Document = {
    title: "T",
    language: "en",
    pages: 1,
    blocks: [
      { _tag: "Heading", level: 1, text: "One" },
      {
        _tag: "List",
        ordered: true,
        start: 1,
        items: [{ label: "(a)", text: "first" }, { label: "(b)", text: "next" }]
      }
    ]
  }

  it("Markdown keeps a label as printed, in a bullet item (GFM numbers only in digits)", () => {
    const token = new Lexer().lex(Markdown.render(labelled)).find((t): t is Tokens.List => t.type === "list")
    assert.deepStrictEqual(token?.items.map((entry) => entry.text), ["(a) first", "(b) next"])
  })

  it("EPUB keeps a label as printed in its <li>, in a list that does not number them again", () => {
    const files = Fflate.unzipSync(Epub.build(labelled))
    const chapter = Object.keys(files).find((name) => /chapter-\d+\.xhtml$/.test(name))!
    assert.include(new TextDecoder().decode(files[chapter]), "<ul><li>(a) first</li><li>(b) next</li></ul>")
  })
})
