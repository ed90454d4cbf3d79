/**
 * Speed on the fidelity suite, this checkout against another one (say, main's before a change),
 * in one process and one run: per document, Markdown and EPUB by each engine and
 * `pdftotext -layout` (process start included) are timed in turn, after a warm-up, so the two
 * engines and the reference share the machine's load; medians of the repeats. Prints the speed
 * (pdftotext time over Markdown time, issue 37's floor 0.25x), EPUB over Markdown (its ceiling
 * 1.3x) and the CPU time of EPUB over Markdown (every thread of the process: work moved off the
 * conversion's thread still counts there).
 *
 * `tsx bench/fidelitySpeed.ts [--before <repository root>] [--repeats N] [ids...]`
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import type { FidelityDocument } from "./fidelityCorpus.js"
import { documents, pdfPath } from "./fidelityCorpus.js"
import { formatTable, geomean, median } from "./fidelityReport.js"
import { importCheckout, takeFlag } from "./support.js"

const args = process.argv.slice(2)
const flag = (name: string) => takeFlag(args, name)
const beforeRoot = flag("--before")
const repeats = Number(flag("--repeats") ?? 3)
const thisRoot = fileURLToPath(new URL("../../../", import.meta.url))

type Format = "markdown" | "epub"

interface Engine {
  readonly name: string
  readonly convert: (pdf: Uint8Array, format: Format) => Promise<void>
}

/** A checkout's engine, imported from its sources. */
const load = async (name: string, root: string): Promise<Engine> => {
  const { Effect, options, source } = await importCheckout(root)
  const engine = await source("internal/engine.ts")
  return { name, convert: (pdf, format) => Effect.runPromise(engine.convert(pdf, format, options)) }
}

/** Wall and CPU milliseconds (all threads of this process) of one run. */
interface Time {
  readonly wall: number
  readonly cpu: number
}

const timed = async (run: () => Promise<void> | void): Promise<Time> => {
  const cpu = process.cpuUsage()
  const start = performance.now()
  await run()
  const used = process.cpuUsage(cpu)
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 }
}

const pdftotextLayout = (file: string) => {
  const result = spawnSync("pdftotext", ["-layout", "-q", file, "/dev/null"])
  if (result.status !== 0) throw new Error(`pdftotext -layout failed on ${file}`)
}

interface Measured {
  readonly markdown: Time
  readonly epub: Time
}

const medianTime = (times: ReadonlyArray<Time>): Time => ({
  wall: median(times.map((t) => t.wall)),
  cpu: median(times.map((t) => t.cpu))
})

const measure = async (engines: ReadonlyArray<Engine>, doc: FidelityDocument) => {
  const file = pdfPath(doc)
  const pdf = new Uint8Array(readFileSync(file))
  for (const engine of engines) {
    await engine.convert(pdf, "markdown")
    await engine.convert(pdf, "epub")
  }
  const runs = engines.map(() => ({ markdown: [] as Array<Time>, epub: [] as Array<Time> }))
  const reference: Array<number> = []
  for (let i = 0; i < repeats; i++) {
    // Alternated, and in turn first, so neither engine always runs after the other.
    const order = engines.map((_, e) => (e + i) % engines.length)
    for (const e of order) {
      runs[e]!.markdown.push(await timed(() => engines[e]!.convert(pdf, "markdown")))
      runs[e]!.epub.push(await timed(() => engines[e]!.convert(pdf, "epub")))
    }
    reference.push((await timed(() => pdftotextLayout(file))).wall)
  }
  return {
    doc,
    pdftotext: median(reference),
    engines: runs.map((run): Measured => ({ markdown: medianTime(run.markdown), epub: medianTime(run.epub) }))
  }
}

const x = (ratio: number) => `${ratio.toFixed(2)}x`

const main = async () => {
  const engines = [await load("after", thisRoot)]
  if (beforeRoot !== undefined) engines.unshift(await load("before", Path.resolve(beforeRoot)))
  const docs = documents().filter((doc) => args.length === 0 || args.includes(doc.id))
  console.log(
    `${engines.map((e) => e.name).join(" and ")}${
      beforeRoot === undefined ? "" : ` (before: ${Path.resolve(beforeRoot)})`
    }, in process, alternated, medians of ${repeats} (machine shared: compare within this run)`
  )
  const rows: Array<Awaited<ReturnType<typeof measure>>> = []
  for (const doc of docs) {
    const row = await measure(engines, doc)
    rows.push(row)
    console.log(
      `  ${doc.id}: pdftotext ${row.pdftotext.toFixed(0)} ms; ${
        engines.map((e, i) => {
          const m = row.engines[i]!
          return `${e.name} Markdown ${m.markdown.wall.toFixed(0)} ms, EPUB ${m.epub.wall.toFixed(0)} ms`
        }).join("; ")
      }`
    )
  }
  const header = ["document", "pages", "pdftotext -layout ms"]
  for (const e of engines) {
    header.push(`${e.name} Markdown ms`, `${e.name} speed`, `${e.name} EPUB/Markdown`, `${e.name} EPUB/Markdown CPU`)
  }
  formatTable(
    header,
    rows.map((row) => [
      row.doc.id,
      String(row.doc.pages),
      row.pdftotext.toFixed(0),
      ...row.engines.flatMap((m) => [
        m.markdown.wall.toFixed(0),
        x(row.pdftotext / m.markdown.wall),
        x(m.epub.wall / m.markdown.wall),
        x(m.epub.cpu / m.markdown.cpu)
      ])
    ])
  )
  engines.forEach((engine, i) => {
    const speeds = rows.map((row) => row.pdftotext / row.engines[i]!.markdown.wall)
    const epub = rows.map((row) => row.engines[i]!.epub.wall / row.engines[i]!.markdown.wall)
    const below = rows.filter((_, r) => speeds[r]! < 0.25).map((row) => row.doc.id)
    const over = rows.filter((_, r) => epub[r]! > 1.3).map((row) => row.doc.id)
    console.log(
      `${engine.name}: speed geometric mean ${x(geomean(speeds))} (target >= 0.5x), below 0.25x: ${
        below.join(", ") || "none"
      }; EPUB/Markdown geometric mean ${x(geomean(epub))}, highest ${x(Math.max(...epub))}, above 1.3x: ${
        over.join(", ") || "none"
      }`
    )
  })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
