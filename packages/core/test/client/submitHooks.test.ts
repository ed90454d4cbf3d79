/**
 * The submit hooks: a caller's part in each attempt (a batch's journal and gates), through
 * FakeServer with the real client, under TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import { PdfTransformClient } from "@pdf-transform/core"
import { FakeServer } from "@pdf-transform/testing"
import { Effect, Exit, Fiber, TestClock } from "effect"
import { createdTasks, makeLayer, pdfURL, submits } from "./utils.js"

const enqueue = (...steps: ReadonlyArray<FakeServer.SubmitStep>) =>
  Effect.flatMap(FakeServer.FakeServer, (server) => server.enqueueSubmit(...steps))

/** Hooks that log what they see, answering `decide` to each refusal. */
const logging = (log: Array<string>, decide: "retry" | "stop" = "retry"): PdfTransformClient.SubmitRetryOptions => ({
  beforeAttempt: (attempt) => Effect.sync(() => void log.push(`before ${attempt}`)),
  onAccepted: (task, attempt) => Effect.sync(() => void log.push(`accepted ${attempt} ${task.sessionId}`)),
  onRefused: (error, attempt) => Effect.as(Effect.sync(() => void log.push(`refused ${attempt} ${error._tag}`)), decide)
})

describe("submit hooks", () => {
  it.effect("see every attempt in order, numbered from 1, around its request", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* enqueue(
        { _tag: "RateLimited", reason: "rate_exceeded", retryAfterMs: 1000 },
        { _tag: "Fault", fault: { _tag: "ResetBeforeSend" } }
      )
      const log: Array<string> = []
      const fiber = yield* Effect.fork(client.submit("markdown", { pdfURL }, logging(log)))
      yield* TestClock.adjust("1 minute")
      const task = yield* Fiber.join(fiber)
      assert.deepStrictEqual(log, [
        "before 1",
        "refused 1 RateLimited",
        "before 2",
        "refused 2 TransportError",
        "before 3",
        `accepted 3 ${task.sessionId}`
      ])
      assert.lengthOf(yield* submits, 3)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("onRefused's stop ends the submit with that error at once", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* enqueue({ _tag: "RateLimited", reason: "rate_exceeded", retryAfterMs: 500 })
      const log: Array<string> = []
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }, logging(log, "stop")))
      assert.strictEqual(error._tag, "RateLimited")
      assert.deepStrictEqual(log, ["before 1", "refused 1 RateLimited"])
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("a submit whose outcome is unknown is never sent again, whatever onRefused answers", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* enqueue({ _tag: "Fault", fault: { _tag: "ResetAfterSend" } })
      const log: Array<string> = []
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }, logging(log, "retry")))
      assert.strictEqual(error._tag, "SubmitOutcomeUnknown")
      assert.deepStrictEqual(log, ["before 1", "refused 1 SubmitOutcomeUnknown"])
      assert.lengthOf(yield* submits, 1)
      assert.lengthOf(yield* createdTasks, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("a hook that fails ends the submit with its error; beforeAttempt's failure sends nothing", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const closed = yield* Effect.flip(
        client.submit("markdown", { pdfURL }, { beforeAttempt: () => Effect.fail("closed" as const) })
      )
      assert.strictEqual(closed, "closed")
      assert.lengthOf(yield* submits, 0)
      const unwritten = yield* Effect.flip(
        client.submit("markdown", { pdfURL }, { onAccepted: () => Effect.fail("journal full" as const) })
      )
      assert.strictEqual(unwritten, "journal full")
      assert.lengthOf(yield* createdTasks, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("an attempt with its hooks is uninterruptible: a task created is always handed to onAccepted", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const log: Array<string> = []
      const fiber = yield* Effect.fork(client.submit("markdown", { pdfURL }, logging(log)))
      yield* TestClock.adjust("500 millis")
      // The request is at the service (its answer takes a second): interrupting waits for the answer.
      const interrupting = yield* Effect.fork(Fiber.interrupt(fiber))
      yield* TestClock.adjust("500 millis")
      const exit = yield* Fiber.join(interrupting)
      assert.isTrue(Exit.isInterrupted(exit) || Exit.isSuccess(exit))
      assert.deepStrictEqual(log, ["before 1", "accepted 1 task-1"])
      assert.lengthOf(yield* createdTasks, 1)
    }).pipe(Effect.provide(makeLayer({ server: { latency: "1 second" } }))))

  it.effect("the wait between attempts is interruptible, and a hook may wait interruptibly", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* enqueue({ _tag: "RateLimited", reason: "rate_exceeded", retryAfterMs: 60_000 })
      const log: Array<string> = []
      const sleeping = yield* Effect.fork(client.submit("markdown", { pdfURL }, logging(log)))
      yield* TestClock.adjust("1 millis")
      // No clock moves: the interruption ends the 60 s wait at once.
      assert.isTrue(Exit.isInterrupted(yield* Fiber.interrupt(sleeping)))
      assert.deepStrictEqual(log, ["before 1", "refused 1 RateLimited"])
      const waiting = yield* Effect.fork(
        client.submit("markdown", { pdfURL }, { beforeAttempt: () => Effect.interruptible(Effect.never) })
      )
      yield* TestClock.adjust("1 millis")
      assert.isTrue(Exit.isInterrupted(yield* Fiber.interrupt(waiting)))
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer())))
})
