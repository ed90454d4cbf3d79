/** The one retry policy of the client, the uploaders and the batch, and which failures it retries.
 * @since 0.1.0 */
import type * as Duration from "effect/Duration"
import * as Schedule from "effect/Schedule"

/** @since 0.1.0
 * @category models */
export interface BackoffOptions {
  /** The first delay. */
  readonly initial: Duration.DurationInput
  /** No delay is longer (before jitter). */
  readonly max: Duration.DurationInput
  /** Each delay is the previous one times this (default 2). */
  readonly factor?: number | undefined
  /** Each delay times a factor drawn from [0.8, 1.2), so that clients who failed together do not retry together (default true). */
  readonly jitter?: boolean | undefined
}

/**
 * The delays `initial`, `initial * factor`, ... up to `max`, each jittered: `Schedule.exponential` capped by
 * `Schedule.spaced(max)`, then `Schedule.jittered`.
 *
 * @example
 * ```ts
 * import { Retry } from "@pdf-transform/core"
 * import { Duration, Effect, Schedule } from "effect"
 *
 * const schedule = Retry.backoff({ initial: "1 second", max: "5 seconds", jitter: false })
 * const delays = Effect.runSync(Schedule.run(schedule, 0, [1, 2, 3, 4, 5]))
 * assert.deepStrictEqual(Array.from(delays, Duration.toMillis), [1000, 2000, 4000, 5000, 5000])
 * ```
 *
 * @since 0.1.0
 * @category schedules
 */
export const backoff = (options: BackoffOptions): Schedule.Schedule<Duration.Duration> => {
  const capped = Schedule.exponential(options.initial, options.factor ?? 2).pipe(
    Schedule.union(Schedule.spaced(options.max))
  )
  return Schedule.delays((options.jitter ?? true) ? Schedule.jittered(capped) : capped)
}

/** 5xx answers that say a retry cannot help soon. */
const finalServerStatuses: ReadonlySet<number> = new Set([501, 505, 507, 508, 510])

/** An HTTP status another try may get past: 408, 429, and 5xx but those no retry helps soon.
 * @since 0.1.0
 * @category predicates */
export const isTransientStatus = (status: number): boolean =>
  status === 408 || status === 429 || (status >= 500 && status <= 599 && !finalServerStatuses.has(status))

/** A failure another try may get past: the network, or an `UnexpectedResponse` with a transient status.
 * @since 0.1.0
 * @category predicates */
export const isTransient = (error: { readonly _tag: string; readonly status?: number }): boolean =>
  error._tag === "TransportError" ||
  (error._tag === "UnexpectedResponse" && error.status !== undefined && isTransientStatus(error.status))
