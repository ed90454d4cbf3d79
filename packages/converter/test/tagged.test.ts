import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as Fflate from "fflate"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { promisify } from "node:util"
import { groupOf } from "../bench/fidelityChecks.js"
import { documents, loadChecks, pdfPath } from "../bench/fidelityCorpus.js"
import { judge } from "../bench/fidelityScore.js"
import { readMarkdown } from "../bench/fidelityText.js"
import { Markdown } from "../src/index.js"
import * as Engine from "../src/internal/engine.js"
import * as Pdf from "../src/internal/pdf.js"
import * as StructTree from "../src/internal/structTree.js"
import type { TagNode } from "../src/internal/tagged/model.js"
import { artifact } from "../src/internal/tagged/model.js"
import { epubcheckJar, readCorpus } from "./support/corpus.js"

const execFileAsync = promisify(execFile)

const options: Engine.EngineOptions = {
  ignorePdfErrors: false,
  ignoreOcrErrors: false,
  filename: undefined,
  password: undefined,
  ocrLanguages: [],
  ocrDataPath: undefined,
  onProgress: () => Effect.void
}

/** A corpus file read, its Markdown, and the verdict on each of its pages. */
const read = (name: string, structure = true) =>
  Effect.map(
    Engine.readDocument(readCorpus(`tagged/${name}`), { ...options, readStructure: structure }, "markdown"),
    (read) => ({ ...read, markdown: Markdown.render(read.document) })
  )

/** Every element of a tree, depth first. */
const elements = (nodes: ReadonlyArray<TagNode>): Array<TagNode> =>
  nodes.flatMap((node) => [node, ...elements(node.kids.filter((kid): kid is TagNode => typeof kid !== "number"))])

/** Where `text` is in `markdown` (asserting that it is there). */
const at = (markdown: string, text: string): number => {
  const index = markdown.indexOf(text)
  assert.isAtLeast(index, 0, `${JSON.stringify(text)} in the Markdown`)
  return index
}

describe("tagged PDFs: the structure tree through PDFium", () => {
  it.effect("a page's tree: roles, MCIDs, spans, list numbering, alternative text; runs marked as content or artifact", () =>
    Effect.scoped(Effect.gen(function*() {
      const open = yield* Pdf.open(readCorpus("tagged/chromium-structure.pdf"), undefined)
      assert.isTrue(open.tagged)
      const pages = [yield* Pdf.readPage(open, 1, { figures: false }), yield* Pdf.readPage(open, 2, { figures: false })]
      const tagged = pages[0]!.tagged!
      const all = elements(pages.flatMap((page) => page.tagged!.tree))
      const roles = new Set(all.map((node) => node.role))
      for (const role of ["Document", "H1", "H2", "H3", "P", "L", "LI", "Lbl", "Table", "TR", "TH", "TD", "Figure"]) {
        assert.isTrue(roles.has(role), `${role} in the tree`)
      }
      const cells = all.filter((node) => node.role === "TD")
      assert.deepStrictEqual(cells.map((cell) => [cell.rowSpan, cell.colSpan]).filter(([r, c]) => r > 1 || c > 1), [
        [2, 1],
        [1, 2]
      ])
      assert.deepStrictEqual(all.filter((node) => node.role === "L").map((list) => list.numbering), [
        "Disc",
        "Circle",
        "Decimal"
      ])
      assert.deepStrictEqual(all.filter((node) => node.alt !== "").map((node) => [node.role, node.alt]), [[
        "Figure",
        "A grey square standing for a chart"
      ]])
      // Each run is content of an MCID the tree holds, or an artifact (the browser's header and footer).
      const mcids = new Set(
        elements(tagged.tree).flatMap((node) => node.kids.filter((kid): kid is number => typeof kid === "number"))
      )
      const runs = tagged.items.map((item, i) => ({ text: item.text, mcid: tagged.mcids[i]! }))
      assert.isTrue(runs.filter((run) => run.mcid >= 0).every((run) => mcids.has(run.mcid)))
      // Runs are cut where the printer kerns ("T", "agged"): compared without spaces.
      const artifacts = runs.filter((run) => run.mcid === artifact).map((run) => run.text).join("").replace(/\s/g, "")
      assert.include(artifacts, "TaggedStructureSample")
      assert.include(artifacts, "1/2")
      assert.notInclude(artifacts, "FieldNotes")
      // A document without a tree is not tagged, and its pages carry none.
      const plain = yield* Pdf.open(readCorpus("text/pdkids.pdf"), undefined)
      assert.isFalse(plain.tagged)
      assert.isUndefined((yield* Pdf.readPage(plain, 1, { figures: false })).tagged)
      assert.isFalse(StructTree.isTagged(plain.module, plain.document))
    })))
})

describe("tagged PDFs: the reading the tree gives", () => {
  it.effect(
    "a browser print: headings with levels, nested and numbered lists, a table with spans, code, the tree's order, no header or footer",
    () =>
      Effect.gen(function*() {
        const { markdown, structure } = yield* read("chromium-structure.pdf")
        assert.deepStrictEqual(structure.pages.map((page) => page.unsound), [undefined, undefined])
        assert.include(markdown, "# Field Notes on Tagged Documents\n")
        assert.include(markdown, "\n## Lists in the Tree\n")
        assert.include(markdown, "\n### A Deeper Heading\n")
        assert.include(markdown, "call `parse()` once, it is *fast* and **safe**.")
        assert.include(
          markdown,
          "- First point of the list\n- Second point with more below it\n  - Nested point under the second\n\n3. Third step, numbered\n4. Fourth step, numbered"
        )
        assert.include(
          markdown,
          "| **Fruit** | **Colour** | **Count** |\n| --- | --- | --- |\n| Apples | Red | 3 |\n|  | Green | 5 |\n| All fruit together |  | 8 |"
        )
        assert.include(markdown, "```\ntagged --read tree\n  --fallback layout\n```")
        // The paragraph cut by the page end is one paragraph, with nothing of the page's furniture in it.
        assert.include(
          markdown,
          "the fonts of the machine that prints it. A third sentence ends the paragraph on the second page"
        )
        for (const furniture of ["Tagged Structure Sample", "file://", "1/2", "2/2"]) {
          assert.notInclude(markdown, furniture)
        }
        // Flex's row-reverse sets the first box on the right: the tree's order, not the page's.
        assert.isBelow(at(markdown, "First in the tree"), at(markdown, "Second in the tree"))
        const layout = yield* read("chromium-structure.pdf", false)
        assert.isAbove(at(layout.markdown, "First in the tree"), at(layout.markdown, "Second in the tree"))
      }),
    60_000
  )

  it.effect(
    "a two-column LaTeX paper read column by column, its footnote a footnote, its folio gone",
    () =>
      Effect.gen(function*() {
        const { markdown, structure } = yield* read("latex-two-column.pdf")
        assert.strictEqual(structure.pages[0]!.unsound, undefined)
        const paragraphs = markdown.trim().split("\n\n")
        const numbered = paragraphs.filter((paragraph) => paragraph.startsWith("Paragraph "))
        assert.deepStrictEqual(
          numbered,
          Array.from({ length: 14 }, (_, i) =>
            `Paragraph ${
              i + 1
            } of the paper has enough words to wrap onto several lines of the narrow column, so that the column fills up and the text goes on at the top of the right column.`)
        )
        assert.include(
          paragraphs[0]!,
          "across the gutter between them.[^1] The tree gives the order of the paragraphs."
        )
        assert.strictEqual(paragraphs[1], "[^1]: A note at the foot of the left column.")
        assert.strictEqual(
          paragraphs[paragraphs.length - 1],
          "The last paragraph closes the right column of the paper."
        )
        assert.notInclude(markdown, "\n1\n")
        // Read by its layout alone, its columns an em apart are cut at their justified edges too.
        const layout = yield* read("latex-two-column.pdf", false)
        assert.deepStrictEqual(
          layout.markdown.trim().split("\n\n").filter((paragraph) =>
            paragraph.startsWith("Paragraph ")
          ),
          numbered
        )
      }),
    60_000
  )

  it.effect(
    "a word processor's export: footnotes at their references, header and footer gone, spans, a paragraph across pages",
    () =>
      Effect.gen(function*() {
        const { markdown, removedLines } = yield* read("libreoffice-report.pdf")
        assert.include(markdown, "# Counting Birds by the River\n")
        assert.include(markdown, "The first count took place in spring[^1] and the second one in the autumn after it.")
        assert.include(markdown, "[^1]: Counts were made at dawn, from the same three posts.")
        assert.include(markdown, "A closing note refers to the winter[^2] and stops there.")
        assert.include(markdown, "[^2]: The winter count is kept in another ledger.")
        assert.include(markdown, "- Herons along the bank\n- Ducks of two kinds\n  - Mallards in the reeds")
        assert.include(
          markdown,
          "| Bird | Season | Count |\n| --- | --- | --- |\n| Heron | Spring | 12 |\n|  | Autumn | 7 |\n| Both seasons |  | 19 |"
        )
        assert.include(markdown, "until the books were closed. The ledger of the last station ends the season.")
        assert.strictEqual(markdown.split("The survey went on").length - 1, 9)
        for (const furniture of ["Quarterly Field Report", "Page 1", "Page 2"]) {
          assert.notInclude(markdown, furniture)
          assert.include(removedLines, furniture)
        }
      }),
    60_000
  )

  it.effect(
    "a tree that reaches only part of the text: the layout reads the page, and says why",
    () =>
      Effect.gen(function*() {
        const { markdown, structure } = yield* read("chromium-partial-tree.pdf")
        assert.isTrue(structure.tagged)
        assert.deepStrictEqual(structure.pages.map((page) => page.unsound), ["coverage", "no tree"])
        assert.isBelow(structure.pages[0]!.measures.reached, 0.2 * structure.pages[0]!.measures.visible)
        const layout = yield* read("chromium-partial-tree.pdf", false)
        assert.strictEqual(markdown, layout.markdown)
      }),
    60_000
  )

  it.effect(
    "EPUB: the figure keeps its alternative text, the table is a table, footnotes are asides; epubcheck finds nothing",
    () =>
      Effect.gen(function*() {
        const books = yield* Effect.forEach(
          ["chromium-structure.pdf", "libreoffice-report.pdf"],
          (name) =>
            Effect.map(
              Engine.convert(readCorpus(`tagged/${name}`), "epub", options),
              (result) => result.output as Uint8Array
            )
        )
        const xhtml = books.map((book) => {
          const files = Fflate.unzipSync(book)
          return Object.keys(files).filter((name) => name.endsWith(".xhtml")).map((name) =>
            new TextDecoder().decode(files[name])
          ).join("\n")
        })
        assert.match(xhtml[0]!, /<img src="images\/figure-0001\.png" alt="A grey square standing for a chart"/)
        assert.include(xhtml[0]!, "<tr><td>Apples</td><td>Red</td><td>3</td></tr>")
        assert.include(xhtml[1]!, "spring<sup><a epub:type=\"noteref\" href=\"#fn-1\">1</a></sup> and")
        assert.include(xhtml[1]!, "<aside epub:type=\"footnote\" id=\"fn-1\"><p>1 Counts were made at dawn")
        assert.isTrue(existsSync(epubcheckJar), `epubcheck is required at ${epubcheckJar} (apt-get install epubcheck)`)
        const dir = mkdtempSync(Path.join(Os.tmpdir(), "tagged-epub-"))
        const files = books.map((book, i) => {
          const file = Path.join(dir, `book-${i}.epub`)
          writeFileSync(file, book)
          return file
        })
        const outputs = yield* Effect.forEach(
          files,
          (file) => Effect.promise(() => execFileAsync("java", ["-jar", epubcheckJar, file]))
        ).pipe(Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true }))))
        for (const output of outputs) assert.include(output.stdout, "No errors or warnings detected")
      }),
    240_000
  )

  it.effect(
    "the fidelity suite's small tagged dev documents: every page's tree used; text, furniture, order, lists and notes as a reader agrees",
    () =>
      Effect.gen(function*() {
        const headings = { tree: 0, layout: 0 }
        for (const id of ["akatab-documentation", "canzeley-quickguide-tagged"]) {
          const doc = documents().find((doc) => doc.id === id)!
          const checks = Either.getOrThrow(loadChecks(doc))
          const held = (markdown: string) => {
            const read = readMarkdown(markdown)
            return checks.filter((check) => judge(check, read))
          }
          const pdf = readFileSync(pdfPath(doc))
          const tree = yield* Engine.readDocument(pdf, options, "markdown")
          const layout = yield* Engine.readDocument(pdf, { ...options, readStructure: false }, "markdown")
          assert.isTrue(tree.structure.tagged, id)
          assert.deepStrictEqual(
            tree.structure.pages.map((page) => page.unsound).filter((why) => why !== undefined),
            []
          )
          const withTree = held(Markdown.render(tree.document))
          const withLayout = held(Markdown.render(layout.document))
          for (const check of checks) {
            if (["present", "absent", "order", "lists", "footnotes"].includes(groupOf(check.kind))) {
              assert.include(withTree, check, `${id}.checks:${check.line}`)
            }
          }
          assert.isAtLeast(withTree.length, withLayout.length, id)
          headings.tree += withTree.filter((check) => groupOf(check.kind) === "headings").length
          headings.layout += withLayout.filter((check) => groupOf(check.kind) === "headings").length
        }
        // The tree's headings and levels hold where the layout's guesses from sizes do not.
        assert.isAbove(headings.tree, headings.layout)
      }),
    120_000
  )
})
