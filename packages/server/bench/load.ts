/**
 * Load benchmark of the reference server, loopback only, bounded in time and count: N pollers
 * (default 200), each owning a simulated task and polling its result every BENCH_POLL_INTERVAL_MS
 * (default 100) over keep-alive connections, submitting a new task when one ends; meanwhile real
 * corpus PDFs are converted by the live worker pool (BENCH_LIVE=0 turns that off). Two identical
 * rounds of BENCH_SECONDS (default 30). Prints requests/s, p50/p99 of result GETs and the server's
 * RSS before and after each round.
 *
 *   pnpm --filter @pdf-transform/server bench
 */
import * as ChildProcess from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Path from "node:path"
import * as PerfHooks from "node:perf_hooks"
import { fileURLToPath } from "node:url"

const pollers = Number(process.env["BENCH_POLLERS"] ?? 200)
const seconds = Number(process.env["BENCH_SECONDS"] ?? 30)
const pollIntervalMs = Number(process.env["BENCH_POLL_INTERVAL_MS"] ?? 100)
const live = process.env["BENCH_LIVE"] !== "0"
const key = Crypto.randomBytes(16).toString("hex")
const here = Path.dirname(fileURLToPath(import.meta.url))
const corpus = new URL("../../../../shared/corpus/text/", import.meta.url)

// A fresh keep-alive pool per round: sockets left idle between rounds would race the server's
// keep-alive timeout (ECONNRESET on reuse), which is the load generator's problem, not the server's.
const newAgent = () => new Http.Agent({ keepAlive: true, maxSockets: pollers + 8, scheduling: "fifo" })
let agent = newAgent()

interface Answer {
  readonly status: number
  readonly body: string
}

let origin = ""

const request = (method: string, path: string, body?: string | Uint8Array, contentType?: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, origin)
    const headers: Http.OutgoingHttpHeaders = { authorization: `Bearer ${key}` }
    if (body !== undefined) {
      headers["content-type"] = contentType ?? "application/json"
      headers["content-length"] = Buffer.byteLength(body)
    }
    const req = Http.request({
      agent,
      host: url.hostname,
      port: url.port,
      method,
      path: url.pathname + url.search,
      headers
    }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
      res.on("error", reject)
    })
    req.setTimeout(30_000, () => req.destroy(new Error("request timeout")))
    req.on("error", reject)
    req.end(body)
  })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const rssOf = (pid: number): number | undefined => {
  try {
    const status = Fs.readFileSync(`/proc/${pid}/status`, "utf8")
    const match = /VmRSS:\s+(\d+) kB/.exec(status)
    return match === null ? undefined : Number(match[1]) * 1024
  } catch {
    return undefined
  }
}

const mib = (bytes: number | undefined) => bytes === undefined ? "n/a" : `${(bytes / 1024 / 1024).toFixed(1)} MiB`

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const upload = async (bytes: Uint8Array): Promise<string> => {
  const answer = await request("POST", "/v1/files", bytes, "application/pdf")
  if (answer.status !== 201) throw new Error(`upload: HTTP ${answer.status} ${answer.body}`)
  return (JSON.parse(answer.body) as { url: string }).url
}

const submit = async (format: "markdown" | "epub", pdfURL: string, filename?: string): Promise<string> => {
  const body = JSON.stringify({ pdfURL, model: "gundam", ...(filename === undefined ? {} : { filename }) })
  const answer = await request("POST", `/v1/pdf-transform-${format}/submit`, body)
  if (answer.status !== 200) throw new Error(`submit: HTTP ${answer.status} ${answer.body}`)
  return (JSON.parse(answer.body) as { sessionID: string }).sessionID
}

interface RoundResult {
  readonly requests: number
  readonly resultLatencies: Float64Array
  readonly errors: number
  readonly errorKinds: ReadonlyMap<string, number>
  readonly completed: number
  readonly liveConverted: number
  readonly liveFailed: number
  readonly generatorLagP99Ms: number
}

const round = async (pdfURL: string, livePdfs: ReadonlyArray<string>): Promise<RoundResult> => {
  const deadline = performance.now() + seconds * 1000
  // The generator shares the machine's cores: when its own event loop lags, a latency it measures
  // includes that lag, so it is reported next to the latencies.
  const ownDelay = PerfHooks.monitorEventLoopDelay({ resolution: 10 })
  ownDelay.enable()
  const latencies: Array<number> = []
  let requests = 0
  let errors = 0
  const errorKinds = new Map<string, number>()
  const countError = (kind: string) => {
    errors++
    errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1)
  }
  let completed = 0
  let liveConverted = 0
  let liveFailed = 0

  const poller = async (index: number) => {
    const format = index % 2 === 0 ? "markdown" : "epub"
    // Spread the first polls over one interval so the pollers do not move in lockstep.
    await sleep((index / pollers) * pollIntervalMs)
    let task = await submit(format, pdfURL)
    requests++
    while (performance.now() < deadline) {
      const started = performance.now()
      try {
        const answer = await request("GET", `/v1/pdf-transform-${format}/result/${task}`)
        latencies.push(performance.now() - started)
        requests++
        if (answer.status !== 200) {
          countError(`HTTP ${answer.status}`)
        } else {
          const state = (JSON.parse(answer.body) as { state: string }).state
          if (state === "completed" || state === "failed") {
            completed++
            task = await submit(format, pdfURL)
            requests++
          }
        }
      } catch (error) {
        countError((error as NodeJS.ErrnoException).code ?? String(error))
      }
      await sleep(pollIntervalMs)
    }
  }

  const liveLoop = async (slot: number) => {
    let n = slot
    while (performance.now() < deadline && livePdfs.length > 0) {
      const url = livePdfs[n++ % livePdfs.length]!
      const id = await submit("markdown", url, `live-${n}`)
      while (true) {
        await sleep(250)
        const answer = await request("GET", `/v1/pdf-transform-markdown/result/${id}`)
        const state = (JSON.parse(answer.body) as { state: string }).state
        if (state === "completed") liveConverted++
        if (state === "failed") liveFailed++
        if (state !== "processing") break
      }
    }
  }

  await Promise.all([
    ...Array.from({ length: pollers }, (_, i) => poller(i)),
    ...(live ? [liveLoop(0), liveLoop(1)] : [])
  ])
  ownDelay.disable()
  const sorted = Float64Array.from(latencies).sort()
  return {
    requests,
    resultLatencies: sorted,
    errors,
    errorKinds,
    completed,
    liveConverted,
    liveFailed,
    generatorLagP99Ms: ownDelay.percentile(99) / 1e6
  }
}

const main = async () => {
  const child = ChildProcess.spawn(
    process.execPath,
    [
      ...(process.env["BENCH_PROFILE"] === "1" ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []),
      "--import",
      "tsx",
      Path.join(here, "server.ts")
    ],
    { env: { ...process.env, BENCH_KEY: key, BENCH_LIVE: live ? "1" : "0" }, stdio: ["ignore", "pipe", "inherit"] }
  )
  const stop = () => child.kill("SIGTERM")
  process.on("exit", stop)
  const info = await new Promise<{ baseUrl: string; live: boolean }>((resolve, reject) => {
    let buffer = ""
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString()
      const line = buffer.split("\n").find((l) => l.startsWith("{"))
      if (line !== undefined) resolve(JSON.parse(line) as { baseUrl: string; live: boolean })
    })
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)))
    setTimeout(() => reject(new Error("server did not start in 30 s")), 30_000).unref()
  })
  origin = info.baseUrl.replace(/\/v1$/, "")
  const tiny = new TextEncoder().encode("%PDF-1.4\n% simulated\n%%EOF\n")
  const pdfURL = await upload(tiny)
  const livePdfs: Array<string> = []
  if (live && Fs.existsSync(corpus)) {
    for (const name of ["tracemonkey.pdf", "TAMReview.pdf", "shared-mime-info-spec.pdf"]) {
      livePdfs.push(await upload(new Uint8Array(Fs.readFileSync(new URL(name, corpus)))))
    }
  }
  console.log(
    `server ${info.baseUrl} (pid ${child.pid}); ${pollers} pollers, one poll per ${pollIntervalMs} ms each, ${seconds} s per round; ` +
      `live conversions: ${
        livePdfs.length > 0 ? `yes (${livePdfs.length} corpus PDFs, 2 at a time, worker pool of 1)` : "no"
      }`
  )
  const results: Array<{ before: number | undefined; after: number | undefined; result: RoundResult }> = []
  for (const name of ["round 1", "round 2"]) {
    agent.destroy()
    agent = newAgent()
    await sleep(1000)
    const before = rssOf(child.pid!)
    const result = await round(pdfURL, livePdfs)
    const after = rssOf(child.pid!)
    results.push({ before, after, result })
    const { completed, errorKinds, errors, generatorLagP99Ms, liveConverted, liveFailed, requests, resultLatencies } =
      result
    const kinds = [...errorKinds].map(([kind, n]) => `${kind} x${n}`).join(", ")
    console.log(
      `${name}: ${(requests / seconds).toFixed(0)} requests/s (${requests} requests, ${errors} errors${
        kinds === "" ? "" : `: ${kinds}`
      }), ` +
        `result GET p50 ${percentile(resultLatencies, 50).toFixed(2)} ms, p99 ${
          percentile(resultLatencies, 99).toFixed(2)
        } ms, ` +
        `max ${percentile(resultLatencies, 100).toFixed(2)} ms; ${completed} simulated tasks ended; ` +
        `live: ${liveConverted} converted, ${liveFailed} failed; RSS ${mib(before)} -> ${mib(after)}; ` +
        `load generator's own event-loop lag p99 ${generatorLagP99Ms.toFixed(1)} ms`
    )
  }
  const second = results[1]!
  const p99 = percentile(second.result.resultLatencies, 99)
  const growth = second.before !== undefined && second.after !== undefined
    ? (second.after - second.before) / second.before
    : Number.NaN
  console.log(
    `targets: p99 < 50 ms: ${p99 < 50 ? "met" : "NOT met"} (${p99.toFixed(2)} ms); ` +
      `RSS growth over round 2 <= 10%: ${growth <= 0.1 ? "met" : "NOT met"} (${(growth * 100).toFixed(1)}%)`
  )
  agent.destroy()
  stop()
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
