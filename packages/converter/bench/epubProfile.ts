/**
 * One fidelity document converted to Markdown and to EPUB in turn, for a profile of the EPUB's
 * extra work (`node --cpu-prof --import tsx bench/epubProfile.ts ID`): prints times only (wall,
 * CPU of the whole process and of the conversion's thread), medians of the repeats after a warm-up.
 *
 * `node --import tsx bench/epubProfile.ts [--repeats N] [--only markdown|epub] [--root <checkout>] ID`
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { documents, pdfPath } from "./fidelityCorpus.js"
import { median } from "./fidelityReport.js"
import { importCheckout, takeFlag } from "./support.js"

const args = process.argv.slice(2)
const repeats = Number(takeFlag(args, "--repeats") ?? 10)
const only = takeFlag(args, "--only")
const root = takeFlag(args, "--root")
const doc = documents().find((d) => d.id === args[0])
if (doc === undefined) throw new Error(`no fidelity document ${args[0]}`)

type Format = "markdown" | "epub"

/** CPU milliseconds this thread has run (Linux: the main thread's task is the process id). */
const threadCpu = (): number => {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "latin1").split(") ")[1]!.split(" ")
  // utime and stime, in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const main = async () => {
  const { Effect, options, source } = await importCheckout(
    root ?? fileURLToPath(new URL("../../../", import.meta.url))
  )
  const engine = await source("internal/engine.ts")
  const pdf = new Uint8Array(readFileSync(pdfPath(doc)))
  const formats: Array<Format> = only === undefined ? ["markdown", "epub"] : [only as Format]
  const convert = (format: Format): Promise<void> => Effect.runPromise(engine.convert(pdf, format, options))
  for (const format of formats) await convert(format)
  const times = new Map(
    formats.map((f) => [f, { wall: [] as Array<number>, cpu: [] as Array<number>, thread: [] as Array<number> }])
  )
  for (let i = 0; i < repeats; i++) {
    for (const format of formats) {
      const cpu = process.cpuUsage()
      const thread = threadCpu()
      const start = performance.now()
      await convert(format)
      const used = process.cpuUsage(cpu)
      const t = times.get(format)!
      t.wall.push(performance.now() - start)
      t.cpu.push((used.user + used.system) / 1000)
      t.thread.push(threadCpu() - thread)
    }
  }
  for (const [format, t] of times) {
    console.log(
      `${doc.id} ${format}: wall ${median(t.wall).toFixed(1)} ms (${Math.min(...t.wall).toFixed(1)}-${
        Math.max(...t.wall).toFixed(1)
      }), CPU ${median(t.cpu).toFixed(1)} ms, main thread ${
        (t.thread.reduce((a, b) => a + b, 0) / t.thread.length).toFixed(1)
      } ms (mean)`
    )
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
