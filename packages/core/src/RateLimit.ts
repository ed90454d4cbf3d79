/** Parsing of a submit answer's rate-limit signals: `RateLimit-Policy`, `RateLimit`, `Retry-After`.
 * @since 0.1.0 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { type BareItem, type Item, parseList, Token } from "structured-headers"

/** The largest delay a timer accepts: Node turns a larger one into 1 ms, a busy loop.
 * @since 0.1.0
 * @category constants */
export const maxDelayMs = 2 ** 31 - 1

/** Numbers in the headers are capped here (quota, remaining, windows in seconds).
 * @since 0.1.0
 * @category constants */
export const maxHeaderNumber = 2 ** 31 - 1

/** A quota policy from `RateLimit-Policy`: `"burst";q=10;w=1` or `"conc";q=4;qu="concurrent-requests"`.
 * @since 0.1.0
 * @category models */
export const QuotaPolicy = Schema.Struct({
  name: Schema.String,
  /** `q`: the quota. */
  quota: Schema.Number,
  /** `qu`: the quota unit; `requests` when absent. */
  unit: Schema.String,
  /** `w`: the window in seconds, when given. */
  window: Schema.optional(Schema.Number)
})

/** @since 0.1.0
 * @category models */
export type QuotaPolicy = typeof QuotaPolicy.Type

/** The state of one policy from `RateLimit`: `"burst";r=3;t=1`.
 * @since 0.1.0
 * @category models */
export const QuotaState = Schema.Struct({
  name: Schema.String,
  /** `r`: the quota units left. */
  remaining: Schema.Number,
  /** `t`: seconds until the quota resets, when given (concurrency hints omit it). */
  reset: Schema.optional(Schema.Number)
})

/** @since 0.1.0
 * @category models */
export type QuotaState = typeof QuotaState.Type

/** Everything the RateLimit fields of one response said.
 * @since 0.1.0
 * @category models */
export const RateLimitInfo = Schema.Struct({
  policies: Schema.Array(QuotaPolicy),
  states: Schema.Array(QuotaState)
})

/** @since 0.1.0
 * @category models */
export type RateLimitInfo = typeof RateLimitInfo.Type

/** No RateLimit information.
 * @since 0.1.0
 * @category constructors */
export const empty: RateLimitInfo = { policies: [], states: [] }

/** The quota unit that marks a concurrency policy.
 * @since 0.1.0
 * @category constants */
export const concurrentRequests = "concurrent-requests"

/** A header as it may come: absent, one line, or several lines of the same field. */
type HeaderInput = string | ReadonlyArray<string> | null | undefined

const joinLines = (input: HeaderInput): string | undefined => {
  if (input === null || input === undefined) return undefined
  const joined = typeof input === "string" ? input : input.join(", ")
  return joined.trim() === "" ? undefined : joined
}

const parseListSafe = (input: HeaderInput): ReadonlyArray<Item> => {
  const text = joinLines(input)
  if (text === undefined) return []
  try {
    // A field that fails to parse is ignored whole, as the draft asks.
    return parseList(text).filter((member): member is Item => !Array.isArray(member[0]))
  } catch {
    return []
  }
}

/** A String, or a Token where the draft says String (`qu=concurrent-requests`). */
const asText = (value: BareItem | undefined): string | undefined => {
  if (typeof value === "string") return value
  if (value instanceof Token) return value.toString()
  return undefined
}

const asCount = (value: BareItem | undefined): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.min(value, maxHeaderNumber) : undefined

/** Parses `RateLimit-Policy`, dropping items without a name or `q`; invalid gives none.
 * @since 0.1.0
 * @category parsing */
export const parsePolicies = (input: HeaderInput): ReadonlyArray<QuotaPolicy> => {
  const out: Array<QuotaPolicy> = []
  for (const [value, params] of parseListSafe(input)) {
    const name = asText(value)
    const quota = asCount(params.get("q"))
    if (name === undefined || quota === undefined) continue
    const window = asCount(params.get("w"))
    out.push({
      name,
      quota,
      unit: asText(params.get("qu")) ?? "requests",
      ...(window === undefined ? {} : { window })
    })
  }
  return out
}

/** Parses `RateLimit`. Items without a name or without `r` are dropped.
 * @since 0.1.0
 * @category parsing */
export const parseStates = (input: HeaderInput): ReadonlyArray<QuotaState> => {
  const out: Array<QuotaState> = []
  for (const [value, params] of parseListSafe(input)) {
    const name = asText(value)
    const remaining = asCount(params.get("r"))
    if (name === undefined || remaining === undefined) continue
    const reset = asCount(params.get("t"))
    out.push({ name, remaining, ...(reset === undefined ? {} : { reset }) })
  }
  return out
}

/** Parses both RateLimit fields of a response.
 * @since 0.1.0
 * @category parsing */
export const parse = (fields: { readonly policy?: HeaderInput; readonly state?: HeaderInput }): RateLimitInfo => ({
  policies: parsePolicies(fields.policy),
  states: parseStates(fields.state)
})

/**
 * Reads the RateLimit fields from response headers (lower-cased names, as @effect/platform keeps them).
 *
 * @example
 * ```ts
 * import { RateLimit } from "@pdf-transform/core"
 * import { Option } from "effect"
 *
 * const info = RateLimit.fromHeaders({
 *   "ratelimit-policy": "\"rate\";q=5;w=1, \"tasks\";q=4;qu=\"concurrent-requests\"",
 *   "ratelimit": "\"rate\";r=0;t=1"
 * })
 * assert.deepStrictEqual(RateLimit.concurrencyLimit(info), Option.some(4))
 * assert.deepStrictEqual(RateLimit.resetDelay(info), Option.some(1000))
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const fromHeaders = (headers: Readonly<Record<string, string | undefined>>): RateLimitInfo =>
  parse({ policy: headers["ratelimit-policy"], state: headers["ratelimit"] })

/** The announced concurrency quota (`q` of a `qu="concurrent-requests"` policy), the smallest if several are announced.
 * @since 0.1.0
 * @category accessors */
export const concurrencyLimit = (info: RateLimitInfo): Option.Option<number> => {
  const quotas = info.policies.filter((p) => p.unit === concurrentRequests).map((p) => p.quota)
  return quotas.length === 0 ? Option.none() : Option.some(Math.min(...quotas))
}

/** The names of the announced concurrency policies (`qu="concurrent-requests"`).
 * @since 0.1.0
 * @category accessors */
export const concurrencyPolicies = (info: RateLimitInfo): ReadonlySet<string> =>
  new Set(info.policies.filter((policy) => policy.unit === concurrentRequests).map((policy) => policy.name))

/** The free slots of the announced concurrency policy (`r` of its `RateLimit` state), when the answer says.
 * @since 0.1.0
 * @category accessors */
export const concurrencyRemaining = (info: RateLimitInfo): Option.Option<number> => {
  const names = concurrencyPolicies(info)
  const state = info.states.find((state) => names.has(state.name))
  return state === undefined ? Option.none() : Option.some(state.remaining)
}

/** How long until a spent quota (`r=0`) comes back, from `RateLimit` alone, capped.
 * @since 0.1.0
 * @category delays */
export const resetDelay = (info: RateLimitInfo): Option.Option<number> => {
  const concurrency = concurrencyPolicies(info)
  let delay: number | undefined
  for (const state of info.states) {
    if (concurrency.has(state.name) || state.remaining > 0 || state.reset === undefined) continue
    delay = Math.max(delay ?? 0, Math.min(state.reset * 1000, maxDelayMs))
  }
  return Option.fromNullable(delay)
}

/** Caps a delay to what a timer can take; anything not a finite non-negative number gives none.
 * @since 0.1.0
 * @category delays */
export const capDelay = (ms: number): Option.Option<number> =>
  Number.isFinite(ms) && ms >= 0 ? Option.some(Math.min(Math.ceil(ms), maxDelayMs)) : Option.none()

const deltaSeconds = /^\s*(\d+)\s*$/

/** Parses `Retry-After` (seconds, or a date against the answer's `Date`); a past date is 0.
 * @since 0.1.0
 * @category delays */
export const parseRetryAfter = (
  value: string | null | undefined,
  options: { readonly date?: string | null | undefined; readonly now: number }
): Option.Option<number> => {
  if (value === null || value === undefined) return Option.none()
  const seconds = deltaSeconds.exec(value)
  if (seconds !== null) return capDelay(Number(seconds[1]) * 1000)
  // HTTP-date forms all contain letters and a year; Date.parse alone accepts far too much ("1").
  if (!/[A-Za-z]/.test(value) || !/\d{4}/.test(value)) return Option.none()
  const at = Date.parse(value)
  if (!Number.isFinite(at)) return Option.none()
  const base = options.date === null || options.date === undefined ? Number.NaN : Date.parse(options.date)
  const reference = Number.isFinite(base) ? base : options.now
  return capDelay(Math.max(0, at - reference))
}

/** Parses the 429 body's `retryAfterMs`: a non-negative finite number (a numeric string is tolerated).
 * @since 0.1.0
 * @category delays */
export const parseRetryAfterMs = (value: unknown): Option.Option<number> => {
  if (typeof value === "number") return capDelay(value)
  if (typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value)) return capDelay(Number(value))
  return Option.none()
}

/** The delay a 429 asks for: the larger valid one of `retryAfterMs` and `Retry-After`, capped.
 * @since 0.1.0
 * @category delays */
export const retryDelay = (input: {
  readonly retryAfterMs?: unknown
  readonly retryAfter?: string | null | undefined
  readonly date?: string | null | undefined
  readonly now: number
}): Option.Option<number> => {
  const fromBody = parseRetryAfterMs(input.retryAfterMs)
  const fromHeader = parseRetryAfter(input.retryAfter, { date: input.date, now: input.now })
  if (Option.isSome(fromBody) && Option.isSome(fromHeader)) {
    return Option.some(Math.max(fromBody.value, fromHeader.value))
  }
  return Option.orElse(fromBody, () => fromHeader)
}
