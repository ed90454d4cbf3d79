/**
 * How many tasks the batch keeps in flight: a FIFO gate whose size follows the service.
 *
 * - It starts with one submit (a probe) until the first answer says what the service allows;
 *   then the user's bound, or the announced `qu="concurrent-requests"` quota when smaller.
 * - A task resumed from the journal holds a slot at once, even past the limit (it is running at
 *   the service): new submits wait until enough of them end; while probing, the probe goes
 *   beside the resumed tasks.
 * - An announced quota that changes resizes the gate; a `RateLimit` that shows free slots lets
 *   it grow back after a shrink; it never exceeds the user's bound.
 * - A 429 `concurrency_exceeded` shrinks it to our own tasks in flight (at least 1): the
 *   service is full, so the next submit waits until one of ours ends.
 */
import * as Gate from "@pdf-transform/core/Gate"
import * as RateLimit from "@pdf-transform/core/RateLimit"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as metrics from "./metrics.js"

export interface Concurrency {
  readonly gate: Gate.Gate
  /** Our tasks the service is running now (submitted or resumed, not yet seen terminal). */
  readonly inFlight: () => number
  /** Counts a task in flight for as long as `self` runs. */
  readonly tracking: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Follows a task an earlier run submitted: it is running at the service already, so it holds a
   * slot at once (even past the limit) and is counted in flight until `self` ends.
   */
  readonly resumed: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** What an answer to a submit announced (accepted or refused). */
  readonly observe: (info: RateLimit.RateLimitInfo, accepted: boolean) => Effect.Effect<void>
  /** A 429 `concurrency_exceeded`. */
  readonly exceeded: (info: RateLimit.RateLimitInfo) => Effect.Effect<void>
}

/** The remaining slots of the announced concurrency policy, when the answer says. */
const freeSlots = RateLimit.concurrencyRemaining

export const make = (bound: number): Concurrency => {
  const userBound = Math.max(1, Math.floor(bound))
  const gate = Gate.make(1)
  let probing = true
  let announced: number | undefined
  let inFlight = 0

  const resize = (limit: number) =>
    Effect.zipRight(gate.resize(Math.min(userBound, limit)), metrics.concurrencyLimit(gate.limit()))

  const observe = (info: RateLimit.RateLimitInfo, accepted: boolean) =>
    Effect.suspend(() => {
      const quota = RateLimit.concurrencyLimit(info)
      const wasProbing = probing
      probing = false
      if (Option.isNone(quota)) return wasProbing ? resize(userBound) : Effect.void
      if (wasProbing || quota.value !== announced) {
        announced = quota.value
        return resize(quota.value)
      }
      // Same quota: after a shrink, grow back as far as the service says slots are free.
      const free = freeSlots(info)
      if (!accepted || Option.isNone(free)) return Effect.void
      const reachable = Math.min(quota.value, inFlight + free.value)
      return reachable > gate.limit() ? resize(reachable) : Effect.void
    })

  const exceeded = (info: RateLimit.RateLimitInfo) =>
    Effect.suspend(() => {
      probing = false
      const quota = RateLimit.concurrencyLimit(info)
      if (Option.isSome(quota)) announced = quota.value
      return resize(Math.max(1, Math.min(inFlight, announced ?? inFlight)))
    })

  const tracking = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.zipRight(Effect.sync(() => ++inFlight), metrics.inFlight(1)),
      () => self,
      () => Effect.zipRight(Effect.sync(() => --inFlight), metrics.inFlight(-1))
    )

  // While probing, one submit may go beyond the resumed tasks already running.
  let resumedHeld = 0
  const resumed = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.suspend(() => {
        resumedHeld++
        return probing ? resize(resumedHeld + 1) : Effect.void
      }),
      () => gate.withPermit(tracking(self), { immediate: true }),
      () =>
        Effect.suspend(() => {
          resumedHeld--
          return probing ? resize(resumedHeld + 1) : Effect.void
        })
    )

  return { gate, inFlight: () => inFlight, tracking, resumed, observe, exceeded }
}
