// The batch benchmark: the reference server in simulated mode in one process, each client run in
// another (bundled, run by plain node), on 127.0.0.1. Prints makespan against the ideal, 429s by
// reason, result GETs per task, CPU per job and peak RSS, for our batch and a naive baseline; then,
// for tasks that complete at once, our batch beside a hand-written loop (undici, no Effect, the same
// requests and the same durable write per job) in the same run, and a run ten times larger whose
// live heap while it runs (after a full GC, nine jobs in ten done) must stay within 10 % of the smaller one's.
//
//   pnpm --filter @pdf-transform/stream bench
//
// BENCH_N (default 500), BENCH_BIG_N (default 10000) and BENCH_HUGE_N (default 100000) shorten it;
// BENCH_ONLY=instant runs only the instant-task scenarios; BENCH_QUICK=1 runs those with 2,000 and
// 20,000 jobs; BENCH_CLIENT_FLAGS adds node flags to the clients (e.g. --cpu-prof). The instant
// clients run with --expose-gc only (V8's default heap sizes).
//
// The batch's ceilings against the hand-written loop (issue 39): at most 3x its CPU per job and 2x
// its peak RSS, the price of typed errors, the journal, the gates and stock Effect.
import { spawn } from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { bundle, out, startServer } from "./processes.mjs"

const key = Crypto.randomBytes(16).toString("hex")
const quick = process.env.BENCH_QUICK === "1"
const n = Number(process.env.BENCH_N ?? 500)
const bigN = Number(process.env.BENCH_BIG_N ?? (quick ? 2_000 : 10_000))
const hugeN = Number(process.env.BENCH_HUGE_N ?? (quick ? 20_000 : 100_000))
const limit = 16
const taskMs = 2000
const only = quick ? "instant" : process.env.BENCH_ONLY
const ceilings = { cpu: 3, rss: 2 }
const clientFlags = (process.env.BENCH_CLIENT_FLAGS ?? "").split(" ").filter((flag) => flag !== "")

/** Uploads `count` small distinct PDFs and answers their URLs (a job each, named `doc-<i>`). */
const upload = async (baseUrl, count) => {
  const urls = new Array(count)
  let next = 0
  const worker = async () => {
    while (next < count) {
      const i = next++
      const response = await fetch(`${baseUrl}/files`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/pdf" },
        body: `%PDF-1.4\n% bench document ${i}\n%%EOF\n`
      })
      if (!response.ok) throw new Error(`upload ${i}: HTTP ${response.status} ${await response.text()}`)
      urls[i] = (await response.json()).url
    }
  }
  await Promise.all(Array.from({ length: 32 }, worker))
  return urls
}

const runClient = (scenario, baseUrl, jobsFile, workDir, count) =>
  new Promise((resolve, reject) => {
    const instant = scenario.endsWith("-instant")
    const args = scenario.startsWith("loop") ?
      [Path.join(out, "loop.mjs"), baseUrl, key, jobsFile, workDir] :
      [Path.join(out, "client.mjs"), scenario.replace(/-instant$/, ""), baseUrl, key, jobsFile, workDir, String(count)]
    const proc = spawn(process.execPath, [...clientFlags, ...(instant ? ["--expose-gc"] : []), ...args], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let buffer = ""
    proc.stdout.on("data", (chunk) => void (buffer += chunk))
    proc.on("error", reject)
    proc.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(buffer.trim().split("\n").pop()))
        : reject(new Error(`${scenario} exited ${code}`)))
  })

const scenario = async (name, client, count, serverEnv) => {
  const { baseUrl, proc } = await startServer({ BENCH_KEY: key, ...serverEnv })
  try {
    const workDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), `bench-${name.replace(/\W+/g, "-")}-`))
    const jobsFile = Path.join(workDir, "jobs.jsonl")
    // Instant tasks: one uploaded PDF, each job its own `filename` (a distinct job and output).
    const urls = await upload(baseUrl, client.endsWith("-instant") ? 1 : count)
    const jobs = Array.from({ length: count }, (_, i) => ({ pdfURL: urls[i % urls.length], filename: `doc-${i}` }))
    // One job per line: the batch reads them as a stream, as it would a user's million-line list.
    Fs.writeFileSync(jobsFile, jobs.map((job) => JSON.stringify(job)).join("\n") + "\n")
    const result = await runClient(client, baseUrl, jobsFile, workDir, count)
    const stats = await (await fetch(`${baseUrl.replace(/\/v1$/, "")}/bench/stats`)).json()
    Fs.rmSync(workDir, { recursive: true, force: true })
    return { name, count, ...result, stats }
  } finally {
    proc.removeAllListeners("exit")
    proc.kill("SIGTERM")
  }
}

const fmt = (x, digits = 1) => x.toFixed(digits)

const row = (r, ideal) => {
  const rejected = Object.entries(r.stats.rejected).map(([reason, c]) => `${reason} ${c}`).join(", ") || "none"
  const ratio = ideal === undefined ? "" : ` (${fmt(r.makespanMs / ideal, 2)} x ideal ${fmt(ideal / 1000)} s)`
  return [
    `${r.name}: ${r.completed}/${r.count} completed, ${r.failed} failed${
      r.failures.length ? ` (${r.failures.join(", ")})` : ""
    }`,
    `  makespan ${fmt(r.makespanMs / 1000)} s${ratio}`,
    `  submits ${r.stats.submits}, 429s: ${rejected}`,
    `  result GETs per task ${
      fmt(r.stats.resultGets / Math.max(1, r.stats.accepted), 2)
    }, downloads ${r.stats.downloads}`,
    `  client CPU ${fmt(r.cpuMs / r.count, 2)} ms per job (system ${fmt(r.systemMs / r.count, 2)}), peak RSS ${
      fmt(r.maxRssMb)
    } MB${
      r.liveHeapMb === undefined ?
        "" :
        `, live heap after a full GC ${r.name.startsWith("batch") ? "with 9/10 of the jobs done" : "at the end"} ${
          fmt(r.liveHeapMb)
        } MB`
    }`
  ].join("\n")
}

await Promise.all([bundle("server"), bundle("client"), bundle("loop"), bundle("gate")])
if (only !== "instant") {
  await new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [Path.join(out, "gate.mjs")], { stdio: ["ignore", "inherit", "inherit"] })
    proc.on("exit", (code) => code === 0 ? resolve() : reject(new Error(`gate bench exited ${code}`)))
  })
}
console.log(
  `${Os.cpus().length} cores, Node ${process.version}; server limit ${limit} tasks in flight, announced by RateLimit-Policy; tasks ${
    taskMs / 1000
  } s with linear progress; client bound 64; polling 100 ms x1.5 up to 500 ms (core's default / 20)`
)
const ideal = Math.ceil(n / limit) * taskMs
const env = { BENCH_CONCURRENCY: String(limit), BENCH_DURATION_MS: String(taskMs), BENCH_STEPS: "100" }
const results = []
const small = only === "instant" ?
  [] :
  [["batch", "batch"], ["batch, progress-aware polling off", "batch-plain"], ["naive Effect.forEach", "naive"]]
for (const [name, client] of small) {
  const r = await scenario(name, client, n, env)
  results.push(r)
  console.log(row(r, ideal))
}
const instantEnv = { BENCH_CONCURRENCY: "0", BENCH_DURATION_MS: "0", BENCH_STEPS: "1" }
const big = await scenario("batch, instant tasks", "batch-instant", bigN, instantEnv)
console.log(row(big))
const loop = await scenario("hand-written loop, instant tasks", "loop-instant", bigN, instantEnv)
console.log(row(loop))
const huge = await scenario("batch, instant tasks, ten times as many", "batch-instant", hugeN, instantEnv)
console.log(row(huge))

const check = (ok) => ok ? "met" : "NOT met"
const ours = results[0]
if (ours !== undefined) {
  const rejections = Object.values(ours.stats.rejected).reduce((a, b) => a + b, 0)
  const gets = ours.stats.resultGets / Math.max(1, ours.stats.accepted)
  console.log(
    `targets: makespan <= 1.10 x ideal: ${check(ours.makespanMs <= 1.1 * ideal)} (${
      fmt(ours.makespanMs / ideal, 3)
    }); at most one 429 per concurrency change (one policy, learnt once): ${
      check(rejections <= 1)
    } (${rejections}); <= 8 result GETs per task: ${check(gets <= 8)} (${fmt(gets, 2)})`
  )
}
const cpuRatio = (big.cpuMs / big.count) / (loop.cpuMs / loop.count)
const rssRatio = big.maxRssMb / loop.maxRssMb
const heapGrowth = huge.liveHeapMb / big.liveHeapMb
console.log(
  `ceilings (${bigN} instant jobs, beside the hand-written loop in the same run): CPU per job: batch ${
    fmt(big.cpuMs / big.count, 2)
  } ms, loop ${fmt(loop.cpuMs / loop.count, 2)} ms, ${fmt(cpuRatio, 2)}x (at most ${ceilings.cpu}x: ${
    check(cpuRatio <= ceilings.cpu)
  }); peak RSS: batch ${fmt(big.maxRssMb)} MB, loop ${fmt(loop.maxRssMb)} MB, ${fmt(rssRatio, 2)}x (at most ${ceilings.rss}x: ${
    check(rssRatio <= ceilings.rss)
  })`
)
console.log(
  `target (${hugeN} instant jobs): live heap while it runs (after a full GC, 9/10 done) within 10 % of the ${bigN}-job run's: ${
    check(heapGrowth <= 1.1)
  } (${fmt(huge.liveHeapMb)} MB against ${fmt(big.liveHeapMb)} MB, ${fmt(heapGrowth, 2)}x)`
)
process.exit(0)
