/**
 * The per-key submit limiter (core's `RateLimitRule`s): a pure function of the state and the time. Tasks
 * in flight are counted by the store, in the insert's transaction, so the count cannot drift.
 */
import type { RateLimitReason } from "@pdf-transform/core/Contract"
import * as RateLimitRule from "@pdf-transform/core/RateLimitRule"

/** Resolved limits of one key; a disabled rule is `undefined`. */
export interface LimiterConfig {
  readonly rate: { readonly limit: number; readonly windowMs: number } | undefined
  readonly quota: { readonly limit: number; readonly windowMs: number } | undefined
  readonly concurrency: number | undefined
  /** The retry hint sent with `concurrency_exceeded`, when no task end can be predicted. */
  readonly concurrencyRetryAfterMs: number
}

/** The state of one key: its bucket and its quota window. `decide` updates it in place. */
export interface KeyState {
  tokens: number
  refilledAt: number
  windowStart: number
  used: number
}

export const initialState = (config: LimiterConfig, now: number): KeyState => ({
  tokens: config.rate?.limit ?? 0,
  refilledAt: now,
  windowStart: config.quota === undefined ? 0 : RateLimitRule.windowAt(config.quota, undefined, now).start,
  used: 0
})

/** Brings the bucket and the quota window up to `now`. */
const advance = (config: LimiterConfig, state: KeyState, now: number): void => {
  if (config.rate !== undefined) {
    const bucket = RateLimitRule.bucketAt(config.rate, state, now)
    state.tokens = bucket.tokens
    state.refilledAt = bucket.refilledAt
  }
  if (config.quota !== undefined) {
    const window = RateLimitRule.windowAt(config.quota, windowOf(state), now)
    state.windowStart = window.start
    state.used = window.used
  }
}

const windowOf = (state: KeyState): RateLimitRule.Window => ({ start: state.windowStart, used: state.used })

export type RateLimitHeaders = RateLimitRule.Headers

export type Decision =
  | { readonly _tag: "Accepted"; readonly headers: RateLimitHeaders | undefined }
  | {
    readonly _tag: "Rejected"
    readonly reason: RateLimitReason
    readonly retryAfterMs: number
    readonly headers: RateLimitHeaders | undefined
  }

/** `RateLimit-Policy` and `RateLimit` as RFC 9651 lists (draft -11 syntax); undefined when no rule is on. */
export const headersOf = (
  config: LimiterConfig,
  state: KeyState,
  now: number,
  inFlight: number
): RateLimitHeaders | undefined => {
  const fields: Array<RateLimitRule.Field> = []
  if (config.rate !== undefined) fields.push(RateLimitRule.bucketField("burst", config.rate, state))
  if (config.quota !== undefined) fields.push(RateLimitRule.windowField("quota", config.quota, windowOf(state), now))
  if (config.concurrency !== undefined) {
    fields.push(RateLimitRule.concurrencyField("conc", config.concurrency, inFlight))
  }
  return RateLimitRule.headers(fields)
}

/**
 * Decides one submit at `now`: accepted, it takes a token and a quota unit; rejected, nothing, and the
 * rule with the longest wait is reported (quota, then concurrency, then rate).
 */
export const decide = (config: LimiterConfig, state: KeyState, now: number, inFlight: number): Decision => {
  advance(config, state, now)
  if (config.quota !== undefined && state.used >= config.quota.limit) {
    return {
      _tag: "Rejected",
      reason: "quota_exceeded",
      retryAfterMs: RateLimitRule.windowResetMs(config.quota, windowOf(state), now),
      headers: headersOf(config, state, now, inFlight)
    }
  }
  if (config.concurrency !== undefined && inFlight >= config.concurrency) {
    return {
      _tag: "Rejected",
      reason: "concurrency_exceeded",
      retryAfterMs: config.concurrencyRetryAfterMs,
      headers: headersOf(config, state, now, inFlight)
    }
  }
  if (config.rate !== undefined && state.tokens < 1) {
    return {
      _tag: "Rejected",
      reason: "rate_exceeded",
      retryAfterMs: RateLimitRule.bucketWaitMs(config.rate, state),
      headers: headersOf(config, state, now, inFlight)
    }
  }
  if (config.rate !== undefined) state.tokens -= 1
  if (config.quota !== undefined) state.used += 1
  return { _tag: "Accepted", headers: headersOf(config, state, now, inFlight + 1) }
}

/** A key's state after a decision, to keep until its next submit. */
export interface Decided {
  readonly decision: Decision
  readonly state: KeyState
}

/** Decides a submit from the key's kept state (`stored`); the store keeps the result in the submit's transaction. */
export const decideStored = (
  config: LimiterConfig,
  stored: KeyState | undefined,
  now: number,
  inFlight: number
): Decided => {
  const state = stored === undefined ? initialState(config, now) : { ...stored }
  return { decision: decide(config, state, now, inFlight), state }
}

/** A key's kept state (none before its first submit) brought up to `now`, to show its use. */
export const currentState = (config: LimiterConfig, stored: KeyState | undefined, now: number): KeyState => {
  const state = stored === undefined ? initialState(config, now) : { ...stored }
  advance(config, state, now)
  return state
}
