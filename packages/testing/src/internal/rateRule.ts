/** The fake's rate rule: `quota` submits per `window`, by core's fixed window or token bucket. */
import * as RateLimitRule from "@pdf-transform/core/RateLimitRule"
import type * as FakeServer from "../FakeServer.js"

export interface RateRule {
  /** Whether a submit at `now` fits, and the rule's header entries after deciding (a refusal takes nothing). */
  readonly decide: (now: number) => { readonly allowed: boolean; readonly field: RateLimitRule.Field }
}

export const make = (options: FakeServer.RateOptions, windowMs: number): RateRule => {
  const name = options.name ?? "rate"
  const rule: RateLimitRule.Rule = { limit: Math.max(1, Math.floor(options.quota)), windowMs }
  if (options.kind === "token-bucket") {
    let bucket: RateLimitRule.Bucket | undefined
    return {
      decide: (now) => {
        const current = RateLimitRule.bucketAt(rule, bucket, now)
        const allowed = current.tokens >= 1
        bucket = allowed ? { ...current, tokens: current.tokens - 1 } : current
        return { allowed, field: RateLimitRule.bucketField(name, rule, bucket) }
      }
    }
  }
  let window: RateLimitRule.Window | undefined
  return {
    decide: (now) => {
      const current = RateLimitRule.windowAt(rule, window, now)
      const allowed = current.used < rule.limit
      window = allowed ? { ...current, used: current.used + 1 } : current
      return { allowed, field: RateLimitRule.windowField(name, rule, window, now) }
    }
  }
}
