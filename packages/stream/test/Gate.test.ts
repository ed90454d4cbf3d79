import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, TestClock } from "effect"
import * as Gate from "../src/internal/gate.js"

/** Forks `count` holders that each note their index when granted and hold until released. */
const holders = (
  gate: Gate.Gate,
  count: number,
  options?: { readonly priority?: boolean; readonly immediate?: boolean }
) =>
  Effect.gen(function*() {
    const started: Array<number> = []
    const finish = yield* Effect.forEach(Array.from({ length: count }, (_, i) => i), () => Deferred.make<void>())
    const fibers = yield* Effect.forEach(
      finish,
      (done, i) =>
        Effect.fork(
          gate.withPermit(Effect.zipRight(Effect.sync(() => started.push(i)), Deferred.await(done)), options)
        )
    )
    yield* Effect.yieldNow()
    const release = (i: number) =>
      Effect.gen(function*() {
        yield* Deferred.succeed(finish[i]!, undefined)
        yield* Fiber.join(fibers[i]!)
        yield* Effect.yieldNow()
      })
    return { started, fibers, release }
  })

describe("Gate", () => {
  it.effect("runs at most `limit` at once, in arrival order, one waiter woken per release", () =>
    Effect.gen(function*() {
      const gate = Gate.make(2)
      const { release, started } = yield* holders(gate, 6)
      expect(started).toEqual([0, 1])
      expect(gate.waiting()).toBe(4)
      expect(gate.held()).toBe(2)
      yield* release(1)
      // Only the oldest waiter moved; the others still wait (no wake-up and re-queue).
      expect(started).toEqual([0, 1, 2])
      expect(gate.waiting()).toBe(3)
      for (const i of [0, 2, 3, 4, 5]) yield* release(i)
      expect(started).toEqual([0, 1, 2, 3, 4, 5])
      expect(gate.held()).toBe(0)
      expect(gate.waiting()).toBe(0)
    }))

  it.effect("growing grants exactly the new permits at once; shrinking takes nothing back", () =>
    Effect.gen(function*() {
      const gate = Gate.make(2)
      const { release, started } = yield* holders(gate, 8)
      yield* gate.resize(5)
      yield* Effect.yieldNow()
      expect(started).toEqual([0, 1, 2, 3, 4])
      expect(gate.held()).toBe(5)
      yield* gate.resize(2)
      expect(gate.limit()).toBe(2)
      expect(gate.held()).toBe(5)
      // Three releases bring the holders down to 2 without granting anyone.
      for (const i of [0, 1, 2]) yield* release(i)
      expect(started).toEqual([0, 1, 2, 3, 4])
      expect(gate.held()).toBe(2)
      yield* release(3)
      expect(started).toEqual([0, 1, 2, 3, 4, 5])
      expect(gate.held()).toBe(2)
    }))

  it.effect("a priority waiter goes before every ordinary one", () =>
    Effect.gen(function*() {
      const gate = Gate.make(1)
      const first = yield* holders(gate, 3)
      const urgent = yield* holders(gate, 1, { priority: true })
      expect(first.started).toEqual([0])
      yield* first.release(0)
      expect(urgent.started).toEqual([0])
      expect(first.started).toEqual([0])
      yield* urgent.release(0)
      expect(first.started).toEqual([0, 1])
    }))

  it.effect("an immediate permit is held at once past the limit; waiters go only when enough are back", () =>
    Effect.gen(function*() {
      const gate = Gate.make(2)
      const running = yield* holders(gate, 3, { immediate: true })
      expect(running.started).toEqual([0, 1, 2])
      expect(gate.held()).toBe(3)
      const waiting = yield* holders(gate, 1)
      expect(waiting.started).toEqual([])
      yield* running.release(0)
      expect(waiting.started).toEqual([])
      yield* running.release(1)
      expect(waiting.started).toEqual([0])
      expect(gate.held()).toBe(2)
    }))

  it.effect("a limit below 1 or NaN is 1", () =>
    Effect.gen(function*() {
      expect(Gate.make(0).limit()).toBe(1)
      expect(Gate.make(Number.NaN).limit()).toBe(1)
      const gate = Gate.make(3)
      yield* gate.resize(-4)
      expect(gate.limit()).toBe(1)
    }))

  it.effect("the permit comes back when the work fails, dies or is interrupted", () =>
    Effect.gen(function*() {
      const gate = Gate.make(1)
      const failed = yield* Effect.exit(gate.withPermit(Effect.fail("boom")))
      expect(Exit.isFailure(failed)).toBe(true)
      const died = yield* Effect.exit(gate.withPermit(Effect.die("defect")))
      expect(Exit.isFailure(died)).toBe(true)
      expect(gate.held()).toBe(0)
      const running = yield* Effect.fork(gate.withPermit(Effect.never))
      yield* Effect.yieldNow()
      expect(gate.held()).toBe(1)
      yield* Fiber.interrupt(running)
      expect(gate.held()).toBe(0)
      expect(yield* gate.withPermit(Effect.succeed(42))).toBe(42)
    }))

  it.effect("interrupted waiters leave the queue; interrupting everything returns every permit", () =>
    Effect.gen(function*() {
      const gate = Gate.make(3)
      const fibers = yield* Effect.forEach(
        Array.from({ length: 50 }, (_, i) => i),
        (i) => Effect.fork(gate.withPermit(Effect.sleep(`${1 + (i % 7)} seconds`), { priority: i % 5 === 0 }))
      )
      yield* Effect.yieldNow()
      expect(gate.waiting()).toBe(47)
      // Interrupt every third waiter while it waits.
      const waiters = fibers.slice(3).filter((_, i) => i % 3 === 0)
      yield* Fiber.interruptAll(waiters)
      expect(gate.waiting()).toBe(47 - waiters.length)
      // Let some finish and hand their permits on, shrink and grow mid-way, then interrupt all of
      // them at once, running, just granted or waiting.
      yield* TestClock.adjust("2 seconds")
      yield* gate.resize(1)
      yield* TestClock.adjust("2 seconds")
      yield* gate.resize(4)
      yield* Fiber.interruptAll(fibers)
      expect(gate.waiting()).toBe(0)
      expect(gate.held()).toBe(0)
    }))
})
