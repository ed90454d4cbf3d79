/**
 * The server under load, in its own process (so the load generator does not share its event
 * loop): simulated conversions, except documents named `live-*`, which go to the live converter's
 * worker pool. Prints one JSON line `{ baseUrl }` once listening. Started by bench/load.ts.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Converter } from "@pdf-transform/converter/Converter"
import * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import * as Server from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"

const key = process.env["BENCH_KEY"] ?? "bench-key"
const useLive = process.env["BENCH_LIVE"] !== "0"

const routing = Layer.scoped(
  Converter,
  Effect.gen(function*() {
    const simulated = SimulatedConverter.make({ duration: "3 seconds", progressSteps: 6 })
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
  // The load generator drives the limits, not the limiter: it would only measure 429s.
  limits: { rate: false, quota: false, concurrency: false },
  // Short retention so the task store reaches a steady state within a round (memory is measured).
  conversions: { retention: "20 seconds", maxConcurrent: 1000 }
}).pipe(Layer.provide(routing))

const announce = Layer.effectDiscard(
  Effect.flatMap(
    Server.Server,
    ({ baseUrl }) => Effect.sync(() => console.log(JSON.stringify({ baseUrl, live: useLive })))
  )
)

announce.pipe(
  Layer.provide(server),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)),
  Layer.launch,
  NodeRuntime.runMain
)
