/**
 * RELIABILITY.md, "Client: submit": every row, through FakeServer with the real client, under TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import { PdfTransformClient, PdfTransformError, RateLimit } from "@pdf-transform/core"
import { FakeServer } from "@pdf-transform/testing"
import { Duration, Effect, Either, Fiber, Option, Redacted, TestClock } from "effect"
import { createdTasks, makeLayer, pdfURL, submits } from "./utils.js"

const submitFork = Effect.flatMap(
  PdfTransformClient.PdfTransformClient,
  (client) => Effect.fork(Effect.either(client.submit("markdown", { pdfURL })))
)

const enqueue = (...steps: ReadonlyArray<FakeServer.SubmitStep>) =>
  Effect.flatMap(FakeServer.FakeServer, (server) => server.enqueueSubmit(...steps))

const submitTimes = Effect.map(submits, (all) => all.map((r) => r.at))

describe("submit", () => {
  it.effect("sends exactly the contract's fields, with defaults and Bearer auth", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const task = yield* client.submit("epub", { pdfURL, filename: "paper" })
      assert.strictEqual(task.format, "epub")
      const [request] = yield* submits
      assert.deepStrictEqual(request?.body, {
        pdfURL,
        model: "gundam",
        filename: "paper",
        ignore_pdf_errors: true,
        ignore_ocr_errors: true
      })
      assert.strictEqual(request?.headers["authorization"], `Bearer ${FakeServer.defaultApiKey}`)
      assert.isTrue(request?.path.endsWith("/v1/pdf-transform-epub/submit"))
    }).pipe(Effect.provide(makeLayer())))

  it.effect("exposes the RateLimit policies of an accepted submit", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const task = yield* client.submit("markdown", { pdfURL })
      assert.deepStrictEqual(RateLimit.concurrencyLimit(task.rateLimit), Option.some(4))
      assert.deepStrictEqual(task.rateLimit.states, [{ name: "burst", remaining: 3, reset: 1 }, {
        name: "conc",
        remaining: 0
      }])
    }).pipe(Effect.provide(makeLayer({
      server: {
        rateLimitHeaders: {
          policy: `"burst";q=10;w=1, "conc";q=4;qu="concurrent-requests"`,
          state: `"burst";r=3;t=1, "conc";r=0`
        }
      }
    }))))

  it.effect("a call's own retry options override the client's: maxAttempts 1 hands the first 429 back at once", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* enqueue({ _tag: "RateLimited", reason: "rate_exceeded", retryAfterMs: 500 })
      const refused = yield* Effect.either(client.submit("markdown", { pdfURL }, { maxAttempts: 1 }))
      assert.isTrue(Either.isLeft(refused) && refused.left._tag === "RateLimited")
      if (Either.isLeft(refused) && refused.left._tag === "RateLimited") {
        assert.strictEqual(refused.left.reason, "rate_exceeded")
        assert.strictEqual(refused.left.retryAfterMs, 500)
      }
      assert.lengthOf(yield* submits, 1)
      // Without the override the client's default retries the same 429 after its hint.
      yield* enqueue({ _tag: "RateLimited", reason: "rate_exceeded", retryAfterMs: 500 })
      const fiber = yield* Effect.fork(client.submit("markdown", { pdfURL }))
      yield* TestClock.adjust("500 millis")
      const task = yield* Fiber.join(fiber)
      assert.strictEqual(task.sessionId, "task-1")
      assert.lengthOf(yield* submits, 3)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("refuses an invalid request before sending anything", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const bad: ReadonlyArray<unknown> = [
        {},
        { pdfURL: "not a url" },
        { pdfURL: "file:///etc/passwd" },
        { pdfURL, model: "other" },
        { pdfURL, ignore_pdf_errors: "yes" }
      ]
      for (const request of bad) {
        // The cast stands for untyped input from JavaScript callers or JSON files.
        const error = yield* Effect.flip(client.submit("markdown", request as { pdfURL: string }))
        assert.strictEqual(error._tag, "InvalidRequest", JSON.stringify(request))
      }
      assert.lengthOf(yield* submits, 0)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 with retryAfterMs: waits that long, then retries", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "RateLimited", reason: "rate_exceeded", retryAfterMs: 1500 })
      const fiber = yield* submitFork
      yield* TestClock.adjust("1499 millis")
      assert.lengthOf(yield* submits, 1)
      yield* TestClock.adjust("1 millis")
      const result = yield* Fiber.join(fiber)
      assert.isTrue(Either.isRight(result))
      assert.deepStrictEqual(yield* submitTimes, [0, 1500])
      assert.lengthOf(yield* createdTasks, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 with Retry-After in seconds only", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "RateLimited", retryAfter: "3" })
      const fiber = yield* submitFork
      yield* TestClock.adjust("3 seconds")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      assert.deepStrictEqual(yield* submitTimes, [0, 3000])
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 with Retry-After as an HTTP-date, measured against the response's Date", () =>
    Effect.gen(function*() {
      // The server's clock is an hour behind ours: only Date tells how far the retry time is.
      const serverNow = Date.UTC(2026, 0, 1, 12, 0, 0)
      yield* enqueue({
        _tag: "RateLimited",
        date: new Date(serverNow).toUTCString(),
        retryAfter: new Date(serverNow + 4000).toUTCString()
      })
      const fiber = yield* submitFork
      yield* TestClock.adjust("4 seconds")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      assert.deepStrictEqual(yield* submitTimes, [0, 4000])
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 with both hints disagreeing: the larger valid value", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "RateLimited", retryAfterMs: 1000, retryAfter: "2" })
      const fiber = yield* submitFork
      yield* TestClock.adjust("2 seconds")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      assert.deepStrictEqual(yield* submitTimes, [0, 2000])
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 whose only hint is RateLimit r=0 with t: waits t seconds (not the backoff)", () =>
    Effect.gen(function*() {
      yield* enqueue({
        _tag: "RateLimited",
        reason: "rate_exceeded",
        policy: `"rate";q=5;w=3, "conc";q=4;qu="concurrent-requests"`,
        state: `"rate";r=0;t=3, "conc";r=0`
      })
      const fiber = yield* submitFork
      yield* TestClock.adjust("2999 millis")
      assert.lengthOf(yield* submits, 1)
      yield* TestClock.adjust("1 millis")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      assert.deepStrictEqual(yield* submitTimes, [0, 3000])
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 concurrency_exceeded with r=0 and no reset time is not a time hint: it backs off", () =>
    Effect.gen(function*() {
      yield* enqueue({
        _tag: "RateLimited",
        reason: "concurrency_exceeded",
        policy: `"conc";q=2;qu="concurrent-requests"`,
        state: `"conc";r=0;t=60`
      })
      const fiber = yield* submitFork
      for (let i = 0; i < 20; i++) yield* TestClock.adjust("100 millis")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      const [first, second] = yield* submitTimes
      // The backoff's first step, 1 s +-20 %: a concurrency slot comes back when a task ends, not with t.
      assert.isTrue(second! - first! >= 800 && second! - first! <= 1300, `gap ${second! - first!}`)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 with no or garbage hints: bounded, jittered exponential backoff", () =>
    Effect.gen(function*() {
      yield* enqueue(
        { _tag: "RateLimited" },
        { _tag: "RateLimited", retryAfterMs: -5, retryAfter: "soon" },
        { _tag: "RateLimited", retryAfterMs: "NaN", retryAfter: "-3" }
      )
      const fiber = yield* submitFork
      for (let i = 0; i < 100; i++) yield* TestClock.adjust("100 millis")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      const times = yield* submitTimes
      assert.lengthOf(times, 4)
      // 1 s, 2 s, 4 s, each within +-20 % jitter.
      const gaps = times.slice(1).map((t, i) => t - times[i]!)
      for (const [i, gap] of gaps.entries()) {
        const base = 1000 * 2 ** i
        assert.isTrue(gap >= base * 0.8 - 100 && gap <= base * 1.2 + 100, `gap ${i}: ${gap}`)
      }
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 forever: gives up with RateLimited within the retry deadline", () =>
    Effect.gen(function*() {
      const steps = Array.from({ length: 50 }, () => ({ _tag: "RateLimited" as const, retryAfterMs: 7000 }))
      yield* enqueue(...steps)
      const fiber = yield* submitFork
      yield* TestClock.adjust("10 minutes")
      const result = yield* Fiber.join(fiber)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "RateLimited")
      const times = yield* submitTimes
      assert.isTrue(times[times.length - 1]! <= 60_000, `last attempt at ${times[times.length - 1]}`)
      assert.strictEqual(
        Either.isLeft(result) && result.left._tag === "RateLimited" && result.left.attempts,
        times.length
      )
      assert.lengthOf(yield* createdTasks, 0)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 whose delay exceeds the remaining deadline: fails now, carrying the retry time", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "RateLimited", reason: "rate_exceeded", retryAfter: "1000000" })
      const client = yield* PdfTransformClient.PdfTransformClient
      // No clock adjustment: the client must not sleep at all.
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.strictEqual(error._tag, "RateLimited")
      if (error._tag === "RateLimited") {
        assert.strictEqual(error.retryAfterMs, 1_000_000_000)
        assert.strictEqual(error.retryAt, 1_000_000_000)
        assert.strictEqual(error.reason, "rate_exceeded")
      }
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("the 2^31-1 ms cap: a delay longer than a timer can take is capped, not wrapped", () =>
    Effect.gen(function*() {
      // A deadline of 100 days lets the capped delay be honoured; 3,000 years are asked for.
      yield* enqueue({ _tag: "RateLimited", retryAfter: "99999999999" })
      const fiber = yield* submitFork
      yield* TestClock.adjust(Duration.millis(RateLimit.maxDelayMs - 1))
      assert.lengthOf(yield* submits, 1)
      yield* TestClock.adjust("1 millis")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      assert.deepStrictEqual(yield* submitTimes, [0, RateLimit.maxDelayMs])
    }).pipe(Effect.provide(makeLayer({ client: { submitRetry: { deadline: Duration.days(100) } } }))))

  it.effect("429 quota_exceeded fails fast without a hint", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "RateLimited", reason: "quota_exceeded" })
      const client = yield* PdfTransformClient.PdfTransformClient
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.strictEqual(error._tag, "RateLimited")
      assert.strictEqual(error._tag === "RateLimited" && error.reason, "quota_exceeded")
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 quota_exceeded is retried when its hint fits the deadline", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "RateLimited", reason: "quota_exceeded", retryAfterMs: 5000 })
      const fiber = yield* submitFork
      yield* TestClock.adjust("5 seconds")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      assert.deepStrictEqual(yield* submitTimes, [0, 5000])
    }).pipe(Effect.provide(makeLayer())))

  it.effect("429 concurrency_exceeded: the reason and the announced concurrency reach the caller", () =>
    Effect.gen(function*() {
      // The batch package waits for one of its own tasks and shrinks its gate from these two facts.
      yield* enqueue({
        _tag: "RateLimited",
        reason: "concurrency_exceeded",
        policy: `"conc";q=2;qu="concurrent-requests"`,
        state: `"conc";r=0`
      })
      const client = yield* PdfTransformClient.PdfTransformClient
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.strictEqual(error._tag, "RateLimited")
      if (error._tag === "RateLimited") {
        assert.strictEqual(error.reason, "concurrency_exceeded")
        assert.deepStrictEqual(RateLimit.concurrencyLimit(error.rateLimit), Option.some(2))
        assert.deepStrictEqual(error.rateLimit.states, [{ name: "conc", remaining: 0 }])
      }
      assert.lengthOf(yield* createdTasks, 0)
    }).pipe(Effect.provide(makeLayer({ client: { submitRetry: { maxAttempts: 1 } } }))))

  it.effect("429 concurrency_exceeded with a hint is retried after it", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "RateLimited", reason: "concurrency_exceeded", retryAfterMs: 800 })
      const fiber = yield* submitFork
      yield* TestClock.adjust("800 millis")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      assert.deepStrictEqual(yield* submitTimes, [0, 800])
    }).pipe(Effect.provide(makeLayer())))

  it.effect("401: Unauthenticated with message, resolution and challenge; never retried; the key never shows", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.strictEqual(error._tag, "Unauthenticated")
      if (error._tag === "Unauthenticated") {
        assert.isNotEmpty(error.message)
        assert.isNotEmpty(error.resolution)
        assert.match(error.challenge ?? "", /^Bearer /)
        assert.notInclude(JSON.stringify(error), "wrong-secret-key")
        assert.notInclude(String(error), "wrong-secret-key")
      }
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer({ client: { apiKey: Redacted.make("wrong-secret-key") } }))))

  it.effect("connection refused (nothing sent): retried with backoff; one task in the end", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "Fault", fault: { _tag: "ResetBeforeSend" } }, {
        _tag: "Fault",
        fault: { _tag: "ResetBeforeSend" }
      })
      const fiber = yield* submitFork
      yield* TestClock.adjust("10 seconds")
      assert.isTrue(Either.isRight(yield* Fiber.join(fiber)))
      assert.lengthOf(yield* submits, 3)
      assert.lengthOf(yield* createdTasks, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("reset after sending: SubmitOutcomeUnknown, not retried (the task exists on the server)", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "Fault", fault: { _tag: "ResetAfterSend" } })
      const client = yield* PdfTransformClient.PdfTransformClient
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.strictEqual(error._tag, "SubmitOutcomeUnknown")
      assert.lengthOf(yield* submits, 1)
      assert.lengthOf(yield* createdTasks, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("an answer that never completes: SubmitOutcomeUnknown after the request timeout, not retried", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "Fault", fault: { _tag: "SlowBody", delay: "5 minutes" } })
      const fiber = yield* submitFork
      yield* TestClock.adjust("29 seconds")
      assert.isNull(yield* Fiber.poll(fiber).pipe(Effect.map(Option.getOrNull)))
      yield* TestClock.adjust("1 seconds")
      const result = yield* Fiber.join(fiber)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "SubmitOutcomeUnknown")
      yield* TestClock.adjust("10 minutes")
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("5xx: UnexpectedResponse with status, Content-Type and a body excerpt; not retried", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "Fault", fault: { _tag: "ServerError", status: 502 } })
      const client = yield* PdfTransformClient.PdfTransformClient
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.strictEqual(error._tag, "UnexpectedResponse")
      if (error._tag === "UnexpectedResponse") {
        assert.strictEqual(error.status, 502)
        assert.match(error.contentType ?? "", /text\/html/)
        assert.isNotEmpty(error.bodyExcerpt)
      }
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("402 (billing): UnexpectedResponse with the body kept; not retried", () =>
    Effect.gen(function*() {
      const body = JSON.stringify({ code: "OOMOL_INSUFFICIENT_CREDIT", message: "top up" })
      yield* enqueue({
        _tag: "Fault",
        fault: { _tag: "Raw", response: { status: 402, headers: { "content-type": "application/json" }, body } }
      })
      const client = yield* PdfTransformClient.PdfTransformClient
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.isTrue(error._tag === "UnexpectedResponse" && error.status === 402)
      assert.include(error._tag === "UnexpectedResponse" ? error.bodyExcerpt : "", "OOMOL_INSUFFICIENT_CREDIT")
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("2xx whose body fails the Schema: InvalidResponse; not retried", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "Fault", fault: { _tag: "InvalidBody" } })
      const client = yield* PdfTransformClient.PdfTransformClient
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.isTrue(error instanceof PdfTransformError.InvalidResponse)
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("2xx with a non-JSON body: InvalidResponse; not retried", () =>
    Effect.gen(function*() {
      yield* enqueue({ _tag: "Fault", fault: { _tag: "NotJson" } })
      const client = yield* PdfTransformClient.PdfTransformClient
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.strictEqual(error._tag, "InvalidResponse")
      assert.lengthOf(yield* submits, 1)
    }).pipe(Effect.provide(makeLayer())))
})
