/**
 * The server under load, in its own process (so the load generator does not share its event
 * loop): simulated conversions, except documents named `live-*`, which go to the live converter's
 * worker pool. Prints one JSON line `{ baseUrl }` once listening. Started by bench/load.ts.
 * BENCH_METRICS=1: metrics recorded and served in the Prometheus format (`metricsUrl` in that line);
 * BENCH_METRICS_REFRESH (e.g. "5 seconds"): how often the cluster's task counts are read into them.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Converter } from "@pdf-transform/converter/Converter"
import * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import { Duration, Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import * as PerfHooks from "node:perf_hooks"
import * as Server from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import * as Telemetry from "../src/Telemetry.js"

// The server's own event-loop delay (beyond the 5 ms sampling interval) and utilisation, every 10 s on stderr.
if (process.env["BENCH_SERVER_STATS"] === "1") {
  const delay = PerfHooks.monitorEventLoopDelay({ resolution: 5 })
  const lagOf = (nanos: number) => Math.max(0, nanos / 1e6 - 5).toFixed(1)
  delay.enable()
  let elu = PerfHooks.performance.eventLoopUtilization()
  setInterval(() => {
    const now = PerfHooks.performance.eventLoopUtilization(elu)
    elu = PerfHooks.performance.eventLoopUtilization()
    console.error(
      `server (metrics ${process.env["BENCH_METRICS"] === "1" ? "on" : "off"}) loop: delay p50 ${
        lagOf(delay.percentile(50))
      } p99 ${lagOf(delay.percentile(99))} max ${lagOf(delay.max)} ms, utilisation ${
        (now.utilization * 100).toFixed(0)
      }%`
    )
    delay.reset()
  }, 10_000).unref()
}

const key = process.env["BENCH_KEY"] ?? "bench-key"
const useLive = process.env["BENCH_LIVE"] !== "0"
const withMetrics = process.env["BENCH_METRICS"] === "1"

const routing = Layer.scoped(
  Converter,
  Effect.gen(function*() {
    const simulated = SimulatedConverter.make({
      duration: "3 seconds",
      jitter: Number(process.env["BENCH_JITTER"] ?? 0.5),
      progressSteps: 6
    })
    if (!useLive) return simulated
    const live = yield* ConverterLive.makePool({ size: 1 }).pipe(Effect.orDie)
    const pick = (filename: string | undefined) => filename?.startsWith("live-") === true ? live : simulated
    return {
      toMarkdown: (pdf, options) => pick(options?.filename).toMarkdown(pdf, options),
      toEpub: (pdf, options) => pick(options?.filename).toEpub(pdf, options)
    }
  })
)

const server = Server.layer({
  keys: [Redacted.make(key)],
  port: 0,
  metrics: withMetrics,
  ...(process.env["BENCH_METRICS_REFRESH"] === undefined
    ? {}
    : { metricsRefresh: process.env["BENCH_METRICS_REFRESH"] as Duration.DurationInput }),
  // The load generator drives the limits, not the limiter: it would only measure 429s.
  limits: { rate: false, quota: false, concurrency: false },
  // A live conversion outlasts any drain: the bench stops the server without waiting for it.
  drainTimeout: "1 second",
  // Short retention so the task store reaches a steady state within a round (memory is measured).
  conversions: {
    retention: Duration.decode((process.env["BENCH_RETENTION"] ?? "20 seconds") as Duration.DurationInput),
    maxConcurrent: Number(process.env["BENCH_MAX_CONCURRENT"] ?? 1000)
  },
  // BENCH_DATA_DIR: the store on disk (SQLite file, write-ahead log) instead of in memory;
  // BENCH_DATABASE_URL: a shared PostgreSQL database instead.
  ...(process.env["BENCH_DATA_DIR"] === undefined ? {} : { dataDir: process.env["BENCH_DATA_DIR"] }),
  ...(process.env["BENCH_DATABASE_URL"] === undefined
    ? {}
    : {
      database: PgClient.layer({ url: Redacted.make(process.env["BENCH_DATABASE_URL"]) }),
      ...(process.env["BENCH_NODE_ID"] === undefined ? {} : { node: { id: process.env["BENCH_NODE_ID"] } })
    })
}).pipe(
  Layer.provide(routing),
  (layer) => withMetrics ? Layer.provideMerge(Telemetry.metrics({ port: 0 }), layer) : layer
)

const announce = Layer.effectDiscard(
  Effect.gen(function*() {
    const { baseUrl } = yield* Server.Server
    const listener = yield* Effect.serviceOption(Telemetry.MetricsListener)
    const metricsUrl = listener._tag === "Some" && listener.value.address._tag === "TcpAddress"
      ? `http://127.0.0.1:${listener.value.address.port}/metrics`
      : undefined
    console.log(JSON.stringify({ baseUrl, live: useLive, metricsUrl }))
  })
)

announce.pipe(
  Layer.provide(server),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)),
  Layer.launch,
  NodeRuntime.runMain
)
