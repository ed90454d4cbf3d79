import { assert, describe, it } from "@effect/vitest"
import { Contract, PdfTransformClient, PdfTransformError, RateLimit } from "@pdf-transform/core"
import { Chunk, Effect, Either, Fiber, Option, Stream, TestClock } from "effect"
import { TestClockDriver, TestErrors, TestPdfTransformClient } from "../src/index.js"

const request = { pdfURL: "https://files.example.com/a.pdf" }

const text = (stream: Stream.Stream<Uint8Array, unknown>) =>
  Effect.map(
    Stream.runCollect(stream),
    (chunks) => Buffer.concat(Chunk.toReadonlyArray(chunks)).toString("utf8")
  )

const slowTimeline: TestPdfTransformClient.Script = {
  _tag: "Timeline",
  timeline: [
    { after: "2 seconds", status: { state: "processing", progress: 40 } },
    { after: "5 seconds", status: { state: "completed" } }
  ],
  output: "# slow\n"
}

describe("TestPdfTransformClient", () => {
  it.effect("completes at once by default and downloads the default output", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const control = yield* TestPdfTransformClient.TestPdfTransformClient
      const completed = yield* client.convert("markdown", request)
      assert.strictEqual(completed.format, "markdown")
      assert.isTrue(URL.canParse(completed.downloadURL))
      assert.strictEqual(yield* text(client.download(completed)), TestPdfTransformClient.defaultOutput)
      const calls = yield* control.calls
      assert.deepStrictEqual(calls.map((call) => [call.method, call.sessionId]), [
        ["convert", completed.sessionId],
        ["download", completed.sessionId]
      ])
      assert.deepStrictEqual(calls[0]!.request, request)
    }).pipe(Effect.provide(TestPdfTransformClient.layer())))

  it.effect("follows the scripted timeline on the Clock, polling as the real client does (progress-aware)", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const control = yield* TestPdfTransformClient.TestPdfTransformClient
      yield* control.script(slowTimeline)
      const task = yield* client.submit("epub", request)
      assert.deepStrictEqual(task.rateLimit, RateLimit.empty)
      assert.deepStrictEqual(yield* client.status(task), { success: true, state: "processing" })

      const waiting = yield* Effect.fork(client.awaitCompletion(task))
      yield* TestClock.adjust("2 seconds")
      assert.deepStrictEqual(yield* client.status(task), { success: true, state: "processing", progress: 40 })
      // 40 % after 2 s puts the completion at 5 s: the next poll lands 1 % of that (50 ms) after it.
      yield* TestClock.adjust("3 seconds")
      assert.isTrue(Option.isNone(yield* Fiber.poll(waiting)))
      yield* TestClock.adjust("50 millis")
      const completed = yield* Fiber.join(waiting)
      assert.strictEqual(completed.sessionId, task.sessionId)
      assert.strictEqual(completed.format, "epub")
      assert.strictEqual(yield* text(client.download(completed)), "# slow\n")

      const calls = yield* control.calls
      assert.deepStrictEqual(calls.map((call) => [call.method, call.at]), [
        ["submit", 0],
        ["status", 0],
        ["awaitCompletion", 0],
        ["status", 2000],
        ["download", 5050]
      ])
      // The polls of awaitCompletion reached the fake, on the real client's schedule: 0, 2 s, 5.05 s.
      const polls = (yield* control.server.requests).filter((r) => r.path.includes("/result/"))
      assert.deepStrictEqual(polls.map((r) => r.at), [0, 0, 2000, 2000, 5050])
    }).pipe(Effect.provide(TestPdfTransformClient.layer({ client: { poll: { jitter: false } } }))))

  it.effect("watch emits every polled status until the terminal one", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const control = yield* TestPdfTransformClient.TestPdfTransformClient
      yield* control.script(slowTimeline)
      const task = yield* client.submit("markdown", request)
      const watching = yield* Effect.fork(Stream.runCollect(client.watch(task, { initialInterval: "2 seconds" })))
      yield* TestClock.adjust("6 seconds")
      const statuses = Chunk.toReadonlyArray(yield* Fiber.join(watching))
      // polls at 0, 2 s and 5.05 s (just after the completion that 40 % at 2 s predicts)
      assert.deepStrictEqual(statuses.map((status) => [status.state, status.progress]), [
        ["processing", undefined],
        ["processing", 40],
        ["completed", 100]
      ])
    }).pipe(Effect.provide(TestPdfTransformClient.layer({ client: { poll: { jitter: false } } }))))

  it.effect("fails with ConversionFailed carrying the reason and the highest progress", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const control = yield* TestPdfTransformClient.TestPdfTransformClient
      yield* control.script({
        _tag: "Timeline",
        timeline: [
          { after: 0, status: { state: "processing", progress: 70 } },
          { after: "3 seconds", status: { state: "failed", error: "encrypted PDF", progress: 0 } }
        ]
      }, { _tag: "Timeline", timeline: [{ after: 0, status: { state: "failed", error: "" } }] })
      const converting = yield* Effect.fork(Effect.either(client.convert("markdown", request)))
      // The real client's default schedule is jittered: the clock goes from poll to poll until the end.
      const result = yield* TestClockDriver.runUntilDone(converting)
      assert.isTrue(Either.isLeft(result))
      const error = (result as Either.Left<unknown, unknown>).left
      assert.instanceOf(error, PdfTransformError.ConversionFailed)
      assert.strictEqual(error.reason, "encrypted PDF")
      assert.strictEqual(error.progress, 70)
      assert.strictEqual(error.format, "markdown")

      const empty = yield* Effect.flip(client.convert("epub", request))
      assert.strictEqual(empty._tag, "ConversionFailed")
      assert.strictEqual((empty as PdfTransformError.ConversionFailed).reason, "no details")
    }).pipe(Effect.provide(TestPdfTransformClient.layer())))

  it.effect("fails with PollTimeout at the deadline, with the last status", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const control = yield* TestPdfTransformClient.TestPdfTransformClient
      yield* control.script(
        { _tag: "Timeline", timeline: [{ after: "1 second", status: { state: "processing", progress: 12 } }] },
        { _tag: "Timeline", timeline: [] }
      )
      const task = yield* client.submit("markdown", request)
      const waiting = yield* Effect.fork(Effect.flip(client.awaitCompletion(task)))
      yield* TestClock.adjust("9 seconds")
      assert.isTrue(Option.isNone(yield* Fiber.poll(waiting)))
      yield* TestClock.adjust("1 second")
      const error = yield* Fiber.join(waiting)
      assert.instanceOf(error, PdfTransformError.PollTimeout)
      assert.strictEqual(error.sessionId, task.sessionId)
      assert.strictEqual(error.waitedMs, 10_000)
      assert.deepStrictEqual(error.lastStatus, { state: "processing", progress: 12 })

      // PollOptions.deadline wins over the layer's
      const other = yield* client.submit("markdown", request)
      const short = yield* Effect.fork(Effect.flip(client.awaitCompletion(other, { deadline: "3 seconds" })))
      yield* TestClock.adjust("3 seconds")
      const shortError = yield* Fiber.join(short)
      assert.strictEqual(shortError._tag, "PollTimeout")
      assert.strictEqual((shortError as PdfTransformError.PollTimeout).waitedMs, 3000)
    }).pipe(
      Effect.provide(TestPdfTransformClient.layer({
        client: { poll: { deadline: "10 seconds", initialInterval: "1 second" } }
      }))
    ))

  it.effect("fails a submit with the scripted error and creates no task; the next script applies after", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const control = yield* TestPdfTransformClient.TestPdfTransformClient
      const rateLimited = TestErrors.rateLimited({
        reason: "quota_exceeded",
        retryAfter: "1 hour",
        policy: `"conc";q=2;qu="concurrent-requests"`
      })
      assert.strictEqual(rateLimited.retryAfterMs, 3_600_000)
      assert.strictEqual(rateLimited.attempts, 1)
      assert.deepStrictEqual(RateLimit.concurrencyLimit(rateLimited.rateLimit), Option.some(2))
      yield* control.script({ _tag: "SubmitError", error: rateLimited })
      const error = yield* Effect.flip(client.submit("markdown", request))
      assert.strictEqual(error, rateLimited)
      assert.lengthOf(yield* control.server.requests, 0)
      const task = yield* client.submit("markdown", request)
      assert.strictEqual((yield* client.status(task)).state, "completed")
      const calls = yield* control.calls
      assert.deepStrictEqual(calls.map((call) => [call.method, call.sessionId]), [
        ["submit", undefined],
        ["submit", task.sessionId],
        ["status", task.sessionId]
      ])
    }).pipe(Effect.provide(TestPdfTransformClient.layer())))

  it.effect("refuses an invalid request with InvalidRequest without consuming a script", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const control = yield* TestPdfTransformClient.TestPdfTransformClient
      yield* control.script({ _tag: "Timeline", timeline: [], output: "never" })
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL: "not a url" }))
      assert.instanceOf(error, PdfTransformError.InvalidRequest)
      assert.strictEqual(error.operation, "submit")
      const task = yield* client.submit("markdown", request)
      assert.strictEqual((yield* client.status(task)).state, "processing")
    }).pipe(Effect.provide(TestPdfTransformClient.layer())))

  it.effect("answers TaskNotFound for an unknown id or a task of the other format", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const unknown = PdfTransformClient.task("markdown", Contract.SessionId.make("nope"))
      const error = yield* Effect.flip(client.status(unknown))
      assert.instanceOf(error, PdfTransformError.TaskNotFound)
      const task = yield* client.submit("markdown", request)
      const other = yield* Effect.flip(client.awaitCompletion(PdfTransformClient.task("epub", task.sessionId)))
      assert.strictEqual(other._tag, "TaskNotFound")
      const download = yield* Effect.flip(
        Stream.runDrain(client.download({ format: "epub", sessionId: task.sessionId, downloadURL: "https://x.test" }))
      )
      assert.instanceOf(download, PdfTransformError.DownloadFailed)
    }).pipe(Effect.provide(TestPdfTransformClient.layer())))

  it.effect("refuses to download a task that is not completed", () =>
    Effect.gen(function*() {
      const { client, control } = yield* TestPdfTransformClient.make()
      yield* control.script(slowTimeline)
      const task = yield* client.submit("markdown", request)
      const early = yield* Effect.flip(
        Stream.runDrain(client.download({ ...task, downloadURL: "https://x.test" }))
      )
      // The fake refuses the made-up URL; the real client polls once for a fresh one and finds none.
      assert.strictEqual(early.reason, "the URL expired and the task is now processing")
    }))
})
