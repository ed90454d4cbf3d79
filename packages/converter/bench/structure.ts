/**
 * The structure benchmark: each document of `corpus/structure/` (PDFs whose source we have) is
 * converted to Markdown and compared with its ground truth, the Markdown a reader should get.
 * Prints per document (with the toolchain that made its PDF), then totals for the documents tuned
 * on ("dev"), for the held-out ones and for all: code-line and inline-code recall and precision,
 * emphasis and list-item recall, heading recall, depth agreement and numbers kept, table rows
 * against the reference (how many, and how many are the reference's rows, either way), and word recall; then the held-out totals against issue 28's targets.
 *
 * `tsx bench/structure.ts [--out DIR] [--set dev|heldout] [--no-structure] [names...]`; `--out` keeps our
 * Markdown; `--no-structure` reads tagged documents by their layout alone, as if they had no
 * structure tree.
 */
import * as Effect from "effect/Effect"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import * as Engine from "../src/internal/engine.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "../test/support/engineOptions.js"
import type { Comparison, Score } from "./structureMetrics.js"
import { compare, footnotesAsLabels, structure } from "./structureMetrics.js"
import type { StructureDocument } from "./structureSet.js"
import { structureDocuments } from "./structureSet.js"
import { takeFlag, takeSwitch } from "./support.js"

const corpus = fileURLToPath(new URL("../../../corpus/structure/", import.meta.url))

const args = process.argv.slice(2)
const flag = (name: string) => takeFlag(args, name)
const outDir = flag("--out")
const onlySet = flag("--set")
const readStructure = !takeSwitch(args, "--no-structure")
const documents = structureDocuments.filter((doc) =>
  (onlySet === undefined || doc.set === onlySet) && (args.length === 0 || args.includes(doc.name))
)

const options = engineOptions({ readStructure })

interface Row {
  readonly doc: StructureDocument
  readonly pages: number
  readonly comparison: Comparison
}

const measure = (doc: StructureDocument) =>
  Effect.gen(function*() {
    const pdf = readFileSync(Path.join(corpus, `${doc.name}.pdf`))
    const read = yield* Engine.readDocument(pdf, options, "markdown")
    const markdown = Markdown.render(read.document)
    if (outDir !== undefined) {
      mkdirSync(outDir, { recursive: true })
      writeFileSync(Path.join(outDir, `${doc.name}.md`), markdown)
    }
    const reference = structure(readFileSync(Path.join(corpus, `${doc.name}.md`), "utf8"))
    return {
      doc,
      pages: read.document.pages,
      comparison: compare(reference, structure(footnotesAsLabels(markdown)))
    } satisfies Row
  })

const add = (a: Score, b: Score): Score => ({ hits: a.hits + b.hits, total: a.total + b.total })

const sum = (rows: ReadonlyArray<Row>): Comparison => {
  const zero: Score = { hits: 0, total: 0 }
  return rows.map((row) => row.comparison).reduce((a, b) => ({
    codeLines: add(a.codeLines, b.codeLines),
    codeLinePrecision: add(a.codeLinePrecision, b.codeLinePrecision),
    inlineCode: add(a.inlineCode, b.inlineCode),
    inlineCodePrecision: add(a.inlineCodePrecision, b.inlineCodePrecision),
    emphasis: add(a.emphasis, b.emphasis),
    listItems: add(a.listItems, b.listItems),
    listDepth: add(a.listDepth, b.listDepth),
    headings: add(a.headings, b.headings),
    headingPrecision: add(a.headingPrecision, b.headingPrecision),
    headingDepth: add(a.headingDepth, b.headingDepth),
    numbered: add(a.numbered, b.numbered),
    tableRows: {
      ours: a.tableRows.ours + b.tableRows.ours,
      reference: a.tableRows.reference + b.tableRows.reference
    },
    tableRowsFound: add(a.tableRowsFound, b.tableRowsFound),
    tableRowPrecision: add(a.tableRowPrecision, b.tableRowPrecision),
    words: add(a.words, b.words)
  }), {
    codeLines: zero,
    codeLinePrecision: zero,
    inlineCode: zero,
    inlineCodePrecision: zero,
    emphasis: zero,
    listItems: zero,
    listDepth: zero,
    headings: zero,
    headingPrecision: zero,
    headingDepth: zero,
    numbered: zero,
    tableRows: { ours: 0, reference: 0 },
    tableRowsFound: zero,
    tableRowPrecision: zero,
    words: zero
  })
}

const percent = (score: Score): string =>
  score.total === 0 ? "-" : `${(score.hits / score.total * 100).toFixed(1)}% of ${score.total}`

const header = [
  "document",
  "set",
  "made by",
  "pages",
  "code lines",
  "code precision",
  "inline code",
  "inline precision",
  "emphasis",
  "list items",
  "list depth",
  "headings",
  "heading precision",
  "heading depth",
  "numbers kept",
  "table rows (ours/ref)",
  "table rows found",
  "table row precision",
  "word recall"
]

const cells = (name: string, set: string, producer: string, pages: string, c: Comparison): Array<string> => [
  name,
  set,
  producer,
  pages,
  percent(c.codeLines),
  percent(c.codeLinePrecision),
  percent(c.inlineCode),
  percent(c.inlineCodePrecision),
  percent(c.emphasis),
  percent(c.listItems),
  percent(c.listDepth),
  percent(c.headings),
  percent(c.headingPrecision),
  percent(c.headingDepth),
  percent(c.numbered),
  `${c.tableRows.ours}/${c.tableRows.reference}`,
  percent(c.tableRowsFound),
  percent(c.tableRowPrecision),
  c.words.total === 0 ? "-" : `${(c.words.hits / c.words.total * 100).toFixed(2)}%`
]

const main = Effect.gen(function*() {
  const rows: Array<Row> = []
  for (const doc of documents) rows.push(yield* measure(doc))
  const table = rows.map((row) => cells(row.doc.name, row.doc.set, row.doc.producer, String(row.pages), row.comparison))
  const totals = (set: string, picked: ReadonlyArray<Row>) =>
    picked.length === 0 ? [] : [
      cells(
        `total (${set})`,
        set,
        `${new Set(picked.map((row) => row.doc.producer)).size} toolchains`,
        String(picked.reduce((n, row) => n + row.pages, 0)),
        sum(picked)
      )
    ]
  table.push(
    ...totals("dev", rows.filter((row) => row.doc.set === "dev")),
    ...totals("heldout", rows.filter((row) => row.doc.set === "heldout")),
    ...totals("all", rows)
  )
  const widths = header.map((title, i) => Math.max(title.length, ...table.map((r) => r[i]!.length)))
  const format = (line: ReadonlyArray<string>) => `| ${line.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`
  console.log(format(header))
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`)
  for (const line of table) console.log(format(line))
  const heldout = rows.filter((row) => row.doc.set === "heldout")
  if (heldout.length > 0) {
    const total = sum(heldout)
    const share = (score: Score) => score.total === 0 ? Number.NaN : score.hits / score.total
    const line = (what: string, value: number, target: number) =>
      `  ${what}: ${(value * 100).toFixed(1)}% (target ${target * 100}%): ${value >= target ? "met" : "NOT met"}`
    console.log("\nheld-out totals against issue 28's targets:")
    console.log(line("list items found", share(total.listItems), 0.85))
    console.log(line("code lines found", share(total.codeLines), 0.9))
    console.log(line("code lines marked that are code", share(total.codeLinePrecision), 0.8))
    console.log(line("inline code found", share(total.inlineCode), 0.8))
    console.log(line("headings found", share(total.headings), 0.95))
  }
})

Effect.runPromise(main).catch((error) => {
  console.error(error)
  process.exit(1)
})
