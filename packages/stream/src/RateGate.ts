/**
 * The pause every submitter of a batch shares: one 429 `rate_exceeded` (or a `RateLimit` that
 * says no request is left until its window resets) stops all of them until that time, instead
 * of each one finding out with a 429 of its own.
 *
 * @since 0.1.0
 */
import * as RateLimit from "@pdf-transform/core/RateLimit"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/**
 * @since 0.1.0
 * @category models
 */
export interface RateGate {
  /** Pauses every submitter until `epochMs` (Clock time); an earlier pause never shortens a later one. */
  readonly pauseUntil: (epochMs: number) => Effect.Effect<void>
  /** Waits until no pause is in force. */
  readonly pass: Effect.Effect<void>
  /** The Clock time the current pause ends at (0 when none was ever set). */
  readonly resumesAt: () => number
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (): RateGate => {
  let resumesAt = 0
  const pass: Effect.Effect<void> = Effect.flatMap(Clock.currentTimeMillis, (now) =>
    resumesAt <= now ?
      Effect.void :
      // Sleep, then look again: the pause may have been extended meanwhile.
      Effect.zipRight(Effect.sleep(Duration.millis(resumesAt - now)), Effect.suspend(() => pass)))
  return {
    pauseUntil: (epochMs) =>
      Effect.sync(() => {
        if (Number.isFinite(epochMs)) resumesAt = Math.max(resumesAt, epochMs)
      }),
    pass,
    resumesAt: () => resumesAt
  }
}

/**
 * When the `RateLimit` of an answer says a request quota is spent (`r=0` with a reset time `t`),
 * the Clock time it comes back; concurrency policies (which have no window) are left out.
 *
 * @since 0.1.0
 * @category rate limits
 */
export const exhaustedUntil = (info: RateLimit.RateLimitInfo, now: number): Option.Option<number> => {
  const concurrency = new Set(
    info.policies.filter((policy) => policy.unit === RateLimit.concurrentRequests).map((policy) => policy.name)
  )
  let until: number | undefined
  for (const state of info.states) {
    if (concurrency.has(state.name) || state.remaining > 0 || state.reset === undefined) continue
    const at = now + Math.min(state.reset * 1000, RateLimit.maxDelayMs)
    until = until === undefined ? at : Math.max(until, at)
  }
  return Option.fromNullable(until)
}
