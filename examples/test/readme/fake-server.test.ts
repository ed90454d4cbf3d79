import { assert, it } from "@effect/vitest"
import { PdfTransformClient } from "@pdf-transform/core"
import { FakeServer, TestClockDriver } from "@pdf-transform/testing"
import { Effect, Layer, Redacted, Stream } from "effect"

const TestLayer = PdfTransformClient.layer({
  apiKey: Redacted.make(FakeServer.defaultApiKey),
  baseUrl: FakeServer.defaultBaseUrl
}).pipe(Layer.provideMerge(FakeServer.layer()))

it.effect("retries a refused connection and never submits twice", () =>
  Effect.gen(function*() {
    const server = yield* FakeServer.FakeServer
    const client = yield* PdfTransformClient.PdfTransformClient
    yield* server.enqueueSubmit(
      { _tag: "Fault", fault: { _tag: "ResetBeforeSend" } },
      {
        _tag: "Accept",
        timeline: [
          { after: "1 second", status: { state: "processing", progress: 40, httpStatus: 202 } },
          { after: "20 seconds", status: { state: "completed" } }
        ]
      }
    )
    const fiber = yield* Effect.fork(client.convert("markdown", { pdfURL: "https://files.example.com/a.pdf" }))
    const completed = yield* TestClockDriver.runUntilDone(fiber)
    yield* Stream.runDrain(client.download(completed))
    assert.lengthOf(yield* server.tasks, 1) // the retry created no second task
  }).pipe(Effect.provide(TestLayer)))
