/**
 * epubcheck over the EPUB of every document of the fidelity suite (converted in process, checked
 * in one JVM): errors and warnings per document and in all; exits 1 when there is any.
 *
 * `tsx bench/fidelityEpubcheck.ts [ids...]`
 */
import * as Effect from "effect/Effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Engine from "../src/internal/engine.js"
import { epubcheckJar } from "../test/support/corpus.js"
import { engineOptions } from "../test/support/engineOptions.js"
import { documents, pdfPath } from "./fidelityCorpus.js"
import { formatTable } from "./fidelityReport.js"

const options = engineOptions()

const ids = process.argv.slice(2)
const docs = documents().filter((doc) => ids.length === 0 || ids.includes(doc.id))
const dir = mkdtempSync(Path.join(Os.tmpdir(), "fidelity-epubcheck-"))

const main = async () => {
  const files: Array<string> = []
  for (const doc of docs) {
    const result = await Effect.runPromise(Engine.convert(readFileSync(pdfPath(doc)), "epub", options))
    const file = Path.join(dir, `${doc.id}.epub`)
    writeFileSync(file, result.output)
    files.push(file)
  }
  const launcher = new URL("../test/support/EpubCheckAll.java", import.meta.url).pathname
  const output = execFileSync("java", ["-cp", epubcheckJar, launcher, ...files], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024
  })
  let errors = 0
  let warnings = 0
  const rows = docs.map((doc, i) => {
    const section = output.split(`=== ${files[i]}\n`)[1]?.split("=== exit")[0] ?? ""
    const counts = /Messages: (\d+) fatals \/ (\d+) errors \/ (\d+) warnings/.exec(section)
    if (counts === null) return [doc.id, "no verdict", "-"]
    errors += Number(counts[1]) + Number(counts[2])
    warnings += Number(counts[3])
    return [doc.id, String(Number(counts[1]) + Number(counts[2])), counts[3]!]
  })
  formatTable(["document", "errors", "warnings"], rows)
  console.log(`epubcheck over ${docs.length} EPUBs: ${errors} errors, ${warnings} warnings`)
  if (errors > 0 || warnings > 0 || rows.some((row) => row[1] === "no verdict")) {
    console.log(output.split("\n").filter((line) => /^(ERROR|FATAL|WARNING)/.test(line)).join("\n"))
    process.exitCode = 1
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
}).finally(() => rmSync(dir, { recursive: true, force: true }))
