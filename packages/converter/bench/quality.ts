/**
 * Quality on the corpus, per file: word recall against pdftotext (and against the ground truth of
 * the scanned brochure), heading recall against the outline (or tracemonkey's section titles),
 * epubcheck's verdict, and how many pages were OCR'd. Run before and after an engine change.
 *
 * Recall is scored against pdftotext's words minus the words of the lines the running-head rule
 * removed (a running header or footer removed on purpose is not a miss); how many lines that rule
 * removed is printed per document, so it cannot quietly eat body text.
 */
import * as Effect from "effect/Effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Epub from "../src/Epub.js"
import * as Engine from "../src/internal/engine.js"
import * as Pdf from "../src/internal/pdf.js"
import * as Markdown from "../src/Markdown.js"
import { corpusFile, epubcheckJar, pdftotext, readCorpus, tracemonkeyTitles } from "../test/support/corpus.js"
import { engineOptions } from "../test/support/engineOptions.js"
import { dehyphenate, latinWords, recall, stripMarkdown, words } from "../test/support/words.js"

const files = [
  "text/tracemonkey.pdf",
  "text/pdkids.pdf",
  "text/TAMReview.pdf",
  "text/shared-mime-info-spec.pdf",
  "scripts/issue3521.pdf",
  "scripts/90ms_rksj_h_sample.pdf",
  "scripts/ArabicCIDTrueType.pdf",
  "scanned/ocrmypdf-linn.pdf",
  "scanned/ocrmypdf-c02-22.pdf",
  "scanned/scan-bad.pdf",
  ...process.argv.slice(2)
]

/** Files whose text is checked against a ground truth of their own rather than pdftotext. */
const groundTruth: Record<string, string> = { "scanned/ocrmypdf-linn.pdf": "scanned/ocrmypdf-linn.txt" }

const headingKey = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")

const markdownHeadings = (markdown: string): Set<string> =>
  new Set(
    markdown.split("\n").filter((line) => /^#{1,6} /.test(line)).map((line) =>
      headingKey(line.replace(/^#{1,6} /, "").replace(/\\(.)/g, "$1"))
    )
  )

/** Removes each word of `removed` once from `reference` (a multiset difference). */
const without = (reference: ReadonlyArray<string>, removed: ReadonlyArray<string>): Array<string> => {
  const drop = new Map<string, number>()
  for (const word of removed) drop.set(word, (drop.get(word) ?? 0) + 1)
  return reference.filter((word) => {
    const count = drop.get(word) ?? 0
    if (count === 0) return true
    drop.set(word, count - 1)
    return false
  })
}

const options = engineOptions()

const outDir = mkdtempSync(Path.join(Os.tmpdir(), "converter-quality-"))

interface Row {
  readonly name: string
  readonly pages: number
  readonly ocrPages: number
  readonly removedLines: number
  readonly rawRecall: number | undefined
  readonly recall: number | undefined
  readonly headingRecall: string
  readonly epub: string
  readonly seconds: number
}

const measure = (name: string) =>
  Effect.gen(function*() {
    const start = performance.now()
    const pdf = readCorpus(name)
    const read = yield* Engine.readDocument(pdf, options, "epub")
    const seconds = (performance.now() - start) / 1000
    const markdown = Markdown.render(read.document)
    const epubPath = Path.join(outDir, `${Path.basename(name, ".pdf")}.epub`)
    writeFileSync(epubPath, Epub.build(read.document))
    const ours = words(stripMarkdown(markdown))
    const latin = name.startsWith("text/")
    const pick = (list: Array<string>) => latin ? latinWords(list) : list
    const truth = groundTruth[name]
    const reference = truth !== undefined
      ? words(readFileSync(corpusFile(truth), "utf8"))
      : pick(words(dehyphenate(pdftotext(corpusFile(name)))))
    const removed = truth !== undefined ? [] : pick(words(read.removedLines.join("\n")))
    const scored = without(reference, removed)
    const outline = yield* Effect.scoped(Effect.flatMap(Pdf.open(pdf, undefined), Pdf.outline))
    const expected = name === "text/tracemonkey.pdf"
      ? tracemonkeyTitles
      : outline.length >= 2
      ? outline.filter((entry) => entry.level <= 2).map((entry) => entry.title)
      : []
    const found = markdownHeadings(markdown)
    const hits = expected.filter((title) => found.has(headingKey(title))).length
    return {
      name,
      pages: read.document.pages,
      ocrPages: read.ocrPages.length,
      removedLines: read.removedLines.length,
      rawRecall: reference.length === 0 ? undefined : recall(reference, ours),
      recall: scored.length === 0 ? undefined : recall(scored, ours),
      headingRecall: expected.length === 0
        ? "-"
        : `${(hits / expected.length * 100).toFixed(1)}% of ${expected.length}`,
      epub: epubPath,
      seconds
    } satisfies Row
  })

/** epubcheck over every EPUB in one JVM: "errors/warnings" per file. */
const epubcheck = (paths: ReadonlyArray<string>): Map<string, string> => {
  const launcher = new URL("../test/support/EpubCheckAll.java", import.meta.url).pathname
  const output = execFileSync("java", ["-cp", epubcheckJar, launcher, ...paths], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024
  })
  const verdicts = new Map<string, string>()
  for (const path of paths) {
    const section = output.split(`=== ${path}\n`)[1]?.split("=== exit")[0] ?? ""
    const counts = /Messages: (\d+) fatals \/ (\d+) errors \/ (\d+) warnings/.exec(section)
    verdicts.set(
      path,
      counts === null ? "no verdict" : `${Number(counts[1]) + Number(counts[2])} err, ${counts[3]} warn`
    )
  }
  return verdicts
}

const percent = (value: number | undefined) => value === undefined ? "-" : `${(value * 100).toFixed(2)}%`

const main = Effect.gen(function*() {
  const rows: Array<Row> = []
  for (const name of files) rows.push(yield* measure(name))
  const verdicts = epubcheck(rows.map((row) => row.epub))
  const header = [
    "file",
    "pages",
    "OCR'd",
    "heads removed (lines)",
    "word recall",
    "word recall minus removed",
    "heading recall",
    "epubcheck",
    "s"
  ]
  const table = rows.map((row) => [
    row.name,
    String(row.pages),
    String(row.ocrPages),
    String(row.removedLines),
    percent(row.rawRecall),
    percent(row.recall),
    row.headingRecall,
    verdicts.get(row.epub) ?? "",
    row.seconds.toFixed(1)
  ])
  const widths = header.map((title, i) => Math.max(title.length, ...table.map((r) => r[i]!.length)))
  const format = (cells: ReadonlyArray<string>) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`
  console.log(format(header))
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`)
  for (const r of table) console.log(format(r))
})

Effect.runPromise(main).catch((error) => {
  console.error(error)
  process.exit(1)
})
