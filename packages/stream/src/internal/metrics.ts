/** The batch's metrics, as Effect `Metric`s (exported to whatever metrics layer the application runs). */
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import type { Final } from "../BatchEvent.js"

/** Tasks of the batch the service is running now. */
export const inFlightGauge = Metric.gauge("pdf_transform_batch_in_flight", {
  description: "Tasks submitted (or resumed) by a batch and not yet seen finished"
})

/** Jobs waiting for a free slot of the concurrency gate. */
export const waitingGauge = Metric.gauge("pdf_transform_batch_waiting", {
  description: "Jobs waiting for the concurrency gate"
})

/** The concurrency gate's current size. */
export const concurrencyLimitGauge = Metric.gauge("pdf_transform_batch_concurrency_limit", {
  description: "Tasks a batch allows in flight now (follows the service's hints)"
})

/** Jobs ended, by outcome (`completed`, `failed`, `skipped`, `ambiguous`, `not_attempted`). */
export const jobsCounter = Metric.counter("pdf_transform_batch_jobs", {
  description: "Jobs a batch ended, by outcome",
  incremental: true
})

/** 429 answers to submits, by reason. */
export const rateLimitedCounter = Metric.counter("pdf_transform_batch_rate_limited", {
  description: "Submits refused with 429, by reason",
  incremental: true
})

/** A gauge's `modify` adds to it: the count lives in the metric, whatever the batches running. */
export const inFlight = (delta: number): Effect.Effect<void> => Metric.modify(inFlightGauge, delta)

/** Counts `self` among the jobs waiting for the gate while it runs. */
export const waiting = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.acquireUseRelease(Metric.modify(waitingGauge, 1), () => self, () => Metric.modify(waitingGauge, -1))

export const concurrencyLimit = (limit: number): Effect.Effect<void> => Metric.set(concurrencyLimitGauge, limit)

// Each outcome's counter tagged once, not per job: `Metric.tagged` builds a new key each time.
const jobsEnded = {
  Completed: Metric.increment(Metric.tagged(jobsCounter, "outcome", "completed")),
  Failed: Metric.increment(Metric.tagged(jobsCounter, "outcome", "failed")),
  Skipped: Metric.increment(Metric.tagged(jobsCounter, "outcome", "skipped")),
  Ambiguous: Metric.increment(Metric.tagged(jobsCounter, "outcome", "ambiguous")),
  NotAttempted: Metric.increment(Metric.tagged(jobsCounter, "outcome", "not_attempted"))
} satisfies Record<Final["_tag"], Effect.Effect<void>>

/** Counts a job's end by its final event. */
export const jobEnded = (outcome: Final["_tag"]): Effect.Effect<void> => jobsEnded[outcome]

export const rateLimited = (reason: string): Effect.Effect<void> =>
  Metric.increment(Metric.tagged(rateLimitedCounter, "reason", reason))
