/**
 * The batch's backoff when the service gave no delay: core's `Retry` policy from 1 s doubling to
 * 30 s, jittered.
 */
import * as Retry from "@pdf-transform/core/Retry"
import type * as Effect from "effect/Effect"

const options: Retry.BackoffOptions = { initial: "1 second", max: "30 seconds" }

/** The delay before try `attempt + 1`, for a jitter factor drawn from `Retry.jitterRange`. */
export const delayOf = (attempt: number, jitter: number): number => Retry.delayOf(options, attempt, jitter)

/** The jitter factor of one delay. */
export const jitter: Effect.Effect<number> = Retry.jitterOf(options)

/** The delay after `attempt` failed tries. */
export const delay = (attempt: number): Effect.Effect<number> => Retry.nextDelay(options, attempt)
