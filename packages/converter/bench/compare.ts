/**
 * This converter's speed against another checkout's (say, the main branch's worktree), in one
 * process and one run: each document is converted to Markdown by both engines (read and laid
 * out, rendered), alternately, after a warm-up of each, and the medians are compared. Nothing of
 * the other checkout is written: its sources are imported as they are, each with its own
 * `effect`.
 *
 * `tsx bench/compare.ts <other repository root> [repeats]`
 */
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { importCheckout } from "./support.js"

const [otherRoot, repeatArg] = process.argv.slice(2)
if (otherRoot === undefined) {
  console.error("usage: tsx bench/compare.ts <other repository root> [repeats]")
  process.exit(2)
}
const repeats = Number(repeatArg ?? 5)
const thisRoot = fileURLToPath(new URL("../../../", import.meta.url))
const corpus = Path.join(thisRoot, "corpus")
const documents = [
  "text/tracemonkey.pdf",
  "text/pdkids.pdf",
  "text/shared-mime-info-spec.pdf",
  "structure/R-intro.pdf",
  "structure/picomatch-readme.pdf"
]

interface Engine {
  readonly convert: (pdf: Uint8Array) => Promise<void>
}

/** A checkout's engine and Markdown writer, run by that checkout's own `effect`. */
const load = async (root: string): Promise<Engine> => {
  const { Effect, options, source } = await importCheckout(root)
  const engine = await source("internal/engine.ts")
  const markdown = await source("Markdown.ts")
  return {
    convert: async (pdf) => {
      const read = await Effect.runPromise(engine.readDocument(pdf, options, "markdown"))
      markdown.renderUtf8(read.document)
    }
  }
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const time = async (engine: Engine, pdf: Uint8Array): Promise<number> => {
  const start = performance.now()
  await engine.convert(pdf)
  return performance.now() - start
}

const ours = await load(thisRoot)
const theirs = await load(Path.resolve(otherRoot))
console.log(`this checkout vs ${Path.resolve(otherRoot)}; medians of ${repeats} alternate warm runs, in process`)
console.log("| document | ours ms | other ms | ours / other |")
console.log("|---|---|---|---|")
const ratios: Array<number> = []
for (const name of documents) {
  const pdf = new Uint8Array(readFileSync(Path.join(corpus, name)))
  await time(ours, pdf)
  await time(theirs, pdf)
  const a: Array<number> = []
  const b: Array<number> = []
  for (let i = 0; i < repeats; i++) {
    a.push(await time(ours, pdf))
    b.push(await time(theirs, pdf))
  }
  const ratio = median(a) / median(b)
  ratios.push(ratio)
  console.log(`| ${name} | ${median(a).toFixed(1)} | ${median(b).toFixed(1)} | ${ratio.toFixed(2)} |`)
}
const geomean = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length)
console.log(`geometric mean of ours / other (time; above 1 is slower): ${geomean.toFixed(2)}`)
