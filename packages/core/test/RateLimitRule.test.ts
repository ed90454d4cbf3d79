import { assert, describe, it } from "@effect/vitest"
import { RateLimit, RateLimitRule } from "@pdf-transform/core"
import { FastCheck as fc, Option } from "effect"

const rule: RateLimitRule.Rule = { limit: 4, windowMs: 2000 }

describe("RateLimitRule", () => {
  it("token bucket: full at first, refilled at limit per window, never past full", () => {
    const fresh = RateLimitRule.bucketAt(rule, undefined, 10_000)
    assert.deepStrictEqual(fresh, { tokens: 4, refilledAt: 10_000 })
    const empty = { tokens: 0, refilledAt: 10_000 }
    assert.strictEqual(RateLimitRule.bucketWaitMs(rule, empty), 500)
    assert.strictEqual(RateLimitRule.bucketAt(rule, empty, 10_250).tokens, 0.5)
    assert.strictEqual(RateLimitRule.bucketWaitMs(rule, RateLimitRule.bucketAt(rule, empty, 10_250)), 250)
    assert.strictEqual(RateLimitRule.bucketWaitMs(rule, RateLimitRule.bucketAt(rule, empty, 10_500)), 0)
    assert.strictEqual(RateLimitRule.bucketAt(rule, empty, 99_000).tokens, 4)
    // A clock seen going back refills nothing and does not move the bucket back.
    assert.deepStrictEqual(RateLimitRule.bucketAt(rule, empty, 9_000), empty)
  })

  it("fixed window: aligned on multiples of the window, emptied when the next one begins", () => {
    const first = RateLimitRule.windowAt(rule, undefined, 4_700)
    assert.deepStrictEqual(first, { start: 4_000, used: 0 })
    const used = { ...first, used: 4 }
    assert.deepStrictEqual(RateLimitRule.windowAt(rule, used, 5_999), used)
    assert.strictEqual(RateLimitRule.windowResetMs(rule, used, 5_999), 1)
    assert.deepStrictEqual(RateLimitRule.windowAt(rule, used, 6_000), { start: 6_000, used: 0 })
  })

  it("the fields read back through RateLimit's parser, seconds rounded up", () => {
    const headers = RateLimitRule.headers([
      RateLimitRule.bucketField("burst", rule, { tokens: 2.5, refilledAt: 0 }),
      RateLimitRule.windowField("quota", { limit: 100, windowMs: 3_600_000 }, { start: 0, used: 30 }, 1_000),
      RateLimitRule.concurrencyField("conc", 3, 5)
    ])!
    assert.deepStrictEqual(headers, {
      "ratelimit-policy": "\"burst\";q=4;w=2, \"quota\";q=100;w=3600, \"conc\";q=3;qu=\"concurrent-requests\"",
      ratelimit: "\"burst\";r=2;t=1, \"quota\";r=70;t=3599, \"conc\";r=0"
    })
    const info = RateLimit.fromHeaders(headers)
    assert.deepStrictEqual(info.states.map((s) => [s.name, s.remaining, s.reset]), [
      ["burst", 2, 1],
      ["quota", 70, 3599],
      ["conc", 0, undefined]
    ])
    assert.deepStrictEqual(RateLimit.concurrencyLimit(info), Option.some(3))
    assert.strictEqual(RateLimitRule.headers([]), undefined)
  })

  it.prop(
    "a bucket taken from whenever it holds a token never lets more than limit + elapsed * rate through",
    [fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 200 })],
    ([gaps]) => {
      let bucket: RateLimitRule.Bucket | undefined
      let now = 0
      let taken = 0
      for (const gap of gaps) {
        now += gap
        const current = RateLimitRule.bucketAt(rule, bucket, now)
        if (RateLimitRule.bucketWaitMs(rule, current) === 0) {
          taken++
          bucket = { ...current, tokens: current.tokens - 1 }
        } else {
          bucket = current
        }
        assert.isAtMost(taken, rule.limit + now * rule.limit / rule.windowMs + 1e-9)
      }
    }
  )
})
