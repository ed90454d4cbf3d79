/**
 * The clock driver against the cases that break a guessed `TestClock.adjust`: a wait whose length
 * is drawn at random, chains of sleeps that each schedule the next, a deadlock, a runaway fiber.
 */
import { assert, describe, it } from "@effect/vitest"
import { PdfTransformClient, PdfTransformError } from "@pdf-transform/core"
import { Clock, Effect, Exit, Fiber, Random } from "effect"
import { TestClockDriver, TestPdfTransformClient } from "../src/index.js"

describe("TestClockDriver", () => {
  it.effect("runs a chain of sleeps of random lengths to its end, each at its own time", () =>
    Effect.gen(function*() {
      const woke: Array<number> = []
      const chain = Effect.forEach([1, 2, 3, 4, 5], () =>
        Effect.gen(function*() {
          yield* Effect.sleep(yield* Random.nextIntBetween(1_000, 60_000))
          woke.push(yield* Clock.currentTimeMillis)
        }), { discard: true })
      const fiber = yield* Effect.fork(Effect.as(chain, "done"))
      assert.strictEqual(yield* TestClockDriver.runUntilDone(fiber), "done")
      assert.lengthOf(woke, 5)
      // The clock stopped where the last sleep ended, not beyond.
      assert.strictEqual(yield* Clock.currentTimeMillis, woke[4])
    }))

  it.effect("a failed conversion surfaces whenever the jittered polls happen to look", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const test = yield* TestPdfTransformClient.TestPdfTransformClient
      yield* test.script({
        _tag: "Timeline",
        timeline: [{ after: "5 seconds", status: { state: "failed", error: "encrypted PDF" } }]
      })
      const fiber = yield* Effect.fork(
        Effect.flip(client.convert("epub", { pdfURL: "https://files.example.com/a.pdf" }))
      )
      const error = yield* TestClockDriver.runUntilDone(fiber)
      assert.instanceOf(error, PdfTransformError.ConversionFailed)
      assert.isAtLeast(yield* Clock.currentTimeMillis, 5_000)
    }).pipe(Effect.provide(TestPdfTransformClient.layer())))

  it.effect("dies, saying so, when the fiber waits and nothing is left to wake it", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.fork(Effect.never)
      const exit = yield* Effect.exit(TestClockDriver.runUntilDone(fiber))
      assert.isTrue(Exit.isFailure(exit) && String(exit.cause).includes("deadlock"))
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("dies past its limit when the fiber keeps sleeping", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.fork(Effect.forever(Effect.sleep("1 minute")))
      const exit = yield* Effect.exit(TestClockDriver.runUntilDone(fiber, { limit: "10 minutes" }))
      assert.isTrue(Exit.isFailure(exit) && String(exit.cause).includes("still running"))
      assert.isAtMost(yield* Clock.currentTimeMillis, 10 * 60_000)
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("advance moves through every wake-up on the way", () =>
    Effect.gen(function*() {
      const woke: Array<number> = []
      yield* Effect.fork(Effect.forever(
        Effect.zipRight(
          Effect.sleep("700 millis"),
          Effect.flatMap(Clock.currentTimeMillis, (t) => Effect.sync(() => void woke.push(t)))
        )
      ))
      yield* TestClockDriver.advance("3 seconds")
      assert.deepStrictEqual(woke, [700, 1400, 2100, 2800])
      assert.strictEqual(yield* Clock.currentTimeMillis, 3_000)
    }))
})
