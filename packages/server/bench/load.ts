/**
 * Load benchmark of the reference server, loopback only, bounded in time and count: N pollers
 * (default 200), each owning a simulated task and polling its result at a fixed rate of one
 * request per BENCH_POLL_INTERVAL_MS (default 100) over its own keep-alive connection, submitting
 * a new task when one ends; meanwhile real corpus PDFs are converted by the live worker pool
 * (BENCH_LIVE=0 turns that off).
 *
 * BENCH_METRICS (default "off,on"): one server without metrics and one that records them and is
 * scraped every BENCH_SCRAPE_MS (default 5000; a large value records without scraping; the task
 * counts a scrape serves are read every BENCH_METRICS_REFRESH, the server's default 15 s), loaded
 * together (each its own pollers, at the same time) for BENCH_ROUNDS (default 4) rounds of
 * BENCH_SECONDS (default 20) after a BENCH_WARMUP_SECONDS warm-up (default 10): both saturate, so
 * what falls on the machine falls on both alike, and what separates them is what a request costs
 * each. Two different modes are measured in BENCH_SITTINGS (default 2) sittings, the rounds
 * shared among them, each launching the servers anew and in the other order than the one before
 * (the launch order changed the comparison: metrics on cost ~1% launched second, ~8% first). BENCH_TOGETHER=0 measures
 * them in turn (off on, on off, ...). Prints
 * per round requests/s, p50/p99 of result GETs, submits/s, RSS and the main thread's CPU a request;
 * then per server the rounds pooled and their spread; the last lines compare the two ("off" or
 * "on" alone: one server, as the absolute figures are judged; "off,off": two equal servers, the
 * bench's own noise).
 *
 * Simulated tasks take 3 s +- BENCH_JITTER (default 0.5, i.e. 1.5-4.5 s); BENCH_JITTER=0 makes them
 * all equal, so the 200 tasks submitted together end together every ~3 s (a thundering herd).
 * The server runs bundled, with the converter's JavaScript build, as `pdf-transform serve` does
 * (bench/bundle.ts; BENCH_SOURCES=1 runs the TypeScript sources with tsx instead).
 * BENCH_SERVER_STATS=1 has the server print its own event-loop delay every 10 s;
 * BENCH_SERVER_FLAGS passes Node flags to it (e.g. "--trace-gc"); BENCH_PROFILE=1 writes its CPU
 * profile to /tmp/prof.
 *
 *   pnpm --filter @pdf-transform/server bench
 */
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as PerfHooks from "node:perf_hooks"
import { serverEntry } from "./bundle.js"
import * as Child from "./child.js"
import { Connection } from "./connection.js"

const pollers = Number(process.env["BENCH_POLLERS"] ?? 200)
const seconds = Number(process.env["BENCH_SECONDS"] ?? 20)
const pairs = Number(process.env["BENCH_ROUNDS"] ?? 4)
const sittings = Number(process.env["BENCH_SITTINGS"] ?? 2)
const together = process.env["BENCH_TOGETHER"] !== "0"
const warmupSeconds = Number(process.env["BENCH_WARMUP_SECONDS"] ?? 10)
const pollIntervalMs = Number(process.env["BENCH_POLL_INTERVAL_MS"] ?? 100)
const live = process.env["BENCH_LIVE"] !== "0"
const simulatedJitter = Number(process.env["BENCH_JITTER"] ?? 0.5)
const key = Crypto.randomBytes(16).toString("hex")
const corpus = new URL("../../../corpus/text/", import.meta.url)
const scrapeEveryMs = Number(process.env["BENCH_SCRAPE_MS"] ?? 5000)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const mib = (bytes: number | undefined) => bytes === undefined ? "n/a" : `${(bytes / 1024 / 1024).toFixed(1)} MiB`

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!
}

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

/**
 * A live slot converts corpus PDFs one after another through the live worker pool. Its task goes
 * on across rounds (a round does not wait for a conversion that outlasts it, such as an OCR one).
 */
interface LiveSlot {
  readonly connection: Connection
  next: number
  task: string | undefined
}

/** One server under test, with what its rounds need. */
interface Target {
  readonly mode: string
  readonly server: Child.BenchServer
  readonly connect: () => Connection
  readonly pdfURL: string
  readonly livePdfs: ReadonlyArray<string>
  readonly slots: ReadonlyArray<LiveSlot>
  readonly rounds: Array<Measured>
  /** How long each scrape took to answer, in milliseconds. */
  readonly scrapes: Array<number>
}

interface RoundResult {
  readonly requests: number
  readonly submits: number
  readonly resultLatencies: Float64Array
  readonly errors: number
  readonly errorKinds: ReadonlyMap<string, number>
  readonly completed: number
  readonly liveConverted: number
  readonly liveFailed: number
  readonly generatorLagP99Ms: number
}

interface Measured {
  readonly result: RoundResult
  readonly medianRss: number | undefined
  readonly peakRss: number | undefined
  readonly mainCpuSeconds: number
  readonly processCpuSeconds: number
}

const lagResolutionMs = 10

const round = async (target: Target, duration: number): Promise<RoundResult> => {
  const { livePdfs, pdfURL, slots } = target
  const deadline = performance.now() + duration * 1000
  // The generator shares the machine's cores: when its own event loop lags, a latency it measures
  // includes that lag, so it is reported next to the latencies.
  const ownDelay = PerfHooks.monitorEventLoopDelay({ resolution: lagResolutionMs })
  ownDelay.enable()
  const latencies: Array<number> = []
  let requests = 0
  let submits = 0
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
    const connection = target.connect()
    // Spread the first polls over one interval so the pollers do not move in lockstep.
    await sleep((index / pollers) * pollIntervalMs)
    try {
      let task = await submit(connection, format, pdfURL)
      requests++
      submits++
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
              submits++
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

  // As a Prometheus server would, more often than its usual 15 s: each scrape reads the task store.
  const metricsUrl = target.server.announced.metricsUrl
  const scraper = metricsUrl === undefined ? undefined : setInterval(() => {
    const started = performance.now()
    void fetch(metricsUrl).then((response) => response.text()).then(
      (text) => {
        if (text.includes("pdf_transform_http_requests_total")) target.scrapes.push(performance.now() - started)
      },
      (error: unknown) => console.error(`scrape failed: ${String(error)}`)
    )
  }, scrapeEveryMs)
  await Promise.all([
    ...Array.from({ length: pollers }, (_, i) => poller(i)),
    ...(live ? slots.map(liveLoop) : [])
  ])
  clearInterval(scraper)
  ownDelay.disable()
  const sorted = Float64Array.from(latencies).sort()
  return {
    requests,
    submits,
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

const launch = async (entry: ReadonlyArray<string>, metricsMode: string, mode: string): Promise<Target> => {
  const metrics = metricsMode === "on"
  const server = await Child.start(entry, {
    BENCH_KEY: key,
    BENCH_LIVE: live ? "1" : "0",
    BENCH_JITTER: String(simulatedJitter),
    BENCH_METRICS: metrics ? "1" : "0"
  })
  const base = new URL(server.announced.baseUrl)
  const connect = () => new Connection(base.hostname, Number(base.port), `authorization: Bearer ${key}\r\n`)
  const setup = connect()
  const pdfURL = await upload(setup, new TextEncoder().encode("%PDF-1.4\n% simulated\n%%EOF\n"))
  const livePdfs: Array<string> = []
  if (live && Fs.existsSync(corpus)) {
    for (const name of ["tracemonkey.pdf", "TAMReview.pdf", "shared-mime-info-spec.pdf"]) {
      livePdfs.push(await upload(setup, new Uint8Array(Fs.readFileSync(new URL(name, corpus)))))
    }
  }
  setup.close()
  console.log(
    `metrics ${mode}${
      metrics
        ? ` (recorded, scraped every ${scrapeEveryMs / 1000} s, task counts read every ${
          process.env["BENCH_METRICS_REFRESH"] ?? "15 s"
        })`
        : ""
    }: server ${server.announced.baseUrl} (pid ${server.pid})`
  )
  const slots: Array<LiveSlot> = [0, 1].map((next) => ({ connection: connect(), next, task: undefined }))
  return { mode, server, connect, pdfURL, livePdfs, slots, rounds: [], scrapes: [] }
}

const measure = async (target: Target, name: string): Promise<void> => {
  const { pid } = target.server
  // RSS sampled every 500 ms: one reading at each end moves with the garbage collector's timing.
  const samples: Array<number> = []
  const sampler = setInterval(() => {
    const rss = Child.rssOf(pid)
    if (rss !== undefined) samples.push(rss)
  }, 500)
  const cpuBefore = Child.cpuOf(pid)
  const result = await round(target, seconds)
  const cpuAfter = Child.cpuOf(pid)
  clearInterval(sampler)
  const sorted = Float64Array.from(samples).sort()
  const measured: Measured = {
    result,
    medianRss: sorted.length === 0 ? undefined : percentile(sorted, 50),
    peakRss: sorted.length === 0 ? undefined : sorted[sorted.length - 1],
    mainCpuSeconds: cpuAfter.main - cpuBefore.main,
    processCpuSeconds: cpuAfter.process - cpuBefore.process
  }
  target.rounds.push(measured)
  const { completed, errorKinds, errors, generatorLagP99Ms, liveConverted, liveFailed, requests, resultLatencies } =
    result
  const kinds = [...errorKinds].map(([kind, n]) => `${kind} x${n}`).join(", ")
  const perRequest = (cpu: number) => (cpu * 1000 / Math.max(1, requests)).toFixed(3)
  console.log(
    `${name}, metrics ${target.mode}: ${
      (requests / seconds).toFixed(0)
    } requests/s (${requests} requests, ${errors} errors${kinds === "" ? "" : `: ${kinds}`}), result GET p50 ${
      percentile(resultLatencies, 50).toFixed(2)
    } ms, p99 ${percentile(resultLatencies, 99).toFixed(2)} ms, max ${
      percentile(resultLatencies, 100).toFixed(2)
    } ms; ${
      (result.submits / seconds).toFixed(1)
    } submits/s, ${completed} simulated tasks ended; live: ${liveConverted} converted, ${liveFailed} failed, ${
      target.slots.filter((slot) => slot.task !== undefined).length
    } in progress; RSS median ${mib(measured.medianRss)}, peak ${mib(measured.peakRss)}; ` +
      `main thread CPU ${perRequest(measured.mainCpuSeconds)} ms a request (process ${
        perRequest(measured.processCpuSeconds)
      }); generator's own event-loop lag p99 ${generatorLagP99Ms.toFixed(1)} ms`
  )
}

interface Summary {
  readonly p99: number
  readonly requestsPerSecond: number
  readonly submitsPerSecond: number
  readonly mainCpuPerRequestMs: number
}

const summarise = ({ rounds }: Target): Summary => {
  const requests = rounds.reduce((sum, { result }) => sum + result.requests, 0)
  const pooled = Float64Array.from(rounds.flatMap(({ result }) => [...result.resultLatencies])).sort()
  return {
    p99: percentile(pooled, 99),
    requestsPerSecond: requests / (seconds * rounds.length),
    submitsPerSecond: rounds.reduce((sum, { result }) => sum + result.submits, 0) / (seconds * rounds.length),
    mainCpuPerRequestMs: rounds.reduce((sum, { mainCpuSeconds }) => sum + mainCpuSeconds, 0) * 1000 /
      Math.max(1, requests)
  }
}

const range = (values: ReadonlyArray<number>, digits: number) => {
  const low = Math.min(...values)
  const high = Math.max(...values)
  return `${low.toFixed(digits)}-${high.toFixed(digits)} (${((high / low - 1) * 100).toFixed(1)}% apart)`
}

const change = (a: number, b: number) => `${b >= a ? "+" : ""}${((b / a - 1) * 100).toFixed(1)}%`

const report = (target: Target): Summary => {
  const summary = summarise(target)
  const { rounds } = target
  const p99s = rounds.map(({ result }) => percentile(result.resultLatencies, 99))
  const rates = rounds.map(({ result }) => result.requests / seconds)
  const submits = rounds.map(({ result }) => result.submits / seconds)
  const cpus = rounds.map(({ mainCpuSeconds, result }) => mainCpuSeconds * 1000 / Math.max(1, result.requests))
  const rss = rounds.map(({ medianRss }) => medianRss ?? Number.NaN)
  console.log(
    `metrics ${target.mode}, ${rounds.length} rounds pooled: result GET p99 ${summary.p99.toFixed(2)} ms, ` +
      `${summary.requestsPerSecond.toFixed(0)} requests/s, ${summary.submitsPerSecond.toFixed(1)} submits/s, ` +
      `main thread CPU ${summary.mainCpuPerRequestMs.toFixed(3)} ms a request${
        target.server.announced.metricsUrl === undefined ?
          "" :
          `; scraped ${target.scrapes.length} times, each answered in ${
            median(target.scrapes).toFixed(1)
          } ms (median), ${Math.max(...target.scrapes).toFixed(1)} ms at most`
      }\n  its rounds: p99 ${range(p99s, 1)} ms, requests/s ${range(rates, 0)}, submits/s ${
        range(submits, 1)
      }, CPU a request ${range(cpus, 3)} ms; RSS median first to last round ${mib(rss[0])} -> ${
        mib(rss[rss.length - 1])
      } (${change(rss[0]!, rss[rss.length - 1]!)}); worst round p99 < 50 ms: ${
        Math.max(...p99s) < 50 ? "met" : "NOT met"
      }`
  )
  return summary
}

/** One sitting: the servers launched in `modes`' order, warmed up, measured for `rounds` rounds, stopped. */
const sitting = async (entry: ReadonlyArray<string>, modes: ReadonlyArray<string>, rounds: number) => {
  const targets: Array<Target> = []
  // A mode named twice ("off,off") is an A/A run: what separates two equal servers is the bench's own noise.
  for (const [i, mode] of modes.entries()) {
    targets.push(await launch(entry, mode, modes.indexOf(mode) === i ? mode : `${mode} (2)`))
  }
  try {
    // Warm-up, not measured: JIT, the conversion worker and OCR's engine start, the task store fills.
    if (warmupSeconds > 0) {
      const warmUp = async (target: Target) => {
        const warm = await round(target, warmupSeconds)
        console.log(`warm-up, metrics ${target.mode}: ${warm.requests} requests, ${warm.errors} errors (not measured)`)
      }
      if (together) await Promise.all(targets.map(warmUp))
      else for (const target of targets) await warmUp(target)
    }
    for (let pair = 0; pair < rounds; pair++) {
      await sleep(1000)
      // Each round in the other order than the one before: who starts first, or goes first, gains nothing.
      const order = pair % 2 === 0 ? targets : [...targets].reverse()
      if (together) await Promise.all(order.map((target) => measure(target, `round ${pair + 1}`)))
      else for (const target of order) await measure(target, `pair ${pair + 1}`)
    }
  } finally {
    for (const target of targets) for (const slot of target.slots) slot.connection.close()
    // Let each server drain and exit (writing its profile, with BENCH_PROFILE=1) before leaving.
    await Promise.all(targets.map((target) => target.server.stop(20_000)))
  }
  return targets
}

/** Each mode's rounds and scrapes of every sitting, as one target (the first sitting's server). */
const pooled = (sittings: ReadonlyArray<ReadonlyArray<Target>>, mode: string): Target => {
  const of = sittings.map((targets) => targets.find((target) => target.mode === mode)!)
  return { ...of[0]!, rounds: of.flatMap((target) => target.rounds), scrapes: of.flatMap((target) => target.scrapes) }
}

const main = async () => {
  const modes = (process.env["BENCH_METRICS"] ?? "off,on").split(",").map((mode) => mode.trim())
  const entry = await serverEntry()
  // An A/A run keeps its launch order: "off" is the server launched first in every sitting.
  const count = modes.length !== 2 ? 1 : modes[0] !== modes[1] ? sittings : Number(process.env["BENCH_SITTINGS"] ?? 1)
  console.log(
    `${pollers} pollers per server, one poll per ${pollIntervalMs} ms each (fixed rate), ${
      together
        ? `${pairs} rounds of ${seconds} s, the servers loaded together,`
        : `${pairs} pairs of ${seconds} s rounds in turn`
    } after a ${warmupSeconds} s warm-up; simulated tasks 3 s +-${Math.round(simulatedJitter * 100)}%; ` +
      `live conversions: ${live ? "yes (3 corpus PDFs, 2 at a time, worker pool of 1, niced)" : "no"}` +
      (count > 1 ? `; in ${count} sittings, launched anew in each` : "")
  )
  // The launch order changed the comparison: two sittings, the second launching the servers in the
  // other order, so that order favours neither.
  const sat: Array<ReadonlyArray<Target>> = []
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? modes : [...modes].reverse()
    console.log(`sitting ${i + 1} of ${count}: launched ${order.join(", then ")}`)
    sat.push(await sitting(entry, order, Math.ceil(pairs / count)))
  }
  const targets = [...new Set(sat[0]!.map((target) => target.mode))].map((mode) => pooled(sat, mode))
  const summaries = targets.map(report)
  if (targets.length !== 2) return
  const [first, second] = targets as [Target, Target]
  const [off, on] = summaries as [Summary, Summary]
  const [offRounds, onRounds] = [first.rounds, second.rounds]
  const versus = `${second.mode} against ${first.mode}`
  const pairRatios = (of: (round: Measured) => number) =>
    offRounds.map((round, i) => (of(onRounds[i]!) / of(round) - 1) * 100)
  const spread = (values: ReadonlyArray<number>) =>
    `${values.map((value) => `${value >= 0 ? "+" : ""}${value.toFixed(1)}`).join(", ")}% (median ${
      median(values).toFixed(1)
    }%)`
  console.log(
    `${together ? "round by round" : "pair by pair"}, ${versus}: result GET p99 ${
      spread(pairRatios(({ result }) => percentile(result.resultLatencies, 99)))
    }; requests/s ${spread(pairRatios(({ result }) => result.requests))}; submits/s ${
      spread(pairRatios(({ result }) => result.submits))
    }; main thread CPU a request ${
      spread(pairRatios(({ mainCpuSeconds, result }) => mainCpuSeconds / Math.max(1, result.requests)))
    }`
  )
  for (const [i, targets] of sat.entries()) {
    if (count === 1) break
    const [a, b] = [first.mode, second.mode].map((mode) => summarise(targets.find((target) => target.mode === mode)!))
    console.log(
      `sitting ${i + 1} (${targets[0]!.mode} launched first), ${versus}: result GET p99 ${change(a!.p99, b!.p99)}, ` +
        `submits/s ${change(a!.submitsPerSecond, b!.submitsPerSecond)}, main thread CPU a request ${
          change(a!.mainCpuPerRequestMs, b!.mainCpuPerRequestMs)
        }`
    )
  }
  const within = (a: number, b: number) => Math.abs(b / a - 1) <= 0.05
  const met = within(off.p99, on.p99) && within(off.submitsPerSecond, on.submitsPerSecond)
  console.log(
    `metrics ${versus}, rounds pooled: result GET p99 ${off.p99.toFixed(2)} -> ${on.p99.toFixed(2)} ms (${
      change(off.p99, on.p99)
    }), submits/s ${off.submitsPerSecond.toFixed(1)} -> ${on.submitsPerSecond.toFixed(1)} (${
      change(off.submitsPerSecond, on.submitsPerSecond)
    }), requests/s ${off.requestsPerSecond.toFixed(0)} -> ${on.requestsPerSecond.toFixed(0)} (${
      change(off.requestsPerSecond, on.requestsPerSecond)
    }), main thread CPU a request ${off.mainCpuPerRequestMs.toFixed(3)} -> ${on.mainCpuPerRequestMs.toFixed(3)} ms (${
      change(off.mainCpuPerRequestMs, on.mainCpuPerRequestMs)
    }); target p99 and submits/s within 5%: ${met ? "met" : "NOT met"}`
  )
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
