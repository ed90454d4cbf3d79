/**
 * What reading a tagged document's structure tree costs: each tagged PDF of the corpus (its
 * `tagged/` files, the fidelity suite's dev documents and the structure bench's documents that
 * are tagged) converted to Markdown in process with its tree and without it, alternated after a
 * warm-up, medians of 5, beside `pdftotext -layout` on the same file; and how many of its pages
 * had a tree, and had it used.
 *
 * `tsx bench/tagged.ts [files...]`
 */
import * as Effect from "effect/Effect"
import { execFileSync, spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import * as Engine from "../src/internal/engine.js"
import { engineOptions } from "../test/support/engineOptions.js"
import { formatTable, geomean, median } from "./fidelityReport.js"

const corpus = fileURLToPath(new URL("../../../corpus/", import.meta.url))
const repeats = 5

const isTagged = (file: string): boolean =>
  /^Tagged:\s+yes/m.test(execFileSync("pdfinfo", [file], { encoding: "utf8" }))

const pdfs = (folder: string): Array<string> =>
  readdirSync(Path.join(corpus, folder)).filter((name) => name.endsWith(".pdf")).sort().map((name) =>
    Path.join(corpus, folder, name)
  )

const files = process.argv.length > 2
  ? process.argv.slice(2)
  : [...pdfs("tagged"), ...pdfs("fidelity/dev"), ...pdfs("structure")].filter(isTagged)

const options = (readStructure: boolean): Engine.EngineOptions => engineOptions({ readStructure })

const markdownMs = (pdf: Uint8Array, readStructure: boolean) =>
  Effect.gen(function*() {
    const start = performance.now()
    yield* Engine.convert(pdf, "markdown", options(readStructure))
    return performance.now() - start
  })

const layoutMs = (file: string): number => {
  const start = performance.now()
  spawnSync("pdftotext", ["-layout", "-q", file, "/dev/null"])
  return performance.now() - start
}

const main = Effect.gen(function*() {
  const rows: Array<{ name: string; pages: number; used: string; tree: number; plain: number; layout: number }> = []
  for (const file of files) {
    const pdf = new Uint8Array(readFileSync(file))
    const read = yield* Engine.readDocument(pdf, options(true), "markdown")
    yield* markdownMs(pdf, false)
    const tree: Array<number> = []
    const plain: Array<number> = []
    const layout: Array<number> = []
    for (let i = 0; i < repeats; i++) {
      tree.push(yield* markdownMs(pdf, true))
      plain.push(yield* markdownMs(pdf, false))
      layout.push(layoutMs(file))
    }
    const pages = read.structure.pages
    rows.push({
      name: Path.relative(corpus, file),
      pages: read.document.pages,
      used: `${pages.filter((page) => page.unsound === undefined).length}/${pages.length}`,
      tree: median(tree),
      plain: median(plain),
      layout: median(layout)
    })
  }
  console.log(
    `Markdown in process, medians of ${repeats} alternated runs (machine shared: compare ratios of one run only):`
  )
  formatTable(
    [
      "document",
      "pages",
      "tree used (pages)",
      "with tree ms",
      "without ms",
      "tree cost",
      "pdftotext -layout ms",
      "speed"
    ],
    rows.map((row) => [
      row.name,
      String(row.pages),
      row.used,
      row.tree.toFixed(0),
      row.plain.toFixed(0),
      `${(row.tree / row.plain).toFixed(2)}x`,
      row.layout.toFixed(0),
      `${(row.layout / row.tree).toFixed(2)}x`
    ])
  )
  console.log(
    `  with the tree against without: geometric mean ${geomean(rows.map((row) => row.tree / row.plain)).toFixed(2)}x`
  )
  console.log(
    `  against pdftotext -layout: geometric mean ${
      geomean(rows.map((row) => row.layout / row.tree)).toFixed(2)
    }x with the tree, ${geomean(rows.map((row) => row.layout / row.plain)).toFixed(2)}x without; lowest ${
      Math.min(...rows.map((row) => row.layout / row.tree)).toFixed(2)
    }x`
  )
})

Effect.runPromise(main).catch((error) => {
  console.error(error)
  process.exit(1)
})
