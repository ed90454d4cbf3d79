/**
 * RELIABILITY.md, "Client: polling a result": every row, through FakeServer with the real client,
 * under TestClock; plus progress-aware polling and resuming.
 */
import { assert, describe, it } from "@effect/vitest"
import { Contract, PdfTransformClient } from "@pdf-transform/core"
import { FakeServer } from "@pdf-transform/testing"
import { Chunk, Duration, Effect, Either, Fiber, Logger, Ref, Schedule, Stream, TestClock } from "effect"
import { makeLayer, pdfURL, polls, runClockUntilDone } from "./utils.js"

const Client = PdfTransformClient.PdfTransformClient

const submitWith = (timeline: FakeServer.Timeline) =>
  Effect.gen(function*() {
    const server = yield* FakeServer.FakeServer
    yield* server.enqueueSubmit({ _tag: "Accept", timeline })
    const client = yield* Client
    return yield* client.submit("markdown", { pdfURL })
  })

const enqueueResult = (sessionId: string, ...steps: ReadonlyArray<FakeServer.StatusStep>) =>
  Effect.flatMap(FakeServer.FakeServer, (server) => server.enqueueResult(sessionId, ...steps))

const pollTimes = Effect.map(polls, (all) => all.map((r) => r.at))

const gapsOf = (times: ReadonlyArray<number>) => times.slice(1).map((t, i) => t - times[i]!)

/** Runs awaitCompletion in a fiber, moving the clock (see `runClockUntilDone`) up to `limit` seconds. */
const awaitForked = <F extends Contract.Format>(
  task: PdfTransformClient.Task<F>,
  options?: PdfTransformClient.PollOptions,
  limit = 700
) =>
  Effect.gen(function*() {
    const client = yield* Client
    const fiber = yield* Effect.fork(Effect.either(client.awaitCompletion(task, options)))
    return yield* runClockUntilDone(fiber, limit * 1000)
  })

/** Submits a task with `timeline`, queues `answers` for its first polls, and awaits it (see `awaitForked`). */
const awaitAnswered = (
  timeline: FakeServer.Timeline,
  answers: ReadonlyArray<FakeServer.StatusStep>,
  options?: PdfTransformClient.PollOptions
) =>
  Effect.gen(function*() {
    const task = yield* submitWith(timeline)
    yield* enqueueResult(task.sessionId, ...answers)
    return yield* awaitForked(task, options)
  })

const atOnce = (state: "processing" | "completed"): FakeServer.Timeline => [{ after: 0, status: { state } }]

const fault = (fault: FakeServer.Fault): FakeServer.StatusStep => ({ state: "fault", fault })

const linearTimeline = (seconds: number): FakeServer.Timeline => [
  ...Array.from({ length: seconds }, (_, t) => ({
    after: Duration.seconds(t),
    status: { state: "processing" as const, progress: (t / seconds) * 100 }
  })),
  { after: Duration.seconds(seconds), status: { state: "completed" as const } }
]

describe("completion", () => {
  const task = PdfTransformClient.task("epub", Contract.SessionId.make("s-1"))

  it("turns a completed status into the task to download, a failed one into ConversionFailed", () => {
    const done = PdfTransformClient.completion(task, {
      success: true,
      state: "completed",
      data: { downloadURL: "https://files.example.com/out.epub" }
    })
    assert.deepStrictEqual(
      done,
      Either.right({
        format: "epub" as const,
        sessionId: task.sessionId,
        downloadURL: "https://files.example.com/out.epub"
      })
    )
    const failed = PdfTransformClient.completion(task, { success: false, state: "failed", error: "  ", progress: 40 })
    assert.isTrue(Either.isLeft(failed))
    if (Either.isLeft(failed)) {
      assert.strictEqual(failed.left._tag, "ConversionFailed")
      assert.strictEqual(failed.left.reason, "no details")
      assert.strictEqual(failed.left.progress, 40)
      assert.strictEqual(failed.left.sessionId, "s-1")
    }
    assert.isFalse(PdfTransformClient.isTerminal({ success: true, state: "processing" }))
    assert.isFalse(PdfTransformClient.isTerminal({ state: "unrecognized", reported: "queued" }))
  })
})

describe("awaitCompletion", () => {
  it.effect("processing, with and without progress, going backwards: keeps polling, reports the highest", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([
        { after: 0, status: { state: "processing" } },
        { after: "3 seconds", status: { state: "processing", progress: 50 } },
        { after: "6 seconds", status: { state: "processing", progress: 20 } },
        { after: "20 seconds", status: { state: "failed", error: "bad page", progress: 0 } }
      ])
      const client = yield* Client
      const fiber = yield* Effect.fork(
        client.watch(task).pipe(Stream.runCollect, Effect.map(Chunk.toReadonlyArray))
      )
      yield* TestClock.adjust("60 seconds")
      const statuses = yield* Fiber.join(fiber)
      const progress = statuses.map((s) => s.progress)
      // Never backwards in what callers see.
      for (let i = 1; i < progress.length; i++) {
        if (progress[i] !== undefined && progress[i - 1] !== undefined) assert.isTrue(progress[i]! >= progress[i - 1]!)
      }
      assert.strictEqual(statuses[statuses.length - 1]?.state, "failed")
      const error = yield* Effect.flip(client.awaitCompletion(task))
      assert.strictEqual(error._tag, "ConversionFailed")
      if (error._tag === "ConversionFailed") {
        assert.strictEqual(error.reason, "bad page")
        assert.strictEqual(error.progress, 0)
      }
    }).pipe(Effect.provide(makeLayer())))

  it.effect("onStatus sees every status watch would give, in order, the terminal one included", () =>
    Effect.gen(function*() {
      const timeline: FakeServer.Timeline = [
        { after: 0, status: { state: "processing" } },
        { after: "3 seconds", status: { state: "processing", progress: 50 } },
        { after: "6 seconds", status: { state: "processing", progress: 20 } },
        { after: "9 seconds", status: { state: "completed" } }
      ]
      const client = yield* Client
      const watched = yield* Effect.fork(
        Effect.flatMap(submitWith(timeline), (task) => Stream.runCollect(client.watch(task)))
      )
      yield* TestClock.adjust("60 seconds")
      const expected = Chunk.toReadonlyArray(yield* Fiber.join(watched))

      const seen: Array<PdfTransformClient.Status> = []
      const task = yield* submitWith(timeline)
      const done = yield* awaitForked(task, { onStatus: (status) => Effect.sync(() => void seen.push(status)) })
      assert.isTrue(Either.isRight(done))
      assert.deepStrictEqual(seen.map((s) => [s.state, s.progress]), expected.map((s) => [s.state, s.progress]))
      // The highest progress is shown: a later 20 reads as 50.
      assert.include(seen.map((s) => s.progress), 50)
      assert.notInclude(seen.map((s) => s.progress), 20)
      assert.strictEqual(seen[seen.length - 1]?.state, "completed")
    }).pipe(Effect.provide(makeLayer())))

  it.effect("ConversionFailed carries the highest progress seen", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([
        { after: 0, status: { state: "processing", progress: 60 } },
        { after: "3 seconds", status: { state: "processing", progress: 10 } },
        { after: "6 seconds", status: { state: "failed", error: "timeout in converter" } }
      ])
      const result = yield* awaitForked(task)
      assert.isTrue(Either.isLeft(result))
      if (Either.isLeft(result) && result.left._tag === "ConversionFailed") {
        assert.strictEqual(result.left.progress, 60)
        assert.strictEqual(result.left.reason, "timeout in converter")
      } else assert.fail("expected ConversionFailed")
    }).pipe(Effect.provide(makeLayer())))

  it.effect("200 and 202 both carry a processing body", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([
        { after: 0, status: { state: "processing", progress: 10, httpStatus: 202 } },
        { after: "4 seconds", status: { state: "processing", progress: 50, httpStatus: 200 } },
        { after: "8 seconds", status: { state: "completed" } }
      ])
      const result = yield* awaitForked(task)
      assert.isTrue(Either.isRight(result))
      assert.isTrue(Either.isRight(result) && result.right.downloadURL.startsWith("https://"))
      assert.isAtLeast((yield* polls).length, 3)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("completed: stops polling at once", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([{ after: "5 seconds", status: { state: "completed" } }])
      const result = yield* awaitForked(task)
      assert.isTrue(Either.isRight(result))
      const count = (yield* polls).length
      yield* TestClock.adjust("5 minutes")
      assert.lengthOf(yield* polls, count)
    }).pipe(Effect.provide(makeLayer())))

  it.effect(
    "a delay landing a hair before the deadline ends the wait there instead of polling again and again",
    () =>
      Effect.gen(function*() {
        // Clock times add up with rounding: 10,000 ms plus 410 steps of 7.3 ms is
        // 12,999.99999999995, a remainder to the deadline below a nanosecond, which a Duration
        // rounds to a zero sleep. The client then once polled at the same instant in a loop that
        // never let the clock move. The server answers "completed" after 450 polls, so such a loop
        // shows as a success here, not as a hang.
        yield* TestClock.setTime(10_000)
        const task = yield* submitWith([{ after: 0, status: { state: "processing", progress: 10 } }])
        const processing: FakeServer.StatusStep = { state: "processing", progress: 10 }
        yield* enqueueResult(task.sessionId, ...Array.from({ length: 450 }, () => processing), { state: "completed" })
        const result = yield* awaitForked(task, {
          schedule: Schedule.spaced(Duration.millis(7.3)),
          progressAware: false,
          deadline: "3 seconds"
        }, 4)
        assert.strictEqual(Either.isLeft(result) ? result.left._tag : "completed", "PollTimeout")
        assert.isBelow((yield* polls).length, 450)
      }).pipe(Effect.provide(makeLayer())),
    // 450 in-memory polls take seconds on a loaded machine.
    60_000
  )

  const completedWithoutUrl: FakeServer.StatusStep = {
    state: "raw",
    response: {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ success: true, state: "completed", progress: 100 })
    }
  }

  it.effect("completed without downloadURL: one re-poll, then InvalidResponse", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([{ after: 0, status: completedWithoutUrl }])
      const result = yield* awaitForked(task)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "InvalidResponse")
      assert.lengthOf(yield* polls, 2)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("completed without downloadURL once, then a good answer: completes", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([{ after: 0, status: { state: "completed" } }])
      yield* enqueueResult(task.sessionId, completedWithoutUrl)
      const result = yield* awaitForked(task)
      assert.isTrue(Either.isRight(result))
      assert.lengthOf(yield* polls, 2)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("failed with an empty reason: ConversionFailed with \"no details\"", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([{ after: 0, status: { state: "failed", error: "" } }])
      const result = yield* awaitForked(task)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "ConversionFailed")
      if (Either.isLeft(result) && result.left._tag === "ConversionFailed") {
        assert.strictEqual(result.left.reason, "no details")
      }
    }).pipe(Effect.provide(makeLayer())))

  it.effect("a failure sent as state \"error\" (seen in public clients) is a ConversionFailed", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([{
        after: 0,
        status: {
          state: "raw",
          response: {
            status: 200,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ success: false, state: "error", error: "unsupported file" })
          }
        }
      }])
      const result = yield* awaitForked(task)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "ConversionFailed")
      assert.strictEqual(
        Either.isLeft(result) && result.left._tag === "ConversionFailed" && result.left.reason,
        "unsupported file"
      )
    }).pipe(Effect.provide(makeLayer())))

  it.effect("an unknown state keeps polling until the deadline, and is logged once", () =>
    Effect.gen(function*() {
      const logs = yield* Ref.make<ReadonlyArray<string>>([])
      const logger = Logger.make(({ message }) => {
        Effect.runSync(Ref.update(logs, (all) => [...all, String(message)]))
      })
      const task = yield* submitWith([{
        after: 0,
        status: {
          state: "raw",
          response: {
            status: 200,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ success: true, state: "queued", progress: 5 })
          }
        }
      }])
      const result = yield* awaitForked(task, { deadline: "60 seconds" }).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, logger))
      )
      assert.isTrue(Either.isLeft(result) && result.left._tag === "PollTimeout")
      if (Either.isLeft(result) && result.left._tag === "PollTimeout") {
        assert.deepStrictEqual(result.left.lastStatus, { state: "queued", progress: 5 })
      }
      assert.isAtLeast((yield* polls).length, 5)
      const warnings = (yield* Ref.get(logs)).filter((m) => m.includes("unknown task state"))
      assert.lengthOf(warnings, 1)
      const client = yield* Client
      assert.deepStrictEqual(yield* client.status(task), { state: "unrecognized", reported: "queued", progress: 5 })
    }).pipe(Effect.provide(makeLayer())))

  it.effect("404: TaskNotFound, terminal", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const task = PdfTransformClient.task("markdown", Contract.SessionId.make("does-not-exist"))
      const result = yield* awaitForked(task)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "TaskNotFound")
      assert.lengthOf(yield* polls, 1)
      const error = yield* Effect.flip(client.status(task))
      assert.strictEqual(error._tag, "TaskNotFound")
    }).pipe(Effect.provide(makeLayer())))

  it.effect("a request that cannot be built (an invalid URL) is a TransportError that was not sent", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const error = yield* Effect.flip(client.status(PdfTransformClient.task("markdown", Contract.SessionId.make("s"))))
      assert.strictEqual(error._tag, "TransportError")
      if (error._tag === "TransportError") {
        assert.isFalse(error.sent)
        assert.match(error.reason, /InvalidUrl/)
      }
      assert.lengthOf(yield* polls, 0)
    }).pipe(Effect.provide(makeLayer({ client: { baseUrl: "relative/v1" } }))))

  it.effect("a Markdown sessionID on the EPUB endpoint is not found", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const task = yield* client.submit("markdown", { pdfURL })
      const error = yield* Effect.flip(client.status(PdfTransformClient.task("epub", task.sessionId)))
      assert.strictEqual(error._tag, "TaskNotFound")
      assert.strictEqual((yield* client.status(task)).state, "completed")
    }).pipe(Effect.provide(makeLayer())))

  it.effect("5xx, 429, reset and timeout on a GET are transient; Retry-After is honoured", () =>
    Effect.gen(function*() {
      const result = yield* awaitAnswered(atOnce("completed"), [
        fault({ _tag: "ServerError" }),
        fault({
          _tag: "Raw",
          response: { status: 429, headers: { "retry-after": "7", "content-type": "application/json" }, body: "{}" }
        }),
        fault({ _tag: "ResetAfterSend" }),
        fault({ _tag: "ResetBeforeSend" }),
        fault({ _tag: "SlowBody", delay: "10 minutes" })
      ])
      assert.isTrue(Either.isRight(result))
      const times = yield* pollTimes
      assert.lengthOf(times, 6)
      // The poll after the 429 waited its Retry-After (7 s), more than the schedule's 3 s.
      assert.isAtLeast(times[2]! - times[1]!, 7000)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("onTransientFailure sees each failure the wait rides out; failing it ends the wait with that error", () =>
    Effect.gen(function*() {
      const seen: Array<string> = []
      const done = yield* awaitAnswered(atOnce("completed"), [
        fault({ _tag: "ServerError" }),
        fault({ _tag: "ResetBeforeSend" })
      ], { onTransientFailure: (error) => Effect.sync(() => void seen.push(error._tag)) })
      assert.isTrue(Either.isRight(done))
      assert.deepStrictEqual(seen, ["UnexpectedResponse", "TransportError"])

      const given = yield* awaitAnswered(atOnce("completed"), [fault({ _tag: "ResetBeforeSend" })], {
        onTransientFailure: (error) => error._tag === "TransportError" ? Effect.fail(error) : Effect.void
      })
      assert.isTrue(Either.isLeft(given) && given.left._tag === "TransportError" && !given.left.sent)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("a 4xx that is not transient ends the wait with UnexpectedResponse", () =>
    Effect.gen(function*() {
      const result = yield* awaitAnswered(atOnce("processing"), [
        fault({ _tag: "Raw", response: { status: 402, body: "payment required" } })
      ])
      assert.isTrue(Either.isLeft(result) && result.left._tag === "UnexpectedResponse")
    }).pipe(Effect.provide(makeLayer())))

  it.effect("401 while polling: Unauthenticated, terminal", () =>
    Effect.gen(function*() {
      const result = yield* awaitAnswered(atOnce("processing"), [fault({
        _tag: "Raw",
        response: {
          status: 401,
          headers: { "content-type": "application/json", "www-authenticate": "Bearer realm=\"x\"" },
          body: JSON.stringify({
            error: "Unauthorized",
            code: "UNAUTHENTICATED",
            message: "expired",
            resolution: "renew"
          })
        }
      })])
      assert.isTrue(Either.isLeft(result) && result.left._tag === "Unauthenticated")
      assert.lengthOf(yield* polls, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("200 with non-JSON or schema-invalid bodies: retried a couple of times, then InvalidResponse", () =>
    Effect.gen(function*() {
      const result = yield* awaitAnswered(atOnce("processing"), [
        fault({ _tag: "NotJson" }),
        fault({ _tag: "InvalidBody" }),
        fault({ _tag: "NotJson" })
      ])
      assert.isTrue(Either.isLeft(result) && result.left._tag === "InvalidResponse")
      assert.lengthOf(yield* polls, 3)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("two bad bodies then a good one: the wait goes on", () =>
    Effect.gen(function*() {
      const result = yield* awaitAnswered(atOnce("completed"), [
        fault({ _tag: "NotJson" }),
        fault({ _tag: "InvalidBody" })
      ])
      assert.isTrue(Either.isRight(result))
      assert.lengthOf(yield* polls, 3)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("processing past the deadline: PollTimeout with the sessionID and last status; resumable", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([
        { after: 0, status: { state: "processing", progress: 40 } },
        { after: "700 seconds", status: { state: "completed" } }
      ])
      const result = yield* awaitForked(task)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "PollTimeout")
      if (Either.isLeft(result) && result.left._tag === "PollTimeout") {
        assert.strictEqual(result.left.sessionId, task.sessionId)
        assert.deepStrictEqual(result.left.lastStatus, { state: "processing", progress: 40 })
        assert.strictEqual(result.left.waitedMs, 600_000)
      }
      // The last poll lands on the deadline, never after it.
      const times = yield* pollTimes
      assert.strictEqual(times[times.length - 1], 600_000)
      // Not lost: a new wait from the stored sessionID completes.
      const resumed = PdfTransformClient.task("markdown", task.sessionId)
      const again = yield* awaitForked(resumed)
      assert.isTrue(Either.isRight(again))
    }).pipe(Effect.provide(makeLayer())))

  it.effect("transient failures until the deadline end as PollTimeout, not as a transport error", () =>
    Effect.gen(function*() {
      const faults = Array.from({ length: 200 }, () => fault({ _tag: "ServerError" }))
      const result = yield* awaitAnswered(atOnce("completed"), faults, { deadline: "2 minutes" })
      assert.isTrue(Either.isLeft(result) && result.left._tag === "PollTimeout")
    }).pipe(Effect.provide(makeLayer())))

  it.effect("a body that trickles in slowly: the request timeout (covering the body) cuts it", () =>
    Effect.gen(function*() {
      const result = yield* awaitAnswered(atOnce("completed"), [fault({ _tag: "SlowBody", delay: "1 hours" })])
      assert.isTrue(Either.isRight(result))
      const times = yield* pollTimes
      // Poll 1 at 0 hangs until the 5 s request timeout; poll 2 follows the schedule (2 s).
      assert.deepStrictEqual(times, [0, 7000])
    }).pipe(Effect.provide(makeLayer({ client: { requestTimeout: "5 seconds" } }))))

  it.effect("the default schedule: 2 s, x1.5, capped at 10 s", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([{ after: "60 seconds", status: { state: "completed" } }])
      yield* awaitForked(task, { progressAware: false })
      const times = yield* pollTimes
      assert.deepStrictEqual(times.slice(0, 8), [0, 2000, 5000, 9500, 16250, 26250, 36250, 46250])
    }).pipe(Effect.provide(makeLayer())))

  it.effect("jitter keeps delays within the schedule's band", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([{ after: "120 seconds", status: { state: "completed" } }])
      yield* awaitForked(task, { progressAware: false, jitter: true })
      const times = yield* pollTimes
      const gaps = gapsOf(times)
      assert.isTrue(gaps.every((gap) => gap >= 2000 * 0.8 - 1 && gap <= 10_000 * 1.2 + 1), gaps.join(","))
      assert.isTrue(gaps.some((gap) => ![2000, 3000, 4500, 6750, 10_000].includes(gap)), "jitter changed nothing")
    }).pipe(Effect.provide(makeLayer())))

  it.effect("a caller's own Schedule replaces the figures", () =>
    Effect.gen(function*() {
      const task = yield* submitWith([{ after: "10 seconds", status: { state: "completed" } }])
      yield* awaitForked(task, { schedule: Schedule.spaced("1 seconds"), progressAware: false })
      assert.lengthOf(yield* polls, 11)
    }).pipe(Effect.provide(makeLayer())))
})

describe("progress-aware polling", () => {
  const measure = (progressAware: boolean) =>
    Effect.gen(function*() {
      const task = yield* submitWith(linearTimeline(30))
      const result = yield* awaitForked(task, { progressAware })
      assert.isTrue(Either.isRight(result))
      const times = yield* pollTimes
      // Times relative to the submit (the first poll follows it at once).
      return { detectedAt: times[times.length - 1]! - times[0]!, requests: times.length }
    })

  it.effect("detects completion sooner than the plain schedule, with no more requests", () =>
    Effect.gen(function*() {
      const plain = yield* measure(false).pipe(Effect.provide(makeLayer()))
      const aware = yield* measure(true).pipe(Effect.provide(makeLayer()))
      assert.isBelow(aware.detectedAt, plain.detectedAt, JSON.stringify({ aware, plain }))
      assert.isAtMost(aware.requests, plain.requests, JSON.stringify({ aware, plain }))
      // Within half a second of the real completion at 30 s.
      assert.isAtMost(aware.detectedAt - 30_000, 500)
    }))

  it.effect("whole-point progress: a poll inside the completion window finds the task done", () =>
    Effect.gen(function*() {
      // 505 ms, progress rounded down to whole points: at the poll at 50 ms it reads 9, which puts
      // the completion anywhere from 500 to 556 ms. Polling after the window's end would find it
      // at 562 ms; a poll inside it (50 ms before that end, the shortest delay) finds it at 512.
      const task = yield* submitWith([
        ...Array.from({ length: 100 }, (_, point) => ({
          after: Duration.millis(point * 5.05),
          status: { state: "processing" as const, progress: point }
        })),
        { after: Duration.millis(505), status: { state: "completed" as const } }
      ])
      const result = yield* awaitForked(task, { initialInterval: "50 millis", factor: 1, jitter: false })
      assert.isTrue(Either.isRight(result))
      const times = yield* pollTimes
      assert.deepStrictEqual(times.map((t) => t - times[0]!), [0, 50, 512])
    }).pipe(Effect.provide(makeLayer())))

  /** 500 ms, progress rounded down to whole points (a point every 5 ms), then `tail`. */
  const wholePoints = (tail: FakeServer.Timeline): FakeServer.Timeline => [
    ...Array.from({ length: 100 }, (_, point) => ({
      after: Duration.millis(point * 5),
      status: { state: "processing" as const, progress: point }
    })),
    ...tail
  ]
  const fast = { initialInterval: "50 millis", factor: 1, jitter: false } as const
  /** Whether two gaps in a row are shorter than `min`. */
  const twoShortInARow = (times: ReadonlyArray<number>, min: number) =>
    times.slice(2).some((t, i) => t - times[i + 1]! < min && times[i + 1]! - times[i]! < min)

  it.effect("a poll inside the window that misses narrows it: the next lands just after the completion", () =>
    Effect.gen(function*() {
      // The client takes the task to have begun 4 ms before it did (its submit was slow to reach
      // the server): a reading of 10 at 50 ms then puts the completion at 487-536 ms. The poll
      // inside that window, at 492 ms, reads 98: done by about 502 ms. The next poll comes then,
      // not the initial interval later (at 542 ms, after the wide window's end).
      const submitted = yield* submitWith(
        wholePoints([{ after: Duration.millis(500), status: { state: "completed" } }])
      )
      const task = { ...submitted, submittedAt: submitted.submittedAt! - 4 }
      const result = yield* awaitForked(task, fast)
      assert.isTrue(Either.isRight(result))
      const times = (yield* pollTimes).map((t, _, all) => t - all[0]!)
      assert.deepStrictEqual(times, [0, 50, 492, 508])
    }).pipe(Effect.provide(makeLayer())))

  it.effect("progress stuck before the end: polls sooner than the initial interval never come twice in a row", () =>
    Effect.gen(function*() {
      const submitted = yield* submitWith(wholePoints([
        { after: Duration.millis(495), status: { state: "processing", progress: 99 } },
        { after: Duration.seconds(3), status: { state: "completed" } }
      ]))
      const task = { ...submitted, submittedAt: submitted.submittedAt! - 4 }
      const result = yield* awaitForked(task, fast)
      assert.isTrue(Either.isRight(result))
      const times = yield* pollTimes
      const gaps = gapsOf(times)
      assert.isTrue(gaps.some((gap) => gap < 50), `no short follow-up: ${gaps.join(",")}`)
      assert.isFalse(twoShortInARow(times, 50), gaps.join(","))
      assert.isTrue(gaps.every((gap) => gap >= 10), gaps.join(","))
    }).pipe(Effect.provide(makeLayer())))

  it.effect("never polls sooner than the initial interval (but a follow-up), never later than the maximum", () =>
    Effect.gen(function*() {
      // Fast progress: estimates fall below 2 s and must be raised to it.
      const task = yield* submitWith(linearTimeline(5))
      yield* awaitForked(task)
      const times = yield* pollTimes
      const gaps = gapsOf(times)
      // A fifth of it right after a poll inside the completion window, never twice in a row.
      assert.isTrue(gaps.every((gap) => gap >= 400 && gap <= 10_000), gaps.join(","))
      assert.isFalse(twoShortInARow(times, 2000), gaps.join(","))
    }).pipe(Effect.provide(makeLayer())))

  it.effect("slow progress: polls are spaced at most the maximum interval", () =>
    Effect.gen(function*() {
      const task = yield* submitWith(linearTimeline(300))
      yield* awaitForked(task)
      const times = yield* pollTimes
      const gaps = gapsOf(times)
      assert.isTrue(gaps.every((gap) => gap >= 2000 && gap <= 10_000), gaps.join(","))
      assert.isAtMost(times[times.length - 1]! - 300_000, 10_000)
    }).pipe(Effect.provide(makeLayer())))
})
