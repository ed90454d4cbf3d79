import { assert, describe, it } from "@effect/vitest"
import { PdfTransformClient } from "@pdf-transform/core"
import { FakeServer } from "@pdf-transform/testing"
import { Chunk, Effect, Fiber, Layer, Redacted, Stream, TestClock } from "effect"

const ClientLive = PdfTransformClient.layer({
  apiKey: Redacted.make(FakeServer.defaultApiKey),
  baseUrl: FakeServer.defaultBaseUrl,
  poll: { jitter: false }
}).pipe(Layer.provideMerge(FakeServer.layer()))

describe("the real client against FakeServer", () => {
  it.effect("converts and downloads under TestClock", () =>
    Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* server.enqueueSubmit({
        _tag: "Accept",
        timeline: [
          { after: "1 second", status: { state: "processing", progress: 30, httpStatus: 202 } },
          { after: "20 seconds", status: { state: "completed" } }
        ]
      })
      const converting = yield* Effect.fork(client.convert("markdown", { pdfURL: "https://files.example.com/a.pdf" }))
      yield* TestClock.adjust("60 seconds")
      const completed = yield* Fiber.join(converting)
      const chunks = yield* Stream.runCollect(client.download(completed))
      const text = Buffer.concat(Chunk.toReadonlyArray(chunks)).toString("utf8")
      assert.strictEqual(text, `# ${completed.sessionId}\n`)
      const tasks = yield* server.tasks
      assert.lengthOf(tasks, 1)
      const requests = yield* server.requests
      assert.strictEqual(requests[0]!.headers["authorization"], "Bearer test-key")
    }).pipe(Effect.provide(ClientLive)))

  it.effect("a submit whose answer is lost is SubmitOutcomeUnknown, and only one task exists", () =>
    Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* server.enqueueSubmit({ _tag: "Fault", fault: { _tag: "ResetAfterSend" } })
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL: "https://files.example.com/a.pdf" }))
      assert.strictEqual(error._tag, "SubmitOutcomeUnknown")
      assert.lengthOf(yield* server.tasks, 1)
      assert.lengthOf(yield* server.requests, 1)
    }).pipe(Effect.provide(ClientLive)))

  it.effect("a refused connection and a 429 are retried, creating one task", () =>
    Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* server.enqueueSubmit(
        { _tag: "Fault", fault: { _tag: "ResetBeforeSend" } },
        { _tag: "RateLimited", reason: "rate_exceeded", retryAfterMs: 2000 }
      )
      const submitting = yield* Effect.fork(client.submit("epub", { pdfURL: "https://files.example.com/a.pdf" }))
      yield* TestClock.adjust("30 seconds")
      const task = yield* Fiber.join(submitting)
      const tasks = yield* server.tasks
      assert.deepStrictEqual(tasks.map((t) => t.sessionId), [task.sessionId])
      const requests = yield* server.requests
      assert.lengthOf(requests, 3)
      assert.isAtLeast(requests[2]!.at - requests[1]!.at, 2000)
    }).pipe(Effect.provide(ClientLive)))

  it.effect("a truncated download is DownloadFailed", () =>
    Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const client = yield* PdfTransformClient.PdfTransformClient
      const completed = yield* client.convert("markdown", { pdfURL: "https://files.example.com/a.pdf" })
      yield* server.enqueueDownload(completed.sessionId, { _tag: "Truncated" })
      const error = yield* Effect.flip(Stream.runDrain(client.download(completed)))
      assert.strictEqual(error._tag, "DownloadFailed")
    }).pipe(Effect.provide(ClientLive)))

  it.effect("a submit answer that trickles in past the request timeout is SubmitOutcomeUnknown", () =>
    Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* server.enqueueSubmit({ _tag: "Fault", fault: { _tag: "SlowBody", delay: "10 minutes" } })
      const submitting = yield* Effect.fork(
        Effect.flip(client.submit("markdown", { pdfURL: "https://files.example.com/a.pdf" }))
      )
      yield* TestClock.adjust("31 seconds")
      const error = yield* Fiber.join(submitting)
      assert.strictEqual(error._tag, "SubmitOutcomeUnknown")
      assert.lengthOf(yield* server.tasks, 1)
    }).pipe(Effect.provide(ClientLive)))
})
