import { assert, it } from "@effect/vitest"
import { PdfTransformClient, PdfTransformError } from "@pdf-transform/core"
import { TestClockDriver, TestPdfTransformClient } from "@pdf-transform/testing"
import { Effect } from "effect"

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
    // The real client's polls are jittered: move the clock from one to the next until the fiber ends.
    const error = yield* TestClockDriver.runUntilDone(fiber)
    assert.instanceOf(error, PdfTransformError.ConversionFailed)
    assert.deepStrictEqual((yield* test.calls).map((call) => call.method), ["convert"])
  }).pipe(Effect.provide(TestPdfTransformClient.layer())))
