import { assert, describe, it } from "@effect/vitest"
import { PdfTransformError } from "@pdf-transform/core"
import { TestClockDriver, TestPdfTransformClient } from "@pdf-transform/testing"
import { Effect } from "effect"
import { archive } from "../src/Archive.js"

describe("archive", () => {
  it.effect("reads the title of the converted Markdown", () =>
    Effect.gen(function*() {
      const control = yield* TestPdfTransformClient.TestPdfTransformClient
      yield* control.script({
        _tag: "Timeline",
        timeline: [
          { after: 0, status: { state: "processing", progress: 10 } },
          { after: "20 seconds", status: { state: "completed" } }
        ],
        output: "# Fairy Tales\n\nOnce upon a time...\n"
      })
      const fiber = yield* Effect.fork(archive("https://files.example.com/pdkids.pdf", "pdkids"))
      // Moves the clock from one pending sleep to the next until the fiber is done: no guessed durations.
      const result = yield* TestClockDriver.runUntilDone(fiber)
      assert.strictEqual(result.title, "Fairy Tales")
      const calls = yield* control.calls
      assert.deepStrictEqual(calls.map((c) => c.method).filter((m) => m !== "status"), ["convert", "download"])
    }).pipe(Effect.provide(TestPdfTransformClient.layer())))

  it.effect("a failed conversion surfaces as ConversionFailed", () =>
    Effect.gen(function*() {
      const control = yield* TestPdfTransformClient.TestPdfTransformClient
      yield* control.script({
        _tag: "Timeline",
        timeline: [{ after: "5 seconds", status: { state: "failed", error: "encrypted PDF" } }]
      })
      const fiber = yield* Effect.fork(Effect.flip(archive("https://files.example.com/secret.pdf", "secret")))
      const error = yield* TestClockDriver.runUntilDone(fiber)
      assert.instanceOf(error, PdfTransformError.ConversionFailed)
      assert.strictEqual(error._tag === "ConversionFailed" && error.reason, "encrypted PDF")
    }).pipe(Effect.provide(TestPdfTransformClient.layer())))
})
