/**
 * The fidelity bench: each document of `corpus/fidelity/` converted in process to Markdown, its
 * `.checks` judged on that Markdown and, for the kinds plain text can be judged on (present,
 * absent, order), on `pdftotext`'s text as a reference. Prints per document and per kind, totals
 * for dev, held-out and all, the held-out totals against issue 37's targets, and speed: Markdown
 * time against `pdftotext -layout` on the same file, EPUB time against Markdown.
 *
 * `tsx bench/fidelity.ts [--set dev|heldout] [--out DIR] [--failures] [--no-speed] [--no-structure] [ids...]`
 * `--out` keeps our Markdown; `--failures` prints each failed assertion of a dev document with
 * the text nearest to it (never a held-out one's, so no one tunes on them); `--no-structure`
 * reads tagged documents by their layout alone, as if they had no structure tree. For tagged
 * documents it prints what was judged of their trees (per document for dev, totals for held-out).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as Path from "node:path"
import * as Engine from "../src/internal/engine.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "../test/support/engineOptions.js"
import type { Check, Group } from "./fidelityChecks.js"
import { groups, textGroups } from "./fidelityChecks.js"
import type { FidelityDocument } from "./fidelityCorpus.js"
import { documents, loadChecks, pdfPath } from "./fidelityCorpus.js"
import { formatTable, geomean, median, percent, tally } from "./fidelityReport.js"
import type { Tallies } from "./fidelityScore.js"
import { addTallies, emptyTallies, explain, score } from "./fidelityScore.js"
import { readMarkdown, readPlain } from "./fidelityText.js"
import { takeFlag, takeSwitch } from "./support.js"

const args = process.argv.slice(2)
const flag = (name: string) => takeFlag(args, name)
const toggle = (name: string) => takeSwitch(args, name)
const outDir = flag("--out")
const onlySet = flag("--set")
const showFailures = toggle("--failures")
const speed = !toggle("--no-speed")
const readStructure = !toggle("--no-structure")
/** Each document is timed at least `repeats` times, and a short one until its Markdown took `minTotalMs` (at most `maxRepeats`). */
const repeats = 3
const maxRepeats = 15
const minTotalMs = 500

const options = engineOptions({ readStructure })

interface Row {
  readonly doc: FidelityDocument
  readonly checks: number
  readonly ours: Tallies
  readonly pdftotext: Tallies
  readonly failures: ReadonlyArray<string>
  readonly markdownMs: number
  readonly layoutMs: number
  readonly epubMs: number
  readonly structure: Engine.ReadDocument["structure"]
  /** Pages read by OCR (no text layer, an image over half the page): pdftotext reads nothing there. */
  readonly ocrPages: number
}

const pdftotextText = (file: string): string =>
  execFileSync("pdftotext", ["-enc", "UTF-8", "-q", file, "-"], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })

/** `pdftotext -layout` as a user runs it, process start included. */
const layoutTime = (file: string): number => {
  const start = performance.now()
  const result = spawnSync("pdftotext", ["-layout", "-q", file, "/dev/null"])
  if (result.status !== 0) throw new Error(`pdftotext -layout failed on ${file}`)
  return performance.now() - start
}

const timed = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const start = performance.now()
    yield* effect
    return performance.now() - start
  })

const measure = (doc: FidelityDocument, checks: ReadonlyArray<Check>) =>
  Effect.gen(function*() {
    const file = pdfPath(doc)
    const pdf = readFileSync(file)
    const result = yield* Engine.readDocument(pdf, options, "markdown")
    const markdown = Markdown.render(result.document)
    if (outDir !== undefined) {
      mkdirSync(outDir, { recursive: true })
      writeFileSync(Path.join(outDir, `${doc.id}.md`), markdown)
    }
    const read = readMarkdown(markdown)
    const ours = score(checks, read)
    const reference = score(checks, readPlain(pdftotextText(file)), true)
    const failures = showFailures && doc.set === "dev"
      ? ours.failed.map((check) =>
        `${doc.id}.checks:${check.line} ${check.kind}: ${
          "text" in check ? check.text : `${check.first} / ${check.second}`
        }\n    ${explain(check, read)}`
      )
      : []
    const times = { markdown: [] as Array<number>, layout: [] as Array<number>, epub: [] as Array<number> }
    if (speed) {
      yield* Engine.convert(pdf, "epub", options)
      // A 20 ms conversion's median of three moves by a third with the machine's load: short ones repeat more.
      for (let i = 0; i < maxRepeats && (i < repeats || times.markdown.reduce((a, b) => a + b, 0) < minTotalMs); i++) {
        times.markdown.push(yield* timed(Engine.convert(pdf, "markdown", options)))
        times.epub.push(yield* timed(Engine.convert(pdf, "epub", options)))
        times.layout.push(layoutTime(file))
      }
    }
    return {
      doc,
      checks: checks.length,
      ours: ours.tallies,
      pdftotext: reference.tallies,
      failures,
      markdownMs: median(times.markdown),
      layoutMs: median(times.layout),
      epubMs: median(times.epub),
      structure: result.structure,
      ocrPages: result.ocrPages.length
    } satisfies Row
  })

const sumOf = (rows: ReadonlyArray<Row>, pick: (row: Row) => Tallies): Tallies =>
  rows.map(pick).reduce(addTallies, emptyTallies)

const textTotal = (tallies: Tallies) =>
  textGroups.reduce((t, g) => ({ held: t.held + tallies[g].held, total: t.total + tallies[g].total }), {
    held: 0,
    total: 0
  })

const fidelityHeader = [
  "document",
  "set",
  "producer",
  "pages",
  ...groups,
  "all kinds",
  "pdftotext present",
  "pdftotext absent",
  "pdftotext order"
]

const fidelityCells = (name: string, set: string, producer: string, pages: string, ours: Tallies, ref: Tallies) => {
  const all = groups.reduce((t, g) => ({ held: t.held + ours[g].held, total: t.total + ours[g].total }), {
    held: 0,
    total: 0
  })
  return [
    name,
    set,
    producer,
    pages,
    ...groups.map((g) => tally(ours[g])),
    tally(all),
    ...textGroups.map((g) => tally(ref[g]))
  ]
}

const targets: ReadonlyArray<readonly [Group, number]> = [
  ["present", 0.97],
  ["absent", 0.95],
  ["order", 0.95],
  ["headings", 0.9],
  ["tables", 0.8],
  ["footnotes", 0.85],
  ["lists", 0.95],
  ["code", 0.95]
]

const printCounts = (docs: ReadonlyArray<FidelityDocument>, checks: ReadonlyMap<string, ReadonlyArray<Check>>) => {
  for (const set of ["dev", "heldout", "all"]) {
    const picked = docs.filter((doc) => set === "all" || doc.set === set)
    const assertions = picked.reduce((n, doc) => n + (checks.get(doc.id)?.length ?? 0), 0)
    const producers = new Set(picked.map((doc) => doc.producer)).size
    const tagged = picked.filter((doc) => doc.tagged).length
    console.log(
      `${set}: ${picked.length} documents (${tagged} tagged), ${producers} producer classes, ${assertions} assertions, ${
        picked.reduce((n, doc) => n + doc.pages, 0)
      } pages`
    )
  }
}

const printTargets = (heldout: ReadonlyArray<Row>) => {
  const ours = sumOf(heldout, (row) => row.ours)
  console.log("\nheld-out totals against issue 37's targets:")
  for (const [group, target] of targets) {
    const { held, total } = ours[group]
    const share = total === 0 ? Number.NaN : held / total
    console.log(
      `  ${group}: ${percent(ours[group])} (target ${target * 100}%): ${
        total === 0 ? "no assertions" : share >= target ? "met" : "NOT met"
      }`
    )
  }
  const a = textTotal(ours)
  const b = textTotal(sumOf(heldout, (row) => row.pdftotext))
  const points = (a.held / a.total - b.held / b.total) * 100
  console.log(
    `  present/absent/order together: ours ${percent(a)}, pdftotext ${percent(b)}: ${
      points.toFixed(1)
    } points (target +10): ${points >= 10 ? "met" : "NOT met"}`
  )
}

const printSpeed = (rows: ReadonlyArray<Row>) => {
  const table = rows.map((row) => [
    row.doc.id,
    row.doc.set,
    String(row.doc.pages),
    row.markdownMs.toFixed(0),
    row.layoutMs.toFixed(0),
    `${(row.layoutMs / row.markdownMs).toFixed(2)}x`,
    row.epubMs.toFixed(0),
    `${(row.epubMs / row.markdownMs).toFixed(2)}x`,
    String(row.ocrPages)
  ])
  console.log(
    `\nspeed, in process, medians of ${repeats} to ${maxRepeats} runs (a document repeated until its Markdown took ${minTotalMs} ms; ` +
      `machine shared: compare ratios of one run only):`
  )
  formatTable(
    ["document", "set", "pages", "Markdown ms", "pdftotext -layout ms", "speed", "EPUB ms", "EPUB/Markdown", "OCR'd"],
    table
  )
  const speeds = rows.map((row) => row.layoutMs / row.markdownMs)
  const below = rows.filter((row) => row.layoutMs / row.markdownMs < 0.25).map((row) =>
    row.ocrPages > 0 ? `${row.doc.id} (${row.ocrPages} pages OCR'd)` : row.doc.id
  )
  const epub = rows.map((row) => row.epubMs / row.markdownMs)
  const over = rows.filter((row) => row.epubMs / row.markdownMs > 1.3).map((row) => row.doc.id)
  console.log(
    `  speed geometric mean ${geomean(speeds).toFixed(2)}x (target >= 0.5x): ${
      geomean(speeds) >= 0.5 ? "met" : "NOT met"
    }`
  )
  console.log(`  below 0.25x (target none): ${below.length === 0 ? "none" : below.join(", ")}`)
  console.log(`  EPUB/Markdown geometric mean ${geomean(epub).toFixed(2)}x, highest ${Math.max(...epub).toFixed(2)}x`)
  console.log(`  EPUB above 1.3x Markdown (target none): ${over.length === 0 ? "none" : over.join(", ")}`)
}

/** Pages of tagged documents with a tree, those whose tree was sound and used, why the others were not. */
const structureCounts = (rows: ReadonlyArray<Row>) => {
  const pages = rows.flatMap((row) => row.structure.pages)
  const reasons = new Map<string, number>()
  for (const page of pages) {
    if (page.unsound !== undefined) reasons.set(page.unsound, (reasons.get(page.unsound) ?? 0) + 1)
  }
  const body = pages.reduce((n, page) => n + page.measures.visible - page.measures.artifacts, 0)
  const reached = pages.reduce((n, page) => n + page.measures.reached, 0)
  return {
    pages: String(pages.length),
    used: String(pages.filter((page) => page.unsound === undefined).length),
    coverage: body === 0 ? "-" : `${(100 * reached / body).toFixed(1)}%`,
    reasons: [...reasons].map(([reason, n]) => `${reason} ${n}`).join(", ") || "-"
  }
}

/** Tagged documents: whether their structure tree was found sound and used, page by page. */
const printStructure = (rows: ReadonlyArray<Row>) => {
  const tagged = rows.filter((row) => row.structure.tagged)
  if (tagged.length === 0) return
  console.log(
    `\ntagged documents: structure tree used per page when sound (text reached >= 95%, roles known >= 90%, blocks read back up <= 5%, no table the tree flattened into paragraphs, not OCR'd)${
      readStructure ? "" : "; not read in this run (--no-structure)"
    }:`
  )
  const line = (name: string, set: string, picked: ReadonlyArray<Row>) => {
    const counts = structureCounts(picked)
    return [
      name,
      set,
      String(picked.reduce((n, row) => n + row.doc.pages, 0)),
      counts.pages,
      counts.used,
      counts.coverage,
      counts.reasons
    ]
  }
  const table = tagged.filter((row) => row.doc.set === "dev").map((row) => line(row.doc.id, "dev", [row]))
  for (const set of ["dev", "heldout"]) {
    const picked = tagged.filter((row) => row.doc.set === set)
    if (picked.length > 0) table.push(line(`total (${set}, ${picked.length} documents)`, set, picked))
  }
  formatTable(["document", "set", "pages", "pages with a tree", "tree used", "text reached", "not used because"], table)
}

const main = Effect.gen(function*() {
  const all = documents()
  const docs = all.filter((doc) =>
    (onlySet === undefined || doc.set === onlySet) && (args.length === 0 || args.includes(doc.id))
  )
  const checks = new Map<string, ReadonlyArray<Check>>()
  for (const doc of all) {
    const parsed = loadChecks(doc)
    if (Either.isLeft(parsed)) return yield* Effect.fail(parsed.left)
    checks.set(doc.id, parsed.right)
  }
  printCounts(all, checks)
  const rows: Array<Row> = []
  for (const doc of docs) rows.push(yield* measure(doc, checks.get(doc.id)!))
  const table = rows.map((row) =>
    fidelityCells(row.doc.id, row.doc.set, row.doc.producer, String(row.doc.pages), row.ours, row.pdftotext)
  )
  for (const set of ["dev", "heldout", "all"]) {
    const picked = rows.filter((row) => set === "all" || row.doc.set === set)
    if (picked.length === 0) continue
    table.push(fidelityCells(
      `total (${set})`,
      set,
      `${new Set(picked.map((row) => row.doc.producer)).size} classes`,
      String(picked.reduce((n, row) => n + row.doc.pages, 0)),
      sumOf(picked, (row) => row.ours),
      sumOf(picked, (row) => row.pdftotext)
    ))
  }
  console.log()
  formatTable(fidelityHeader, table)
  for (const set of ["dev", "heldout", "all"]) {
    const picked = rows.filter((row) => set === "all" || row.doc.set === set)
    if (picked.length === 0) continue
    const ours = sumOf(picked, (row) => row.ours)
    const ref = sumOf(picked, (row) => row.pdftotext)
    console.log(`\n${set} by kind: ${groups.map((g) => `${g} ${percent(ours[g])}`).join(", ")}`)
    console.log(
      `  present/absent/order: ours ${percent(textTotal(ours))}, pdftotext ${percent(textTotal(ref))} (${
        textGroups.map((g) => `${g} ${percent(ref[g])}`).join(", ")
      })`
    )
  }
  const heldout = rows.filter((row) => row.doc.set === "heldout")
  if (heldout.length > 0) printTargets(heldout)
  printStructure(rows)
  if (speed && rows.length > 0) printSpeed(rows)
  const failures = rows.flatMap((row) => row.failures)
  if (showFailures) console.log(`\nfailed assertions of dev documents (${failures.length}):\n${failures.join("\n")}`)
})

const run = main.pipe(Effect.catchTag("ChecksParseError", (error) =>
  Effect.sync(() => {
    console.error(`bench:fidelity: ${error.message}`)
    process.exitCode = 1
  })))

Effect.runPromise(run).catch((error) => {
  console.error(error)
  process.exit(1)
})
