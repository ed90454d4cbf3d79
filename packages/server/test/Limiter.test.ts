import { assert, describe, it } from "@effect/vitest"
import * as RateLimit from "@pdf-transform/core/RateLimit"
import { Clock, Effect, Option, TestClock } from "effect"
import * as Limiter from "../src/internal/limiter.js"

/** The decision with each key's state kept between submits, as the store's row per key keeps it. */
const keeping = (config: Limiter.LimiterConfig) => {
  const states = new Map<string, Limiter.KeyState>()
  return {
    acquire: (keyId: string, inFlight: number) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const { decision, state } = Limiter.decideStored(config, states.get(keyId), now, inFlight)
        states.set(keyId, state)
        return decision
      })
  }
}

const only = (overrides: Partial<Limiter.LimiterConfig>): Limiter.LimiterConfig => ({
  rate: undefined,
  quota: undefined,
  concurrency: undefined,
  concurrencyRetryAfterMs: 1000,
  ...overrides
})

describe("limiter", () => {
  it.effect("token bucket: a burst, then one token per refill interval", () =>
    Effect.gen(function*() {
      const limiter = keeping(only({ rate: { limit: 3, windowMs: 1000 } }))
      for (let i = 0; i < 3; i++) {
        const decision = yield* limiter.acquire("k", 0)
        assert.strictEqual(decision._tag, "Accepted")
      }
      const rejected = yield* limiter.acquire("k", 0)
      assert.deepStrictEqual(
        rejected._tag === "Rejected" && { reason: rejected.reason, retryAfterMs: rejected.retryAfterMs },
        { reason: "rate_exceeded", retryAfterMs: 334 }
      )
      yield* TestClock.adjust("333 millis")
      assert.strictEqual((yield* limiter.acquire("k", 0))._tag, "Rejected")
      yield* TestClock.adjust("1 millis")
      assert.strictEqual((yield* limiter.acquire("k", 0))._tag, "Accepted")
      // Never more than the burst, however long the wait.
      yield* TestClock.adjust("1 hour")
      let accepted = 0
      for (let i = 0; i < 10; i++) {
        if ((yield* limiter.acquire("k", 0))._tag === "Accepted") accepted++
      }
      assert.strictEqual(accepted, 3)
    }))

  it.effect("keys are limited independently", () =>
    Effect.gen(function*() {
      const limiter = keeping(only({ rate: { limit: 1, windowMs: 1000 } }))
      assert.strictEqual((yield* limiter.acquire("a", 0))._tag, "Accepted")
      assert.strictEqual((yield* limiter.acquire("a", 0))._tag, "Rejected")
      assert.strictEqual((yield* limiter.acquire("b", 0))._tag, "Accepted")
    }))

  it.effect("quota window: rejects until the window ends, then resets", () =>
    Effect.gen(function*() {
      const limiter = keeping(only({ quota: { limit: 2, windowMs: 60_000 } }))
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual((yield* limiter.acquire("k", 0))._tag, "Accepted")
      assert.strictEqual((yield* limiter.acquire("k", 0))._tag, "Accepted")
      const rejected = yield* limiter.acquire("k", 0)
      assert.strictEqual(rejected._tag, "Rejected")
      if (rejected._tag === "Rejected") {
        assert.strictEqual(rejected.reason, "quota_exceeded")
        assert.strictEqual(rejected.retryAfterMs, 50_000)
        assert.strictEqual(rejected.headers?.ratelimit, "\"quota\";r=0;t=50")
      }
      yield* TestClock.adjust("49999 millis")
      assert.strictEqual((yield* limiter.acquire("k", 0))._tag, "Rejected")
      yield* TestClock.adjust("1 millis")
      assert.strictEqual((yield* limiter.acquire("k", 0))._tag, "Accepted")
    }))

  it.effect("in flight: rejects while the key has the limit processing, accepts below it", () =>
    Effect.gen(function*() {
      const limiter = keeping(only({ concurrency: 2, concurrencyRetryAfterMs: 1500 }))
      const accepted = yield* limiter.acquire("k", 1)
      assert.strictEqual(accepted._tag, "Accepted")
      // The headers count the task being accepted.
      assert.strictEqual(accepted.headers?.ratelimit, "\"conc\";r=0")
      const rejected = yield* limiter.acquire("k", 2)
      assert.deepStrictEqual(
        rejected._tag === "Rejected" && [rejected.reason, rejected.retryAfterMs],
        ["concurrency_exceeded", 1500]
      )
      // Time alone does not free a slot: only the count the caller reads does.
      yield* TestClock.adjust("1 hour")
      assert.strictEqual((yield* limiter.acquire("k", 2))._tag, "Rejected")
      assert.strictEqual((yield* limiter.acquire("k", 1))._tag, "Accepted")
    }))

  it.effect("a rejection takes nothing: no token, no quota unit, no slot", () =>
    Effect.gen(function*() {
      const limiter = keeping(
        only({ rate: { limit: 5, windowMs: 1000 }, quota: { limit: 5, windowMs: 3600_000 }, concurrency: 1 })
      )
      assert.strictEqual((yield* limiter.acquire("k", 0))._tag, "Accepted")
      for (let i = 0; i < 10; i++) {
        const decision = yield* limiter.acquire("k", 1)
        assert.strictEqual(decision._tag === "Rejected" && decision.reason, "concurrency_exceeded")
      }
      const accepted = yield* limiter.acquire("k", 0)
      assert.strictEqual(accepted._tag, "Accepted")
      // 2 of 5 quota units used, and 3 of 5 tokens left (no refill: the clock did not move).
      assert.strictEqual(
        accepted.headers?.ratelimit,
        "\"burst\";r=3;t=1, \"quota\";r=3;t=3600, \"conc\";r=0"
      )
    }))

  it.effect("quota wins over concurrency and rate when several reject", () =>
    Effect.gen(function*() {
      const limiter = keeping(
        only({ rate: { limit: 1, windowMs: 1000 }, quota: { limit: 1, windowMs: 60_000 }, concurrency: 1 })
      )
      yield* limiter.acquire("k", 0)
      const decision = yield* limiter.acquire("k", 1)
      assert.strictEqual(decision._tag === "Rejected" && decision.reason, "quota_exceeded")
    }))

  it("headers parse with core's RateLimit parser (draft -11 syntax)", () => {
    const config = only({
      rate: { limit: 10, windowMs: 1000 },
      quota: { limit: 100, windowMs: 3600_000 },
      concurrency: 4
    })
    const state = Limiter.initialState(config, 0)
    const decision = Limiter.decide(config, state, 0, 0)
    assert.strictEqual(decision._tag, "Accepted")
    const headers = decision.headers!
    assert.strictEqual(
      headers["ratelimit-policy"],
      "\"burst\";q=10;w=1, \"quota\";q=100;w=3600, \"conc\";q=4;qu=\"concurrent-requests\""
    )
    const info = RateLimit.fromHeaders({ ...headers })
    assert.deepStrictEqual(info.policies.map((p) => [p.name, p.quota, p.unit, p.window]), [
      ["burst", 10, "requests", 1],
      ["quota", 100, "requests", 3600],
      ["conc", 4, "concurrent-requests", undefined]
    ])
    assert.deepStrictEqual(info.states.map((s) => [s.name, s.remaining, s.reset]), [
      ["burst", 9, 1],
      ["quota", 99, 3600],
      ["conc", 3, undefined]
    ])
    assert.strictEqual(Option.getOrUndefined(RateLimit.concurrencyLimit(info)), 4)
  })

  it("no rule, no headers", () => {
    const config = only({})
    assert.strictEqual(Limiter.decide(config, Limiter.initialState(config, 0), 0, 0).headers, undefined)
  })
})
