/**
 * The shared pace on its own, under TestClock: windows learnt from answers, units another client
 * spent, quotas too large to pace send by send.
 */
import { assert, describe, it } from "@effect/vitest"
import { RateLimit } from "@pdf-transform/core"
import { TestClockDriver } from "@pdf-transform/testing"
import { Clock, Effect } from "effect"
import * as RateGate from "../src/internal/rateGate.js"

const info = (policy: string, state: string) => RateLimit.parse({ policy, state })

/** Takes `count` turns one after another and answers the Clock time of each. */
const turns = (gate: RateGate.RateGate, count: number) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(
      Effect.forEach(Array.from({ length: count }), () => Effect.zipRight(gate.take, Clock.currentTimeMillis))
    )
    return yield* TestClockDriver.runUntilDone(fiber)
  })

describe("RateGate", () => {
  it.effect("lets anything through until a window is announced", () =>
    Effect.gen(function*() {
      const gate = yield* RateGate.make
      assert.deepStrictEqual(yield* turns(gate, 5), [0, 0, 0, 0, 0])
    }))

  it.effect("at most q in any w once the window is known, the sends before it counted", () =>
    Effect.gen(function*() {
      const gate = yield* RateGate.make
      yield* gate.take
      yield* gate.observe(info(`"rate";q=3;w=1`, `"rate";r=2;t=1`))
      const times = yield* turns(gate, 5)
      // Two more at once; the unit the service counted comes back at its reset (t=1), the two we
      // counted ourselves when their window, widened by its 2 % slack, has passed.
      assert.deepStrictEqual(times, [0, 0, 1000, 1020, 1020])
    }))

  it.effect("units the service counts beyond ours (another client) leave at the reset time it gave", () =>
    Effect.gen(function*() {
      const gate = yield* RateGate.make
      yield* gate.observe(info(`"rate";q=4;w=5`, `"rate";r=4;t=0`))
      yield* gate.take
      // One of ours is counted; the service says every unit is spent until its reset in 3 s.
      yield* gate.observe(info(`"rate";q=4;w=5`, `"rate";r=0;t=3`))
      const times = yield* turns(gate, 4)
      // The units it counted beyond ours come back at the reset; ours when its own window ends.
      assert.deepStrictEqual(times, [3000, 3000, 3000, 5100])
    }))

  it.effect("a quota too large to pace send by send still pauses on r=0 until its reset", () =>
    Effect.gen(function*() {
      const gate = yield* RateGate.make
      const huge = RateGate.maxPacedQuota + 1
      yield* gate.observe(info(`"day";q=${huge};w=86400`, `"day";r=0;t=60`))
      assert.strictEqual(yield* gate.resumesAt, 60_000)
      assert.deepStrictEqual(yield* turns(gate, 2), [60_000, 60_000])
    }))

  it.effect("a pause is never shortened by an earlier one", () =>
    Effect.gen(function*() {
      const gate = yield* RateGate.make
      yield* gate.pauseUntil(5000)
      yield* gate.pauseUntil(2000)
      assert.strictEqual(yield* gate.resumesAt, 5000)
      assert.deepStrictEqual(yield* turns(gate, 1), [5000])
    }))
})
