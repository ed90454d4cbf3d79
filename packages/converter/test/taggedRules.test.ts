import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Style } from "../src/internal/layout/model.js"
import type { TagKid, TagNode } from "../src/internal/tagged/model.js"
import { artifact, elsewhere, unmarked } from "../src/internal/tagged/model.js"
import { node, page, read, run, texts } from "./support/taggedPages.js"

describe("tagged reading: tree to blocks", () => {
  it.effect("headings by role (H by its sections' nesting), paragraphs joined over lines, artifacts left out", () =>
    Effect.sync(() => {
      const tree = [node("Document", [
        node("H1", [0]),
        node("Sect", [node("H", [1]), node("P", [2, 3]), node("Sect", [node("H", [4])])])
      ])]
      const p = page(1, tree, [
        [run("Running Head", 60, 30), artifact],
        [run("The Title", 60, 100, 20), 0],
        [run("A Section", 60, 140, 14), 1],
        [run("A paragraph whose word is exam-", 60, 170), 2],
        [run("ple, split at the line end.", 60, 184), 3],
        [run("A Subsection", 60, 220, 12), 4],
        [run("7", 300, 780), artifact]
      ])
      assert.strictEqual(p.verdict.unsound, undefined)
      const { blocks, removed } = read(p)
      assert.deepStrictEqual(texts(blocks), [
        "h1 The Title",
        "h1 A Section",
        "A paragraph whose word is example, split at the line end.",
        "h2 A Subsection"
      ])
      assert.deepStrictEqual(removed, ["Running Head", "7"])
    }))

  it.effect("a contents entry ending in its page number is a paragraph, however bold and numbered", () =>
    Effect.sync(() => {
      const tree = [node("Document", [
        node("TOC", [node("TOCI", [0]), node("TOCI", [1])]),
        node("H1", [2]),
        node("P", [3])
      ])]
      const { blocks } = read(page(1, tree, [
        [run("1.1 Change history 3", 60, 100, 11, Style.strong), 0],
        [run("1.2 Scope and terms iv", 60, 114, 11, Style.strong), 1],
        [run("Introduction", 60, 200, 16), 2],
        [run("Some text of the body.", 60, 230), 3]
      ]))
      assert.deepStrictEqual(texts(blocks), [
        "1.1 Change history 3",
        "1.2 Scope and terms iv",
        "h1 Introduction",
        "Some text of the body."
      ])
    }))

  it.effect("reading order is the tree's: a paragraph listed first is read first, wherever it stands", () =>
    Effect.sync(() => {
      // Two columns: the tree reads the left one (lower on the page here) before the right one.
      const tree = [node("Document", [node("P", [0, 1]), node("P", [2, 3])])]
      const { blocks } = read(page(1, tree, [
        [run("Right column, first line", 320, 100), 2],
        [run("and its second line.", 320, 114), 3],
        [run("Left column, first line", 60, 300), 0],
        [run("and its second line.", 60, 314), 1]
      ]))
      assert.deepStrictEqual(texts(blocks), [
        "Left column, first line and its second line.",
        "Right column, first line and its second line."
      ])
    }))

  it.effect("a paragraph of C source in the body's face is a listing, a lone directive after it the same listing", () =>
    Effect.sync(() => {
      const tree = [node("Document", [node("P", [0]), node("P", [1, 2]), node("P", [3])])]
      const { blocks } = read(page(1, tree, [
        [run("The header file contains these lines:", 60, 100), 0],
        [run("/* Power control */", 60, 120), 1],
        [run("#define PWR_CNTRL (CtrlNumT) 0x001", 60, 134), 2],
        [run("#endif //__HEADER_H", 60, 148), 3]
      ]))
      assert.deepStrictEqual(texts(blocks), ["The header file contains these lines:", "Code"])
      const code = blocks[1]
      assert.strictEqual(
        code?._tag === "Code" ? code.text : "",
        "/* Power control */\n#define PWR_CNTRL (CtrlNumT) 0x001\n#endif //__HEADER_H"
      )
    }))

  it.effect("a broken tree that names one marked content twice gives its text once", () =>
    Effect.sync(() => {
      const tree = [node("Document", [node("P", [0, 1]), node("P", [1, 2])])]
      const { blocks } = read(page(1, tree, [
        [run("First line of the text", 60, 100), 0],
        [run("named by two paragraphs", 60, 114), 1],
        [run("Last line.", 60, 160), 2]
      ]))
      assert.deepStrictEqual(texts(blocks), ["First line of the text named by two paragraphs", "Last line."])
    }))

  it.effect("lists: labels, numbers, nesting, bullets set in the item's text", () =>
    Effect.sync(() => {
      const tree = [node("Document", [
        node("L", [
          node("LI", [node("Lbl", [0]), node("LBody", [1])]),
          node("LI", [node("Lbl", [2]), node("LBody", [3, node("L", [node("LI", [node("LBody", [4])])])])])
        ], { numbering: "Decimal" }),
        node("L", [node("LI", [node("LBody", [5])]), node("LI", [node("LBody", [6])])], { numbering: "Circle" })
      ])]
      const { blocks } = read(page(1, tree, [
        [run("4.", 60, 100), 0],
        [run("Fourth step", 80, 100), 1],
        [run("5.", 60, 114), 2],
        [run("Fifth step", 80, 114), 3],
        [run("- an inner point", 100, 128), 4],
        [run("o first bullet", 60, 160), 5],
        [run("o second bullet", 60, 174), 6]
      ]))
      assert.deepStrictEqual(blocks, [
        {
          _tag: "List",
          ordered: true,
          start: 4,
          items: [{ text: "Fourth step" }, {
            text: "Fifth step",
            lists: [{ _tag: "List", ordered: false, start: 0, items: [{ text: "an inner point" }] }]
          }]
        },
        { _tag: "List", ordered: false, start: 0, items: [{ text: "first bullet" }, { text: "second bullet" }] }
      ])
    }))

  it.effect("tables: header and body rows, cells spanning rows and columns, an empty cell the page does not hold", () =>
    Effect.sync(() => {
      const cell = (role: string, kids: ReadonlyArray<TagKid>, more: Partial<TagNode> = {}) => node(role, kids, more)
      const tree = [node("Table", [
        node("THead", [node("TR", [cell("TH", [0]), cell("TH", [1]), cell("TH", [2])])]),
        node("TBody", [
          node("TR", [cell("TD", [3], { rowSpan: 2 }), cell("TD", [4]), elsewhere]),
          node("TR", [cell("TD", [5]), cell("TD", [6])]),
          node("TR", [cell("TD", [7], { colSpan: 2 }), cell("TD", [8])])
        ])
      ])]
      const { blocks } = read(page(1, tree, [
        [run("Name", 60, 100), 0],
        [run("Kind", 200, 100), 1],
        [run("Count", 340, 100), 2],
        [run("Apples", 60, 120), 3],
        [run("Red", 200, 120), 4],
        [run("Green", 200, 140), 5],
        [run("5", 340, 140), 6],
        [run("Together", 60, 160), 7],
        [run("8", 340, 160), 8]
      ]))
      assert.deepStrictEqual(blocks, [{
        _tag: "Table",
        rows: [["Name", "Kind", "Count"], ["Apples", "Red", ""], ["", "Green", "5"], ["Together", "", "8"]]
      }])
    }))

  it.effect("notes: in the paragraph (LaTeX) or apart (a word processor), the reference marked where its label is", () =>
    Effect.sync(() => {
      const inline = [node("Document", [node("P", [
        0,
        node("Lbl", [1]),
        node("Note", [node("P", [node("Lbl", [3]), 4])]),
        2
      ])])]
      const apart = [node("Document", [
        node("P", [0, node("Link", [1, elsewhere]), 2]),
        node("Div", [node("Note", [node("P", [3, 4])])])
      ])]
      for (const tree of [inline, apart]) {
        const { blocks } = read(page(1, tree, [
          [run("A sentence with a note", 60, 100), 0],
          [run("1", 181, 96, 7), 1],
          [run(" that goes on.", 186, 100), 2],
          [run("1", 60, 700, 7), 3],
          [run("The note's text.", 66, 704, 9), 4]
        ]))
        assert.deepStrictEqual(blocks, [
          {
            _tag: "Paragraph",
            text: "A sentence with a note1 that goes on.",
            marks: [{ start: 22, end: 23, style: 8 }]
          },
          { _tag: "Footnote", label: "1", text: "The note's text." }
        ])
      }
    }))

  it.effect("an element cut by a page end is one block again: a paragraph, and a list's item", () =>
    Effect.sync(() => {
      const first = page(1, [node("Document", [
        node("P", [0, elsewhere]),
        node("L", [node("LI", [node("LBody", [1, elsewhere])]), elsewhere])
      ])], [[run("The paragraph goes on over the", 60, 700), 0], [run("- an item that goes", 60, 730), 1]])
      const second = page(2, [node("Document", [
        node("P", [elsewhere, 0]),
        node("L", [elsewhere, node("LI", [node("LBody", [elsewhere, 1])]), node("LI", [node("LBody", [2])])])
      ])], [
        [run("page end, and stops.", 60, 100), 0],
        [run("on, over the page end", 80, 130), 1],
        [run("- then another item", 60, 144), 2]
      ])
      const { blocks } = read(first, second)
      assert.deepStrictEqual(blocks, [
        { _tag: "Paragraph", text: "The paragraph goes on over the page end, and stops." },
        {
          _tag: "List",
          ordered: false,
          start: 0,
          items: [{ text: "an item that goes on, over the page end" }, { text: "then another item" }]
        }
      ])
    }))
})

describe("tagged reading: when the tree is not used", () => {
  /** Lines of the same length. */
  const lines = (count: number, mcid: (i: number) => number) =>
    Array.from(
      { length: count },
      (_, i) => [run(`Line ${String(i).padStart(2, "0")} of the page.`, 60, 100 + 14 * i), mcid(i)] as const
    )

  it.effect("coverage: less than 95% of the page's text (artifacts aside) in content the tree reaches", () =>
    Effect.sync(() => {
      // Lines of 16 visible characters: 39 of 40 reached is 97.5%, the folio aside; 37 of 40, 92.5%.
      const tree = [node("Document", [node("P", Array.from({ length: 39 }, (_, i) => i))])]
      const covered = page(1, tree, [...lines(40, (i) => i < 39 ? i : unmarked), [run("Folio", 60, 780), artifact]])
      assert.strictEqual(covered.verdict.unsound, undefined)
      assert.deepStrictEqual(
        { reached: covered.verdict.measures.reached, visible: covered.verdict.measures.visible },
        { reached: 39 * 16, visible: 40 * 16 + 5 }
      )
      const partial = page(1, tree, lines(40, (i) => i < 37 ? i : unmarked))
      assert.strictEqual(partial.verdict.unsound, "coverage")
      assert.notProperty(partial.arranged, "_tag")
    }))

  it.effect("order: a block whose lines go back up within their column; roles: custom roles nobody mapped", () =>
    Effect.sync(() => {
      const upward = page(1, [node("Document", [node("P", [0, 1, 2])])], [
        [run("Line one", 60, 300), 0],
        [run("Line two", 60, 200), 1],
        [run("Line three", 60, 100), 2]
      ])
      assert.strictEqual(upward.verdict.unsound, "order")
      // A paragraph going on at the top of the next column is not a jump back.
      const columns = page(1, [node("Document", [node("P", [0, 1])])], [
        [run("Bottom of the left column", 60, 700), 0],
        [run("top of the right one", 320, 100), 1]
      ])
      assert.strictEqual(columns.verdict.unsound, undefined)
      const custom = page(1, [node("Document", [node("Para", [0]), node("Para", [1])])], [
        [run("One", 60, 100), 0],
        [run("Two", 60, 120), 1]
      ])
      assert.strictEqual(custom.verdict.unsound, "roles")
    }))

  it.effect("table: a tree without a table whose paragraphs the layout finds set as one (an office suite's slides)", () =>
    Effect.sync(() => {
      // Each cell of a four-row, three-column grid tagged as a paragraph of its own, row by row.
      const cells = [["Method", "Ratio", "Speed"], ["LZMA2", "High", "Slow"], ["Deflate", "Medium", "Fast"], [
        "Copy",
        "None",
        "Fastest"
      ]]
      const runs = cells.flatMap((row, r) =>
        row.map((cell, c) => [run(cell, 60 + 160 * c, 100 + 20 * r), 3 * r + c] as const)
      )
      const paragraphs = runs.map(([, mcid]) => node("P", [mcid]))
      const flattened = page(1, [node("Document", paragraphs)], runs)
      assert.strictEqual(flattened.verdict.unsound, "table")
      const rows = read(flattened).blocks.flatMap((block) => block._tag === "Table" ? block.rows : [])
      assert.deepStrictEqual(rows, cells)
      // The same grid tagged as a table is read from the tree.
      const table = node(
        "Table",
        cells.map((row, r) => node("TR", row.map((_, c) => node(r === 0 ? "TH" : "TD", [node("P", [3 * r + c])]))))
      )
      const tagged = page(1, [node("Document", [table])], runs)
      assert.strictEqual(tagged.verdict.unsound, undefined)
      assert.deepStrictEqual(read(tagged).blocks.flatMap((block) => block._tag === "Table" ? block.rows : []), cells)
      // Each row one paragraph (a word processor's tab stops): the tree says these are not cells.
      const rowRuns = runs.map(([item, mcid]) => [item, Math.floor(mcid / 3)] as const)
      const byRow = page(1, [node("Document", cells.map((_, r) => node("P", [r])))], rowRuns)
      assert.strictEqual(byRow.verdict.unsound, undefined)
      assert.deepStrictEqual(texts(read(byRow).blocks), cells.map((row) => row.join(" ")))
      // A table the tree gives with no text in it (a cover's grid of images) is no table.
      const empty = node("Table", [node("TR", [node("TD", [node("P", [90])]), node("TD", [node("P", [91])])])])
      const layoutOnly = page(1, [node("Document", [empty, node("P", [0])])], [[run("Words", 60, 100), 0]])
      assert.deepStrictEqual(texts(read(layoutOnly).blocks), ["Words"])
    }))
})
