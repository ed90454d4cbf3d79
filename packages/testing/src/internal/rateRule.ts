/**
 * The fake's request-rate rule: `quota` submits per `window`, counted either in fixed windows
 * (aligned on multiples of the window from Clock time 0) or by a token bucket (full at start,
 * refilled continuously), announced as `RateLimit-Policy: "<name>";q=Q;w=W` and
 * `RateLimit: "<name>";r=R;t=T` with T in whole seconds rounded up, as the reference server does.
 */
import type * as FakeServer from "../FakeServer.js"

export interface RateRule {
  /** Whether a submit at `now` fits, and the rule's header values after deciding (a refusal takes nothing). */
  readonly decide: (now: number) => { readonly allowed: boolean; readonly policy: string; readonly state: string }
}

const seconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000))

export const make = (options: FakeServer.RateOptions, windowMs: number): RateRule => {
  const name = options.name ?? "rate"
  const quota = Math.max(1, Math.floor(options.quota))
  const policy = `"${name}";q=${quota};w=${seconds(windowMs)}`
  if (options.kind === "token-bucket") {
    let tokens = quota
    let refilledAt = 0
    return {
      decide: (now) => {
        tokens = Math.min(quota, tokens + Math.max(0, now - refilledAt) * quota / windowMs)
        refilledAt = Math.max(refilledAt, now)
        const allowed = tokens >= 1
        if (allowed) tokens -= 1
        const toFull = (quota - tokens) * windowMs / quota
        return { allowed, policy, state: `"${name}";r=${Math.floor(tokens)};t=${seconds(toFull)}` }
      }
    }
  }
  let windowStart = 0
  let used = 0
  return {
    decide: (now) => {
      const start = Math.floor(now / windowMs) * windowMs
      if (start > windowStart) {
        windowStart = start
        used = 0
      }
      const allowed = used < quota
      if (allowed) used += 1
      return { allowed, policy, state: `"${name}";r=${quota - used};t=${seconds(windowStart + windowMs - now)}` }
    }
  }
}
