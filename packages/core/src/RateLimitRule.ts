/** The rules a server limits submits by (token bucket, fixed window, in flight), and their headers.
 * @since 0.2.0 */
import { concurrentRequests } from "./RateLimit.js"

/** `limit` units per `windowMs` milliseconds.
 * @since 0.2.0
 * @category models */
export interface Rule {
  readonly limit: number
  readonly windowMs: number
}

/** A token bucket: full (`limit` tokens) at first, refilled continuously at `limit` per window.
 * @since 0.2.0
 * @category models */
export interface Bucket {
  readonly tokens: number
  readonly refilledAt: number
}

/** A fixed window: the one that began at `start` (aligned on Clock time 0), and the units `used`.
 * @since 0.2.0
 * @category models */
export interface Window {
  readonly start: number
  readonly used: number
}

/** One rule's entries in the two header fields.
 * @since 0.2.0
 * @category models */
export interface Field {
  /** Its `RateLimit-Policy` item. */
  readonly policy: string
  /** Its `RateLimit` item. */
  readonly state: string
}

/** The two header fields, lower-cased; a type, so it passes as a record of headers.
 * @since 0.2.0
 * @category models */
export type Headers = {
  readonly "ratelimit-policy": string
  readonly ratelimit: string
}

const perMs = (rule: Rule): number => rule.limit / rule.windowMs

/** Header fields count in whole seconds, rounded up so that a client never comes back early. */
const seconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000))

/** The bucket at `now`: refilled for the time since it was last seen (a new key's is full).
 * @since 0.2.0
 * @category token bucket */
export const bucketAt = (rule: Rule, bucket: Bucket | undefined, now: number): Bucket =>
  bucket === undefined ? { tokens: rule.limit, refilledAt: now } : {
    tokens: Math.min(rule.limit, bucket.tokens + Math.max(0, now - bucket.refilledAt) * perMs(rule)),
    refilledAt: Math.max(bucket.refilledAt, now)
  }

/** Milliseconds until the bucket holds a whole token (0 when it does).
 * @since 0.2.0
 * @category token bucket */
export const bucketWaitMs = (rule: Rule, bucket: Bucket): number =>
  bucket.tokens >= 1 ? 0 : Math.ceil((1 - bucket.tokens) / perMs(rule))

/** A bucket's header entries: `r` the whole tokens left, `t` the seconds until it is full again.
 * @since 0.2.0
 * @category token bucket */
export const bucketField = (name: string, rule: Rule, bucket: Bucket): Field => ({
  policy: policyOf(name, rule),
  state: `"${name}";r=${Math.floor(bucket.tokens)};t=${
    seconds((rule.limit - bucket.tokens) * rule.windowMs / rule.limit)
  }`
})

/** The window at `now`: a new one, with nothing used, once the previous one has ended.
 * @since 0.2.0
 * @category fixed window */
export const windowAt = (rule: Rule, window: Window | undefined, now: number): Window => {
  const start = Math.floor(now / rule.windowMs) * rule.windowMs
  return window === undefined || start > window.start ? { start, used: 0 } : window
}

/** Milliseconds until the window ends.
 * @since 0.2.0
 * @category fixed window */
export const windowResetMs = (rule: Rule, window: Window, now: number): number =>
  Math.max(0, window.start + rule.windowMs - now)

/** A window's header entries: `r` the units left, `t` the seconds until it ends.
 * @since 0.2.0
 * @category fixed window */
export const windowField = (name: string, rule: Rule, window: Window, now: number): Field => ({
  policy: policyOf(name, rule),
  state: `"${name}";r=${Math.max(0, rule.limit - window.used)};t=${seconds(windowResetMs(rule, window, now))}`
})

/** A limit of tasks in flight: a `qu="concurrent-requests"` policy, and the slots free.
 * @since 0.2.0
 * @category concurrency */
export const concurrencyField = (name: string, limit: number, inFlight: number): Field => ({
  policy: `"${name}";q=${limit};qu="${concurrentRequests}"`,
  state: `"${name}";r=${Math.max(0, limit - inFlight)}`
})

const policyOf = (name: string, rule: Rule): string => `"${name}";q=${rule.limit};w=${seconds(rule.windowMs)}`

/** The fields of every rule, as lists in the order given; none when there is no rule.
 * @since 0.2.0
 * @category headers */
export const headers = (fields: ReadonlyArray<Field>): Headers | undefined =>
  fields.length === 0 ? undefined : {
    "ratelimit-policy": fields.map((field) => field.policy).join(", "),
    ratelimit: fields.map((field) => field.state).join(", ")
  }
