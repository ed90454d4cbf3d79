/** The worker pool the batch runs its jobs on: every element once, with its index, at most n at once. */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option, Ref, Stream, TestClock } from "effect"
import * as Workers from "../src/internal/workers.js"

describe("Workers.forEach", () => {
  it.effect("runs every element once with its index, at most `workers` at a time, across chunks", () =>
    Effect.gen(function*() {
      const seen: Array<[string, number]> = []
      const running = yield* Ref.make(0)
      const peak = yield* Ref.make(0)
      // Chunks of 3, so that workers refill while others still run.
      const input = Stream.fromIterable(Array.from({ length: 20 }, (_, i) => `e${i}`)).pipe(Stream.rechunk(3))
      const fiber = yield* Effect.fork(Workers.forEach(input, 4, (element, index) =>
        Effect.gen(function*() {
          const now = yield* Ref.updateAndGet(running, (n) => n + 1)
          yield* Ref.update(peak, (p) => Math.max(p, now))
          seen.push([element, index])
          yield* Effect.sleep(`${1 + (index % 3)} seconds`)
          yield* Ref.update(running, (n) => n - 1)
        })))
      yield* TestClock.adjust("1 minute")
      assert.isTrue(Exit.isSuccess(yield* fiber.await))
      assert.deepStrictEqual(
        [...seen].sort((a, b) => a[1] - b[1]),
        Array.from({ length: 20 }, (_, i) => [`e${i}`, i])
      )
      assert.strictEqual(yield* Ref.get(peak), 4)
    }))

  it.effect("the first failure interrupts the other workers and is the result; the input's too", () =>
    Effect.gen(function*() {
      const finished: Array<number> = []
      const exit = yield* Effect.fork(Workers.forEach(Stream.range(0, 9), 3, (n) =>
        n === 1 ?
          Effect.fail("boom" as const) :
          Effect.zipRight(Effect.sleep("10 seconds"), Effect.sync(() => void finished.push(n))))).pipe(
          Effect.tap(() => TestClock.adjust("1 minute")),
          Effect.flatMap((fiber) => fiber.await)
        )
      assert.deepStrictEqual(Exit.causeOption(exit).pipe(Option.flatMap(Cause.failureOption)), Option.some("boom"))
      assert.deepStrictEqual(finished, [])
      const broken = Stream.concat(Stream.make(1, 2), Stream.fail("unreadable" as const))
      const counted: Array<number> = []
      const failed = yield* Effect.exit(Workers.forEach(broken, 2, (n) => Effect.sync(() => void counted.push(n))))
      assert.deepStrictEqual(
        Exit.causeOption(failed).pipe(Option.flatMap(Cause.failureOption)),
        Option.some("unreadable")
      )
      assert.deepStrictEqual(counted.sort(), [1, 2])
    }))
})
