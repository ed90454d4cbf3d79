/** Moves `TestClock` as real time would pass: sleep to sleep, every runnable fiber run between, until one is done.
 * @since 0.1.0 */
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"

/** @since 0.1.0
 * @category options */
export interface Options {
  /** The most Clock time to move through (default one hour) before the test dies saying the fiber still runs. */
  readonly limit?: Duration.DurationInput | undefined
}

/** The default `limit`: an hour of Clock time, more than any wait of the client's defaults.
 * @since 0.1.0
 * @category constants */
export const defaultLimit: Duration.Duration = Duration.hours(1)

/** The sleeps pending now, as a comparable snapshot. */
const snapshot = Effect.map(TestClock.sleeps(), (sleeps) => Chunk.join(Chunk.map(sleeps, String), ","))

/** Lets every fiber that can run, run: yields until a round leaves the pending sleeps as they were.
 * @since 0.1.0
 * @category combinators */
export const settle: Effect.Effect<void> = Effect.gen(function*() {
  let before = yield* snapshot
  for (let round = 0; round < 100; round++) {
    for (let i = 0; i < 50; i++) yield* Effect.yieldNow()
    const after = yield* snapshot
    if (after === before) return
    before = after
  }
})

const nextWakeUp = Effect.map(
  TestClock.sleeps(),
  (sleeps) => Chunk.reduce(sleeps, Number.POSITIVE_INFINITY, (a, b) => Math.min(a, b))
)

/** Moves the clock to `target` (ms), stopping at each pending sleep so every sleeper wakes at its own time.
 * @since 0.1.0
 * @category combinators */
export const advanceTo = (target: number): Effect.Effect<void> =>
  Effect.gen(function*() {
    for (;;) {
      yield* settle
      const now = yield* TestClock.currentTimeMillis
      const next = yield* nextWakeUp
      if (next > target) return yield* TestClock.adjust(Math.max(0, target - now))
      yield* TestClock.adjust(Math.max(0, next - now))
    }
  })

/** Moves the clock forward by `duration`, wake-up by wake-up (see `advanceTo`).
 * @since 0.1.0
 * @category combinators */
export const advance = (duration: Duration.DurationInput): Effect.Effect<void> =>
  Effect.flatMap(TestClock.currentTimeMillis, (now) => advanceTo(now + Duration.toMillis(duration)))

/**
 * Runs the clock, wake-up by wake-up, until `fiber` is done, and answers its result.
 *
 * @example
 * ```ts
 * import { TestClockDriver } from "@pdf-transform/testing"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const fiber = yield* Effect.fork(Effect.sleep("90 seconds"))
 *   yield* TestClockDriver.runUntilDone(fiber, { limit: "5 minutes" })
 * })
 * ```
 *
 * @since 0.1.0
 * @category combinators
 */
export const runUntilDone = <A, E>(fiber: Fiber.Fiber<A, E>, options?: Options): Effect.Effect<A, E> =>
  Effect.gen(function*() {
    const limit = Duration.toMillis(options?.limit ?? defaultLimit)
    const start = yield* TestClock.currentTimeMillis
    for (;;) {
      yield* settle
      const done = yield* Fiber.poll(fiber)
      if (Option.isSome(done)) return yield* Fiber.join(fiber)
      const now = yield* TestClock.currentTimeMillis
      const next = yield* nextWakeUp
      if (next === Number.POSITIVE_INFINITY) {
        return yield* Effect.dieMessage("the fiber waits and no sleep is pending to wake it (a deadlock)")
      }
      if (next - start > limit) {
        return yield* Effect.dieMessage(`the fiber is still running after ${Duration.format(Duration.millis(limit))}`)
      }
      yield* TestClock.adjust(Math.max(0, next - now))
    }
  })
