/**
 * How long `pdf-transform --help` takes, from spawning Node to its exit: the bundle against
 * `node -e 0` (Node's own start, the floor) in the same run, and the same command from the
 * TypeScript sources under tsx's loader (what the bundle saves). Medians and 90th percentiles of
 * alternating runs, so a busy machine weighs on all three alike.
 *
 *   pnpm --filter @pdf-transform/cli bench [runs]
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const runs = Number(process.argv[2] ?? 20)
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const subjects = {
  "node -e 0": [process.execPath, ["-e", "0"]],
  "pdf-transform --help (bundle)": [process.execPath, [here("../bin/pdf-transform.mjs"), "--help"]],
  "pdf-transform --help (sources under tsx)": [process.execPath, ["--import", "tsx", here("../src/bin.ts"), "--help"]]
} as const

const timings = new Map<string, Array<number>>(Object.keys(subjects).map((name) => [name, []]))

const once = (command: string, args: ReadonlyArray<string>): number => {
  const started = process.hrtime.bigint()
  const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "inherit"], cwd: here("..") })
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`)
  return Number(process.hrtime.bigint() - started) / 1e6
}

// One warm-up each (file system caches), then the runs, alternating.
for (const [command, args] of Object.values(subjects)) once(command, args)
for (let i = 0; i < runs; i++) {
  for (const [name, [command, args]] of Object.entries(subjects)) timings.get(name)!.push(once(command, args))
}

const quantile = (values: ReadonlyArray<number>, q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}
const floor = quantile(timings.get("node -e 0")!, 0.5)
console.log(`${runs} runs each, alternating`)
for (const [name, values] of timings) {
  const median = quantile(values, 0.5)
  console.log(
    `${name.padEnd(42)} median ${median.toFixed(0).padStart(5)} ms   p90 ${
      quantile(values, 0.9).toFixed(0).padStart(5)
    } ms` +
      `   ${(median / floor).toFixed(1)}x node -e 0`
  )
}
