/**
 * What the server counts, as Effect metrics an exporter reads (`Telemetry`): requests, submits, refusals,
 * conversions, claims, storage failures and the cluster's tasks. Recorded only with `metrics: true`.
 */
import type { Format, RateLimitReason } from "@pdf-transform/core/Contract"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import * as MetricLabel from "effect/MetricLabel"
import type { TaskState } from "./store.js"

/** Which engine path a conversion took: text layers only, or OCR for some pages. */
export type Engine = "text" | "ocr"

export interface Recorder {
  /** A request answered: synchronous, as it is called on every request. */
  readonly request: (route: string, method: string, status: number, seconds: number) => void
  readonly submitted: (format: Format) => Effect.Effect<void>
  readonly rateLimited: (reason: RateLimitReason) => Effect.Effect<void>
  /** A conversion ended here: with its output (its engine and pages), or failed. */
  readonly converted: (
    format: Format,
    seconds: number,
    outcome: { readonly engine: Engine; readonly pages: number } | "failed"
  ) => Effect.Effect<void>
  /** A conversion started (1) or ended (-1) on this node. */
  readonly running: (change: 1 | -1) => Effect.Effect<void>
  /** A task was claimed that had been claimed before (its node died, stopped or let it go). */
  readonly takenOver: Effect.Effect<void>
  readonly storageFailed: (operation: string) => Effect.Effect<void>
  /** The cluster's tasks by state, and how many of the processing ones no node holds. */
  readonly stored: (byState: Readonly<Record<TaskState, number>>, waiting: number) => Effect.Effect<void>
}

export const noRecorder: Recorder = {
  request: () => {},
  submitted: () => Effect.void,
  rateLimited: () => Effect.void,
  converted: () => Effect.void,
  running: () => Effect.void,
  takenOver: Effect.void,
  storageFailed: () => Effect.void,
  stored: () => Effect.void
}

const prefix = "pdf_transform_"

const noLabels: ReadonlyArray<MetricLabel.MetricLabel> = []

/** Request latencies from a millisecond to half a minute. */
const latencyBoundaries = MetricBoundaries.fromIterable([
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30
])

/** Conversion times from a tenth of a second to the default time limit. */
const conversionBoundaries = MetricBoundaries.fromIterable([0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 300])

/** One tagged metric per set of tags, made once and found without building a key: requests come by the thousand. */
const cached = <M>(make: (...tags: ReadonlyArray<string>) => M) => {
  const root = new Map<string, unknown>()
  return (...tags: ReadonlyArray<string>): M => {
    let level = root
    for (let i = 0; i < tags.length - 1; i++) {
      let next = level.get(tags[i]!) as Map<string, unknown> | undefined
      if (next === undefined) {
        next = new Map()
        level.set(tags[i]!, next)
      }
      level = next
    }
    const last = tags[tags.length - 1]!
    let metric = level.get(last) as M | undefined
    if (metric === undefined) {
      metric = make(...tags)
      level.set(last, metric)
    }
    return metric
  }
}

// One array of labels: chained Metric.tagged joins new arrays at each update, so the metric's hook
// cache (keyed by that array) missed and every update looked its key up in the registry again.
const tagged = <T, I, O>(metric: Metric.Metric<T, I, O>, names: ReadonlyArray<string>, values: ReadonlyArray<string>) =>
  Metric.taggedWithLabels(metric, names.map((name, i) => MetricLabel.make(name, values[i]!)))

export const makeRecorder = (): Recorder => {
  const requests = cached((route, method, status) =>
    tagged(
      Metric.counter(`${prefix}http_requests`, { description: "HTTP requests answered", incremental: true }),
      ["route", "method", "status"],
      [route!, method!, status!]
    )
  )
  const latency = cached((route, method) =>
    tagged(
      Metric.histogram(`${prefix}http_request_duration_seconds`, latencyBoundaries, "Time to answer a request"),
      ["route", "method"],
      [route!, method!]
    )
  )
  const submits = cached((format) =>
    tagged(Metric.counter(`${prefix}tasks_submitted`, { description: "Tasks accepted", incremental: true }), [
      "format"
    ], [format!])
  )
  const refusals = cached((reason) =>
    tagged(Metric.counter(`${prefix}rate_limited`, { description: "Submits answered 429", incremental: true }), [
      "reason"
    ], [reason!])
  )
  const conversions = cached((format, engine, outcome) =>
    tagged(
      Metric.histogram(`${prefix}conversion_duration_seconds`, conversionBoundaries, "Conversions ended here"),
      ["format", "engine", "outcome"],
      [format!, engine!, outcome!]
    )
  )
  const pages = cached((format, engine) =>
    tagged(Metric.counter(`${prefix}pages_converted`, { description: "Pages converted", incremental: true }), [
      "format",
      "engine"
    ], [format!, engine!])
  )
  const running = Metric.gauge(`${prefix}conversions_running`, { description: "Conversions running on this node" })
  const takeovers = Metric.counter(`${prefix}claim_takeovers`, {
    description: "Claims on tasks claimed before (their node died, stopped or let them go)",
    incremental: true
  })
  const storageErrors = cached((operation) =>
    tagged(
      Metric.counter(`${prefix}storage_errors`, { description: "Storage operations that failed", incremental: true }),
      ["operation"],
      [operation!]
    )
  )
  const tasks = cached((state) =>
    tagged(Metric.gauge(`${prefix}tasks`, { description: "Tasks kept, by state (the whole cluster)" }), ["state"], [
      state!
    ])
  )
  const waiting = Metric.gauge(`${prefix}tasks_waiting`, {
    description: "Processing tasks no node has claimed yet (the whole cluster)"
  })
  return {
    // Every request: one step, without the fiber's metric labels (the server sets none).
    request: (route, method, status, seconds) => {
      requests(route, method, String(status)).unsafeUpdate(1, noLabels)
      latency(route, method).unsafeUpdate(seconds, noLabels)
    },
    submitted: (format) => Metric.increment(submits(format)),
    rateLimited: (reason) => Metric.increment(refusals(reason)),
    converted: (format, seconds, outcome) =>
      outcome === "failed"
        ? Metric.update(conversions(format, "none", "failed"), seconds)
        : Effect.zipRight(
          Metric.update(conversions(format, outcome.engine, "completed"), seconds),
          Metric.incrementBy(pages(format, outcome.engine), outcome.pages)
        ),
    running: (change) => Metric.incrementBy(running, change),
    takenOver: Metric.increment(takeovers),
    storageFailed: (operation) => Metric.increment(storageErrors(operation)),
    stored: (byState, count) =>
      Effect.zipRight(
        Effect.forEach(Object.entries(byState), ([state, n]) => Metric.set(tasks(state), n), { discard: true }),
        Metric.set(waiting, count)
      )
  }
}
