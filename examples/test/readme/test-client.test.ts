import { assert, it } from "@effect/vitest"
import { PdfTransformClient, PdfTransformError } from "@pdf-transform/core"
import { TestPdfTransformClient } from "@pdf-transform/testing"
import { Effect, Fiber, TestClock } from "effect"

it.effect("reports a failed conversion", () =>
  Effect.gen(function*() {
    const client = yield* PdfTransformClient.PdfTransformClient
    const test = yield* TestPdfTransformClient.TestPdfTransformClient
    yield* test.script({
      _tag: "Timeline",
      timeline: [
        { after: 0, status: { state: "processing", progress: 30 } },
        { after: "5 seconds", status: { state: "failed", error: "encrypted PDF" } }
      ]
    })
    const fiber = yield* Effect.fork(Effect.flip(client.convert("epub", { pdfURL: "https://files.example.com/a.pdf" })))
    // The real client polls at 2 s, 3 s later (jittered), ...: give it its maximum interval past 5 s.
    yield* TestClock.adjust("15 seconds")
    const error = yield* Fiber.join(fiber)
    assert.instanceOf(error, PdfTransformError.ConversionFailed)
    assert.deepStrictEqual((yield* test.calls).map((call) => call.method), ["convert"])
  }).pipe(Effect.provide(TestPdfTransformClient.layer())))
