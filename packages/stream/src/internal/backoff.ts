/** The batch's backoff when the service gave no delay: 1 s doubling to 30 s, jittered by ±20 %. */
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"

/** The delay before try `attempt + 1`, for a jitter factor drawn from [0.8, 1.2). */
export const delayOf = (attempt: number, jitter: number): number =>
  Math.round(Math.min(30_000, 1_000 * 2 ** (Math.max(1, attempt) - 1)) * jitter)

/** The jitter factor of one delay. */
export const jitter: Effect.Effect<number> = Random.nextRange(0.8, 1.2)

/** The delay after `attempt` failed tries. */
export const delay = (attempt: number): Effect.Effect<number> =>
  Effect.map(jitter, (factor) => delayOf(attempt, factor))
