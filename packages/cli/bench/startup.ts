/**
 * How long `pdf-transform --help` and `pdf-transform convert --help` take, from spawning Node to its
 * exit, against `node -e 0` (Node's own start, the floor) in the same run; with `--tsx`, `--help`
 * from the TypeScript sources under tsx's loader too (what the bundle saves). Medians and 90th
 * percentiles of alternating runs, so a busy machine weighs on all alike, with the CPU time (user
 * and system, from Linux's /proc) that a busy machine inflates less than the wall time.
 *
 *   pnpm --filter @pdf-transform/cli bench [runs] [--tsx]
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"

const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 20)
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const bin = here("../bin/pdf-transform.mjs")
const target = 250

const subjects: Array<readonly [string, ReadonlyArray<string>]> = [
  ["node -e 0", ["-e", "0"]],
  ["pdf-transform --help", [bin, "--help"]],
  ["pdf-transform convert --help", [bin, "convert", "--help"]]
]
if (process.argv.includes("--tsx")) {
  subjects.push(["--help (sources under tsx)", ["--import", "tsx", here("../src/bin.ts"), "--help"]])
}

/** CPU milliseconds of the children this process has waited for (cutime + cstime, in 10 ms ticks). */
const childrenCpu = (): number => {
  const fields = Fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[13]) + Number(fields[14])) * 10
}

const once = (args: ReadonlyArray<string>): { readonly wall: number; readonly cpu: number } => {
  const cpuBefore = childrenCpu()
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"], cwd: here("..") })
  const wall = Number(process.hrtime.bigint() - started) / 1e6
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${result.status}`)
  return { wall, cpu: childrenCpu() - cpuBefore }
}

const timings = new Map(subjects.map(([name]) => [name, [] as Array<{ wall: number; cpu: number }>]))
// One warm-up each (file system caches), then the runs, alternating.
for (const [, args] of subjects) once(args)
for (let i = 0; i < runs; i++) {
  for (const [name, args] of subjects) timings.get(name)!.push(once(args))
}

const quantile = (values: ReadonlyArray<number>, q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}
const floor = quantile(timings.get("node -e 0")!.map((t) => t.wall), 0.5)
const pad = (value: number) => value.toFixed(0).padStart(5)
console.log(`${runs} runs each, alternating; wall from spawn to exit, CPU user + system`)
for (const [name, values] of timings) {
  const wall = values.map((t) => t.wall)
  const median = quantile(wall, 0.5)
  console.log(
    `${name.padEnd(30)} median ${pad(median)} ms   p90 ${pad(quantile(wall, 0.9))} ms   CPU ${
      pad(quantile(values.map((t) => t.cpu), 0.5))
    } ms   ${(median / floor).toFixed(1)}x node -e 0`
  )
}
for (const name of ["pdf-transform --help", "pdf-transform convert --help"]) {
  const median = quantile(timings.get(name)!.map((t) => t.wall), 0.5)
  console.log(
    `target: ${name} within ${target} ms median: ${median <= target ? "met" : "NOT met"} (${median.toFixed(0)} ms)`
  )
}
