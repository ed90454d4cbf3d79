import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  beginText,
  endText,
  moveText,
  PDFDocument,
  PDFOperator,
  PDFOperatorNames,
  setFontAndSize,
  StandardFonts
} from "pdf-lib"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import * as Pdf from "../src/internal/pdf.js"
import { node, page, read, run, texts } from "./support/taggedPages.js"
import { item } from "./support/textItems.js"

const acronyms: ReadonlyArray<readonly [string, string]> = [
  ["API", "Application Programming Interface"],
  ["CCS", "Coordinate Conversion Service"],
  ["DLL", "Dynamic Linked Library"],
  ["EGM", "Earth Gravity Model"]
]

/**
 * A page of rows set as Word prints them through PScript: each row one TJ run, its term and
 * description parted by a kern as wide as a tab; `tab` false sets a word space there instead.
 */
const glossaryPdf = (tab: boolean) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    const font = await document.embedFont(StandardFonts.Helvetica)
    const page = document.addPage([612, 792])
    const name = page.node.newFontDictionary("F1", font.ref)
    acronyms.forEach(([term, description], i) => {
      // Kerns in thousandths of the size: the term padded to a stop 6 em along.
      const gap = tab ? -(6000 - font.widthOfTextAtSize(term, 1000)) : -250
      const row = document.context.obj([font.encodeText(term), gap, font.encodeText(description)])
      page.pushOperators(
        beginText(),
        setFontAndSize(name, 10),
        moveText(72, 700 - 20 * i),
        PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [row]),
        endText()
      )
    })
    return document.save()
  })

const tabsOf = (pdf: Uint8Array) =>
  Effect.scoped(Effect.flatMap(Pdf.open(pdf, undefined), (open) => Pdf.readPage(open, 1, { figures: false }))).pipe(
    Effect.map((page) => page.items.map((run) => run.tab === undefined ? undefined : Math.round(run.tab.x)))
  )

describe("tab stops inside a run", () => {
  it.effect("rows at one x whose runs hold a gap wider than a tab are measured: the stop's x is kept", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* tabsOf(yield* glossaryPdf(true)), [132, 132, 132, 132])
    }))

  it.effect("a word space is no tab stop", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* tabsOf(yield* glossaryPdf(false)), [undefined, undefined, undefined, undefined])
    }))
})

/** A run of a term, then its description from the stop at x 150. */
const row = (term: string, description: string, y: number): TextItem => ({
  ...item(`${term} ${description}`, 72, y, 10, 78 + description.length * 5),
  tab: { at: term.length + 1, x: 150 }
})

const tables = (items: ReadonlyArray<TextItem>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [] }
  return Layout.orderPage(page).items.flatMap((placed) => placed._tag === "Table" ? [placed.rows] : [])
}

describe("glossaries", () => {
  it("three rows or more of a term and a description at a tab stop are a table of two columns", () => {
    const found = tables([
      item("APPENDIX A - ACRONYMS", 72, 80),
      ...acronyms.map(([term, description], i) => row(term, description, 100 + 20 * i)),
      item("wrapped onto a second line", 150, 172)
    ])
    assert.deepStrictEqual(found, [[
      ["API", "Application Programming Interface"],
      ["CCS", "Coordinate Conversion Service"],
      ["DLL", "Dynamic Linked Library"],
      ["EGM", "Earth Gravity Model wrapped onto a second line"]
    ]])
  })

  it("rows without a tab stop, or fewer than three, or after a line at the descriptions' x, are no table", () => {
    assert.deepStrictEqual(
      tables(acronyms.map(([term, description], i) => item(`${term} ${description}`, 72, 100 + 20 * i))),
      []
    )
    assert.deepStrictEqual(
      tables(acronyms.slice(0, 2).map(([term, description], i) => row(term, description, 100 + 20 * i))),
      []
    )
    assert.deepStrictEqual(
      tables([item("a hanging paragraph's line", 150, 88), ...acronyms.map(([t, d], i) => row(t, d, 100 + 20 * i))]),
      []
    )
  })

  it("a term ending a clause, or page numbers for descriptions, make no glossary", () => {
    assert.deepStrictEqual(tables(acronyms.map(([term], i) => row(`${term},`, "and so on", 100 + 20 * i))), [])
    assert.deepStrictEqual(tables(acronyms.map(([term], i) => row(term, `${12 + i}`, 100 + 20 * i))), [])
  })
})

describe("glossaries on a tagged page", () => {
  const rows = acronyms.map(([term, description]) => [term, description] as const)
  /** Each row a paragraph of two runs, the description at a tab stop (x 160). */
  const glossaryPage = () => {
    const tree = [node("Document", [node("P", [0]), ...rows.map((_, i) => node("P", [i + 1]))])]
    return page(1, tree, [
      [run("The following list defines the acronyms used.", 60, 80), 0],
      ...rows.flatMap(([term, description], i): Array<readonly [TextItem, number]> => [
        [run(term, 60, 100 + 18 * i), i + 1],
        [run(description, 160, 100 + 18 * i), i + 1]
      ])
    ])
  }

  it.effect("rows tagged as paragraphs of a term and a description a tab apart are one table in their place", () =>
    Effect.sync(() => {
      const { blocks } = read(glossaryPage())
      assert.deepStrictEqual(texts(blocks), ["The following list defines the acronyms used.", "Table"])
      const table = blocks[1]!
      assert.deepStrictEqual(table._tag === "Table" ? table.rows : [], rows.map(([t, d]) => [t, d]))
    }))

  it.effect("descriptions not at one x are paragraphs", () =>
    Effect.sync(() => {
      const { blocks } = read(page(
        1,
        [node("Document", rows.map((_, i) => node("P", [i])))],
        rows.flatMap((
          [term, description],
          i
        ): Array<readonly [TextItem, number]> => [[run(term, 60, 100 + 18 * i), i], [
          run(description, 160 + 30 * i, 100 + 18 * i),
          i
        ]])
      ))
      assert.notInclude(texts(blocks), "Table")
    }))
})
