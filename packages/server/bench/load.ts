/**
 * Load benchmark of the reference server, loopback only, bounded in time and count: N pollers
 * (default 200), each owning a simulated task and polling its result at a fixed rate of one
 * request per BENCH_POLL_INTERVAL_MS (default 100) over its own keep-alive connection, submitting
 * a new task when one ends; meanwhile real corpus PDFs are converted by the live worker pool
 * (BENCH_LIVE=0 turns that off). A BENCH_WARMUP_SECONDS warm-up (default 10), then two identical
 * rounds of BENCH_SECONDS (default 30). Prints requests/s, p50/p99 of result GETs and the server's
 * RSS before and after each round (and its median and peak, sampled every 500 ms).
 *
 * Simulated tasks take 3 s +- BENCH_JITTER (default 0.5, i.e. 1.5-4.5 s); BENCH_JITTER=0 makes them
 * all equal, so the 200 tasks submitted together end together every ~3 s (a thundering herd).
 * The server runs bundled, with the converter's JavaScript build, as `pdf-transform serve` does
 * (bench/bundle.ts; BENCH_SOURCES=1 runs the TypeScript sources with tsx instead).
 * BENCH_METRICS (default "off,on"): a server without metrics, then one that records them and is
 * scraped every 5 s, each measured alike; the last line compares their p99 and rates ("off" or "on":
 * one of them).
 * BENCH_SERVER_STATS=1 has the server print its own event-loop delay every 10 s;
 * BENCH_SERVER_FLAGS passes Node flags to it (e.g. "--trace-gc"); BENCH_PROFILE=1 writes its CPU
 * profile to /tmp/prof.
 *
 *   pnpm --filter @pdf-transform/server bench
 */
import * as ChildProcess from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as PerfHooks from "node:perf_hooks"
import { serverEntry } from "./bundle.js"
import { Connection } from "./connection.js"

const pollers = Number(process.env["BENCH_POLLERS"] ?? 200)
const seconds = Number(process.env["BENCH_SECONDS"] ?? 30)
const warmupSeconds = Number(process.env["BENCH_WARMUP_SECONDS"] ?? 10)
const pollIntervalMs = Number(process.env["BENCH_POLL_INTERVAL_MS"] ?? 100)
const live = process.env["BENCH_LIVE"] !== "0"
const simulatedJitter = Number(process.env["BENCH_JITTER"] ?? 0.5)
const key = Crypto.randomBytes(16).toString("hex")
const corpus = new URL("../../../corpus/text/", import.meta.url)

let host = ""
let port = 0
// One keep-alive connection per poller (closed after each round) and per live slot (kept across rounds).
const connect = () => new Connection(host, port, `authorization: Bearer ${key}\r\n`)

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

// The server's CPU seconds (user and system), from /proc: on a shared machine, its cost a request
// moves less with the other processes than its rate does.
const cpuSecondsOf = (pid: number): number => {
  const fields = Fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const mib = (bytes: number | undefined) => bytes === undefined ? "n/a" : `${(bytes / 1024 / 1024).toFixed(1)} MiB`

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const upload = async (connection: Connection, bytes: Uint8Array): Promise<string> => {
  const answer = await connection.request("POST", "/v1/files", bytes, "application/pdf")
  if (answer.status !== 201) throw new Error(`upload: HTTP ${answer.status} ${answer.body}`)
  return (JSON.parse(answer.body) as { url: string }).url
}

const submit = async (
  connection: Connection,
  format: "markdown" | "epub",
  pdfURL: string,
  filename?: string
): Promise<string> => {
  const body = JSON.stringify({ pdfURL, model: "gundam", ...(filename === undefined ? {} : { filename }) })
  const answer = await connection.request("POST", `/v1/pdf-transform-${format}/submit`, body)
  if (answer.status !== 200) throw new Error(`submit: HTTP ${answer.status} ${answer.body}`)
  return (JSON.parse(answer.body) as { sessionID: string }).sessionID
}

interface Measured {
  readonly before: number | undefined
  readonly after: number | undefined
  readonly medianRss: number | undefined
  readonly peakRss: number | undefined
  readonly result: RoundResult
  readonly cpuSeconds: number
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

const lagResolutionMs = 10

/**
 * A live slot converts corpus PDFs one after another through the live worker pool. Its task goes
 * on across rounds (a round does not wait for a conversion that outlasts it, such as an OCR one).
 */
interface LiveSlot {
  readonly connection: Connection
  next: number
  task: string | undefined
}

const round = async (
  duration: number,
  pdfURL: string,
  livePdfs: ReadonlyArray<string>,
  slots: ReadonlyArray<LiveSlot>
): Promise<RoundResult> => {
  const deadline = performance.now() + duration * 1000
  // The generator shares the machine's cores: when its own event loop lags, a latency it measures
  // includes that lag, so it is reported next to the latencies.
  const ownDelay = PerfHooks.monitorEventLoopDelay({ resolution: lagResolutionMs })
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
    const connection = connect()
    // Spread the first polls over one interval so the pollers do not move in lockstep.
    await sleep((index / pollers) * pollIntervalMs)
    try {
      let task = await submit(connection, format, pdfURL)
      requests++
      // Fixed rate: poll i is due at start + i * interval, whatever the previous answer took. A
      // poller that sleeps a fixed interval after each answer drifts into step with the others after
      // any stall (every delayed answer delays the next request), and the load turns into bursts.
      let due = performance.now()
      while (performance.now() < deadline) {
        const started = performance.now()
        try {
          const answer = await connection.request("GET", `/v1/pdf-transform-${format}/result/${task}`)
          latencies.push(performance.now() - started)
          requests++
          if (answer.status !== 200) {
            countError(`HTTP ${answer.status}`)
          } else {
            const state = (JSON.parse(answer.body) as { state: string }).state
            if (state === "completed" || state === "failed") {
              completed++
              task = await submit(connection, format, pdfURL)
              requests++
            }
          }
        } catch (error) {
          countError((error as NodeJS.ErrnoException).code ?? String(error))
        }
        due += pollIntervalMs
        const wait = due - performance.now()
        // Behind schedule (a slow answer): poll now and go on from here rather than catch up in a burst.
        if (wait > 0) await sleep(wait)
        else due = performance.now()
      }
    } finally {
      connection.close()
    }
  }

  const liveLoop = async (slot: LiveSlot) => {
    while (performance.now() < deadline && livePdfs.length > 0) {
      try {
        if (slot.task === undefined) {
          const n = slot.next
          // The slots take turns through the list: slot 0 the even entries, slot 1 the odd ones.
          slot.next += slots.length
          slot.task = await submit(slot.connection, "markdown", livePdfs[n % livePdfs.length]!, `live-${n}`)
        }
        await sleep(250)
        const answer = await slot.connection.request("GET", `/v1/pdf-transform-markdown/result/${slot.task}`)
        const state = (JSON.parse(answer.body) as { state: string }).state
        if (state === "completed") liveConverted++
        if (state === "failed") liveFailed++
        if (state !== "processing") slot.task = undefined
      } catch (error) {
        countError(`live: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
        await sleep(250)
      }
    }
  }

  await Promise.all([
    ...Array.from({ length: pollers }, (_, i) => poller(i)),
    ...(live ? slots.map(liveLoop) : [])
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
    // The histogram records whole timer intervals: the lag is what exceeds the resolution.
    generatorLagP99Ms: Math.max(0, ownDelay.percentile(99) / 1e6 - lagResolutionMs)
  }
}

interface Session {
  readonly p99: number
  readonly requestsPerSecond: number
  readonly endedPerSecond: number
  readonly cpuPerRequestMs: number
}

const session = async (metrics: boolean): Promise<Session> => {
  console.log(`--- metrics ${metrics ? "on (recorded, scraped every 5 s)" : "off"}`)
  const child = ChildProcess.spawn(
    process.execPath,
    [
      ...(process.env["BENCH_PROFILE"] === "1" ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []),
      ...(process.env["BENCH_SERVER_FLAGS"] ?? "").split(" ").filter((flag) => flag !== ""),
      ...(await serverEntry())
    ],
    {
      env: {
        ...process.env,
        BENCH_KEY: key,
        BENCH_LIVE: live ? "1" : "0",
        BENCH_JITTER: String(simulatedJitter),
        BENCH_METRICS: metrics ? "1" : "0"
      },
      stdio: ["ignore", "pipe", "inherit"]
    }
  )
  const stop = () => child.kill("SIGTERM")
  process.on("exit", stop)
  const info = await new Promise<{ baseUrl: string; live: boolean; metricsUrl?: string }>((resolve, reject) => {
    let buffer = ""
    child.stdout.on("data", (chunk: Buffer) => {
      if (process.env["BENCH_SERVER_FLAGS"] !== undefined) process.stderr.write(chunk)
      buffer += chunk.toString()
      const line = buffer.split("\n").find((l) => l.startsWith("{"))
      if (line !== undefined) resolve(JSON.parse(line) as { baseUrl: string; live: boolean; metricsUrl?: string })
    })
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)))
    setTimeout(() => reject(new Error("server did not start in 30 s")), 30_000).unref()
  })
  const base = new URL(info.baseUrl)
  host = base.hostname
  port = Number(base.port)
  const setup = connect()
  const tiny = new TextEncoder().encode("%PDF-1.4\n% simulated\n%%EOF\n")
  const pdfURL = await upload(setup, tiny)
  const livePdfs: Array<string> = []
  if (live && Fs.existsSync(corpus)) {
    for (const name of ["tracemonkey.pdf", "TAMReview.pdf", "shared-mime-info-spec.pdf"]) {
      livePdfs.push(await upload(setup, new Uint8Array(Fs.readFileSync(new URL(name, corpus)))))
    }
  }
  console.log(
    `server ${info.baseUrl} (pid ${child.pid}); ${pollers} pollers, one poll per ${pollIntervalMs} ms each (fixed rate), ` +
      `${seconds} s per round after a ${warmupSeconds} s warm-up; simulated tasks 3 s +-${
        Math.round(simulatedJitter * 100)
      }%; ` +
      `live conversions: ${
        livePdfs.length > 0 ? `yes (${livePdfs.length} corpus PDFs, 2 at a time, worker pool of 1)` : "no"
      }`
  )
  setup.close()
  const slots: Array<LiveSlot> = [0, 1].map((next) => ({ connection: connect(), next, task: undefined }))
  // Warm-up, not measured: JIT, the conversion worker and OCR's engine start, the task store fills.
  if (warmupSeconds > 0) {
    const warm = await round(warmupSeconds, pdfURL, livePdfs, slots)
    console.log(`warm-up: ${warmupSeconds} s, ${warm.requests} requests, ${warm.errors} errors (not measured)`)
  }
  // As a Prometheus server would, more often than its usual 15 s: each scrape reads the task store.
  let scrapes = 0
  const scraper = info.metricsUrl === undefined ? undefined : setInterval(() => {
    void fetch(info.metricsUrl!).then((response) => response.text()).then(
      (text) => {
        if (text.includes("pdf_transform_http_requests_total")) scrapes++
      },
      (error: unknown) => console.error(`scrape failed: ${String(error)}`)
    )
  }, 5000)
  const results: Array<Measured> = []
  for (const name of ["round 1", "round 2"]) {
    await sleep(1000)
    const before = rssOf(child.pid!)
    // RSS sampled every 500 ms: one reading at each end moves with the garbage collector's timing.
    const samples: Array<number> = []
    const sampler = setInterval(() => {
      const rss = rssOf(child.pid!)
      if (rss !== undefined) samples.push(rss)
    }, 500)
    const cpuBefore = cpuSecondsOf(child.pid!)
    const result = await round(seconds, pdfURL, livePdfs, slots)
    const cpu = cpuSecondsOf(child.pid!) - cpuBefore
    clearInterval(sampler)
    const after = rssOf(child.pid!)
    const sorted = Float64Array.from(samples).sort()
    const measured: Measured = {
      before,
      after,
      medianRss: sorted.length === 0 ? undefined : percentile(sorted, 50),
      peakRss: sorted.length === 0 ? undefined : sorted[sorted.length - 1],
      result,
      cpuSeconds: cpu
    }
    results.push(measured)
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
        `live: ${liveConverted} converted, ${liveFailed} failed, ${
          slots.filter((slot) => slot.task !== undefined).length
        } in progress; RSS ${mib(before)} -> ${mib(after)} ` +
        `(median ${mib(measured.medianRss)}, peak ${mib(measured.peakRss)}); ` +
        `server CPU ${(cpu * 1000 / Math.max(1, requests)).toFixed(2)} ms a request; ` +
        `load generator's own event-loop lag p99 ${generatorLagP99Ms.toFixed(1)} ms`
    )
  }
  const [first, second] = [results[0]!, results[1]!]
  const p99 = Math.max(...results.map(({ result }) => percentile(result.resultLatencies, 99)))
  const growth = first.medianRss !== undefined && second.medianRss !== undefined
    ? (second.medianRss - first.medianRss) / first.medianRss
    : Number.NaN
  console.log(
    `targets: p99 < 50 ms in both rounds: ${p99 < 50 ? "met" : "NOT met"} (worst ${p99.toFixed(2)} ms); ` +
      `RSS growth from round 1 to round 2 (medians) <= 10%: ${growth <= 0.1 ? "met" : "NOT met"} (${
        (growth * 100).toFixed(1)
      }%)`
  )
  if (scraper !== undefined) {
    clearInterval(scraper)
    console.log(`metrics scraped ${scrapes} times`)
  }
  for (const slot of slots) slot.connection.close()
  // Let the server shut down (and write its profile, with BENCH_PROFILE=1) before leaving.
  const exited = new Promise((resolve) => child.once("exit", resolve))
  stop()
  await Promise.race([exited, sleep(15_000)])
  process.off("exit", stop)
  const measured = seconds * results.length
  return {
    p99,
    requestsPerSecond: results.reduce((sum, { result }) => sum + result.requests, 0) / measured,
    endedPerSecond: results.reduce((sum, { result }) => sum + result.completed, 0) / measured,
    cpuPerRequestMs: results.reduce((sum, { cpuSeconds }) => sum + cpuSeconds, 0) * 1000 /
      Math.max(1, results.reduce((sum, { result }) => sum + result.requests, 0))
  }
}

const main = async () => {
  const modes = (process.env["BENCH_METRICS"] ?? "off,on").split(",").map((mode) => mode.trim())
  const sessions = new Map<string, Session>()
  for (const mode of modes) sessions.set(mode, await session(mode === "on"))
  const off = sessions.get("off")
  const on = sessions.get("on")
  if (off !== undefined && on !== undefined) {
    const change = (a: number, b: number) => `${b >= a ? "+" : ""}${((b / a - 1) * 100).toFixed(1)}%`
    console.log(
      `metrics on against off: result GET p99 ${off.p99.toFixed(2)} -> ${on.p99.toFixed(2)} ms (${
        change(off.p99, on.p99)
      }), requests/s ${off.requestsPerSecond.toFixed(0)} -> ${on.requestsPerSecond.toFixed(0)} (${
        change(off.requestsPerSecond, on.requestsPerSecond)
      }), tasks submitted and ended/s ${off.endedPerSecond.toFixed(1)} -> ${on.endedPerSecond.toFixed(1)} (${
        change(off.endedPerSecond, on.endedPerSecond)
      }), server CPU a request ${off.cpuPerRequestMs.toFixed(2)} -> ${on.cpuPerRequestMs.toFixed(2)} ms (${
        change(off.cpuPerRequestMs, on.cpuPerRequestMs)
      }); target: p99 and rates within 5%`
    )
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
