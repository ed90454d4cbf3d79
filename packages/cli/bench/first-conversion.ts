/**
 * The first thing a new user does: `pdf-transform convert <paper> --to markdown --out <folder>` on
 * the embedded default, from spawning Node to its exit, with where the time goes (when each line
 * of `--json` arrives: the backend chosen, the job queued, submitted, converted) and, in the same
 * run, `pdftotext -layout` on the same paper (the speed reference) and `node -e 0` (Node's own
 * start). Medians of alternating runs.
 *
 *   pnpm --filter @pdf-transform/cli bench:first [runs] [pdf]
 */
import { spawn, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

const runs = Number(process.argv[2] ?? 7)
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const pdf = Path.resolve(process.argv[3] ?? here("../../../corpus/text/tracemonkey.pdf"))
const target = 1500

/** Milliseconds since spawning at which each `--json` event first arrived, and the exit. */
const convertOnce = (): Promise<Record<string, number>> =>
  new Promise((resolve, reject) => {
    const out = Fs.mkdtempSync(Path.join(Os.tmpdir(), "first-conversion-"))
    const started = performance.now()
    const at: Record<string, number> = {}
    const child = spawn(
      process.execPath,
      [here("../bin/pdf-transform.mjs"), "convert", pdf, "--to", "markdown", "--out", out, "--json"],
      { stdio: ["ignore", "pipe", "inherit"] }
    )
    createInterface({ input: child.stdout }).on("line", (line) => {
      const event = (JSON.parse(line) as { event: string }).event
      at[event] ??= performance.now() - started
    })
    child.on("error", reject)
    child.on("exit", (code) => {
      at["exit"] = performance.now() - started
      Fs.rmSync(out, { recursive: true, force: true })
      if (code !== 0) reject(new Error(`convert exited with ${code}`))
      else resolve(at)
    })
  })

const wall = (command: string, args: ReadonlyArray<string>): number => {
  const started = performance.now()
  const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "inherit"] })
  if (result.status !== 0) throw new Error(`${command} exited with ${result.status}`)
  return performance.now() - started
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const conversions: Array<Record<string, number>> = []
const pdftotext: Array<number> = []
const node: Array<number> = []
await convertOnce() // warm-up: file system caches
for (let i = 0; i < runs; i++) {
  conversions.push(await convertOnce())
  pdftotext.push(wall("pdftotext", ["-layout", pdf, "/dev/null"]))
  node.push(wall(process.execPath, ["-e", "0"]))
}

const steps = ["Backend", "Queued", "Submitted", "Completed", "exit"]
console.log(`${Path.basename(pdf)}, ${runs} runs, medians, ms since spawning node`)
let previous = 0
for (const step of steps) {
  const value = median(conversions.map((c) => c[step] ?? NaN))
  console.log(`  ${step.padEnd(10)} ${value.toFixed(0).padStart(6)} ms  (+${(value - previous).toFixed(0)})`)
  previous = value
}
const total = median(conversions.map((c) => c["exit"]!))
console.log(`node -e 0                  ${median(node).toFixed(0).padStart(6)} ms`)
console.log(`pdftotext -layout          ${median(pdftotext).toFixed(0).padStart(6)} ms`)
console.log(
  `target: the whole command within ${target} ms: ${total <= target ? "met" : "NOT met"} (${total.toFixed(0)} ms, ${
    (total / median(pdftotext)).toFixed(1)
  }x pdftotext)`
)
