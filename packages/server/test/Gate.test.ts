import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, TestClock } from "effect"
import * as Gate from "../src/internal/gate.js"

describe("conversion gate", () => {
  it.effect("runs at most `permits` at once, in arrival order, one waiter woken per release", () =>
    Effect.gen(function*() {
      const gate = Gate.make(2)
      const started: Array<number> = []
      const finish = yield* Effect.forEach(Array.from({ length: 6 }, (_, i) => i), () => Deferred.make<void>())
      const fibers = yield* Effect.forEach(
        finish,
        (done, i) =>
          Effect.fork(gate.withPermit(Effect.zipRight(Effect.sync(() => started.push(i)), Deferred.await(done))))
      )
      yield* Effect.yieldNow()
      expect(started).toEqual([0, 1])
      expect(gate.waiting()).toBe(4)
      expect(gate.free()).toBe(0)
      yield* Deferred.succeed(finish[1]!, undefined)
      yield* Fiber.join(fibers[1]!)
      yield* Effect.yieldNow()
      // Only the oldest waiter moved; the others still wait (no wake-up and re-queue).
      expect(started).toEqual([0, 1, 2])
      expect(gate.waiting()).toBe(3)
      for (const i of [0, 2, 3, 4, 5]) {
        yield* Deferred.succeed(finish[i]!, undefined)
        yield* Fiber.join(fibers[i]!)
        yield* Effect.yieldNow()
      }
      expect(started).toEqual([0, 1, 2, 3, 4, 5])
      expect(gate.free()).toBe(2)
      expect(gate.waiting()).toBe(0)
    }))

  it.effect("the permit comes back when the work fails, dies or is interrupted", () =>
    Effect.gen(function*() {
      const gate = Gate.make(1)
      const failed = yield* Effect.exit(gate.withPermit(Effect.fail("boom")))
      expect(Exit.isFailure(failed)).toBe(true)
      const died = yield* Effect.exit(gate.withPermit(Effect.die("defect")))
      expect(Exit.isFailure(died)).toBe(true)
      expect(gate.free()).toBe(1)
      const running = yield* Effect.fork(gate.withPermit(Effect.never))
      yield* Effect.yieldNow()
      expect(gate.free()).toBe(0)
      yield* Fiber.interrupt(running)
      expect(gate.free()).toBe(1)
      expect(yield* gate.withPermit(Effect.succeed(42))).toBe(42)
    }))

  it.effect("interrupted waiters leave the queue; interrupting everything returns every permit", () =>
    Effect.gen(function*() {
      const gate = Gate.make(3)
      const fibers = yield* Effect.forEach(
        Array.from({ length: 50 }, (_, i) => i),
        (i) => Effect.fork(gate.withPermit(Effect.sleep(`${1 + (i % 7)} seconds`)))
      )
      yield* Effect.yieldNow()
      expect(gate.waiting()).toBe(47)
      // Interrupt every third waiter while it waits.
      const waiters = fibers.slice(3).filter((_, i) => i % 3 === 0)
      yield* Fiber.interruptAll(waiters)
      expect(gate.waiting()).toBe(47 - waiters.length)
      // Let some finish and hand their permits on, then interrupt all of them at once, running,
      // just granted or waiting.
      yield* TestClock.adjust("2 seconds")
      yield* Fiber.interruptAll(fibers)
      expect(gate.waiting()).toBe(0)
      expect(gate.free()).toBe(3)
    }))
})
