/**
 * The first thing a new user does: `pdf-transform convert <paper> --to markdown --out <folder>` on
 * the embedded default, from spawning Node to its exit, with where the time goes before the first
 * page is read and after, and, in the same run, `pdftotext -layout` on the same paper (the speed
 * reference) and `node -e 0` (Node's own start). The command runs with `--json --verbose`: each
 * step is when its event arrived on stdout or when its log line was written (logfmt on stderr,
 * millisecond timestamps). Wall, CPU (user + system) and peak RSS come from GNU time, Linux's
 * /usr/bin/time. Medians of alternating runs. `--against <bin>` runs another build of the command
 * (another checkout's `bin/pdf-transform.mjs`) in the same runs, for before-and-after figures.
 *
 *   pnpm --filter @pdf-transform/cli bench:first [runs] [pdf] [--against <bin>]
 */
import { spawn, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const against = process.argv.indexOf("--against")
const positional = process.argv.slice(2).filter((_, i) => against < 0 || (i + 2 !== against && i + 2 !== against + 1))
const runs = Number(positional[0] ?? 7)
const pdf = Path.resolve(positional[1] ?? here("../../../corpus/text/tracemonkey.pdf"))
const bins = [here("../bin/pdf-transform.mjs"), ...(against < 0 ? [] : [Path.resolve(process.argv[against + 1]!)])]
const time = "/usr/bin/time"
const targets = { wallMs: 1500, rssMiB: 150 }

/** The steps, in the order they happen, each with what marks it. */
const steps: ReadonlyArray<readonly [string, string]> = [
  ["command loaded, arguments parsed", "event:Backend"],
  ["converter's code loaded", "log:local converter loaded"],
  ["PDFium compiled, worker started (beside)", "log:local converter ready"],
  ["server on its data folder, listening", "log:pdf-transform server listening"],
  ["document uploaded", "event:Uploaded"],
  ["task submitted", "event:Submitted"],
  ["first pages read (first progress)", "progress"],
  ["converted, polled (Completed)", "event:Completed"],
  ["exit (summary, data folder removed)", "exit"]
]

interface Run {
  readonly at: Record<string, number>
  readonly wallMs: number
  readonly cpuMs: number
  readonly rssMiB: number
}

const logLine = /^timestamp=(\S+) .*message="([^"]*)"/

const convertOnce = (bin: string): Promise<Run> =>
  new Promise((resolve, reject) => {
    const out = Fs.mkdtempSync(Path.join(Os.tmpdir(), "first-conversion-"))
    const usage = Path.join(out, "time.txt")
    const startedAt = Date.now()
    const started = performance.now()
    const at: Record<string, number> = {}
    const child = spawn(time, [
      "-f",
      "%e %U %S %M",
      "-o",
      usage,
      process.execPath,
      bin,
      "convert",
      pdf,
      "--to",
      "markdown",
      "--out",
      Path.join(out, "out"),
      "--json",
      "--verbose"
    ], { stdio: ["ignore", "pipe", "pipe"] })
    createInterface({ input: child.stdout }).on("line", (line) => {
      const event = JSON.parse(line) as { readonly event: string; readonly progress?: number }
      at[`event:${event.event}`] ??= performance.now() - started
      if (event.event === "Progress" && (event.progress ?? 0) > 0) at["progress"] ??= performance.now() - started
    })
    createInterface({ input: child.stderr }).on("line", (line) => {
      const match = logLine.exec(line)
      if (match !== null) at[`log:${match[2]}`] ??= Date.parse(match[1]!) - startedAt
      else process.stderr.write(`${line}\n`)
    })
    child.on("error", reject)
    child.on("close", (code) => {
      at["exit"] = performance.now() - started
      const [wall, user, system, rssKiB] = Fs.readFileSync(usage, "utf8").trim().split("\n").pop()!.split(" ").map(
        Number
      )
      Fs.rmSync(out, { recursive: true, force: true })
      if (code !== 0) reject(new Error(`convert exited with ${code}`))
      else resolve({ at, wallMs: wall! * 1000, cpuMs: (user! + system!) * 1000, rssMiB: rssKiB! / 1024 })
    })
  })

const wall = (command: string, args: ReadonlyArray<string>): number => {
  const started = performance.now()
  const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "inherit"] })
  if (result.status !== 0) throw new Error(`${command} exited with ${result.status}`)
  return performance.now() - started
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const conversions = bins.map(() => [] as Array<Run>)
const pdftotext: Array<number> = []
const node: Array<number> = []
for (const bin of bins) await convertOnce(bin) // warm-up: file system caches
for (let i = 0; i < runs; i++) {
  for (const [j, bin] of bins.entries()) conversions[j]!.push(await convertOnce(bin))
  pdftotext.push(wall("pdftotext", ["-layout", pdf, "/dev/null"]))
  node.push(wall(process.execPath, ["-e", "0"]))
}

const pad = (value: number) => value.toFixed(0).padStart(6)
console.log(`${Path.basename(pdf)}, ${runs} runs, medians, ms since spawning node`)
console.log(`node -e 0                   ${pad(median(node))} ms`)
console.log(`pdftotext -layout           ${pad(median(pdftotext))} ms`)
for (const [j, bin] of bins.entries()) {
  const runs = conversions[j]!
  console.log(`${bin}:`)
  // In the order they happened (the converter starts beside the server and the first upload); a
  // step a build does not log is left out.
  const timeline = steps.map(([name, key]) => [name, median(runs.map((c) => c.at[key] ?? NaN))] as const)
    .filter(([, value]) => !Number.isNaN(value)).sort((a, b) => a[1] - b[1])
  let previous = 0
  for (const [name, value] of timeline) {
    console.log(`  ${name.padEnd(40)} ${pad(value)} ms  (+${(value - previous).toFixed(0)})`)
    previous = value
  }
  const total = median(runs.map((c) => c.wallMs))
  const cpu = median(runs.map((c) => c.cpuMs))
  const rss = median(runs.map((c) => c.rssMiB))
  console.log(`  the command: wall ${pad(total)} ms   CPU ${pad(cpu)} ms   peak RSS ${rss.toFixed(0)} MiB`)
  console.log(
    `  target: wall within ${targets.wallMs} ms: ${total <= targets.wallMs ? "met" : "NOT met"} (${
      (total / median(pdftotext)).toFixed(1)
    }x pdftotext, ${(total / median(node)).toFixed(1)}x node -e 0); peak RSS within ${targets.rssMiB} MiB: ${
      rss <= targets.rssMiB ? "met" : "NOT met"
    }`
  )
}
