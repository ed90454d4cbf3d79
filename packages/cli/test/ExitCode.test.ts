import { assert, describe, it } from "@effect/vitest"
import { PdfTransformError } from "@pdf-transform/core"
import type { BatchEvent } from "@pdf-transform/stream"
import { Batch } from "@pdf-transform/stream"
import { ExitCode, ofBatch, ofError } from "../src/ExitCode.js"
import { errors } from "./support/errors.js"
import { completed, failed, job } from "./support/events.js"

const summaryOf = (events: ReadonlyArray<BatchEvent.BatchEvent>) => {
  const summarizer = Batch.makeSummarizer()
  for (const event of events) summarizer.add(event)
  return summarizer.summary
}
const calm = { stoppedByUser: false, unfinished: 0 }

describe("exit codes", () => {
  it("0 when every document is converted, now or before", () => {
    const summary = summaryOf([completed(0), { _tag: "Skipped", job: job(1), previous: "completed", output: "o1" }])
    assert.strictEqual(ofBatch(summary, calm), ExitCode.ok)
  })

  it("1 when a document failed, is ambiguous, was not started, or failed before", () => {
    assert.strictEqual(ofBatch(summaryOf([completed(0), failed(1, errors.conversionFailed)]), calm), 1)
    assert.strictEqual(ofBatch(summaryOf([{ _tag: "Ambiguous", job: job(0), reason: "?" }]), calm), 1)
    assert.strictEqual(ofBatch(summaryOf([{ _tag: "Skipped", job: job(0), previous: "failed" }]), calm), 1)
    assert.strictEqual(ofBatch(summaryOf([completed(0)]), { stoppedByUser: false, unfinished: 1 }), 1)
  })

  it("3 when the key was refused (at submit or upload), before anything else", () => {
    assert.strictEqual(
      ofBatch(summaryOf([failed(0, errors.conversionFailed), failed(1, errors.unauthenticated)]), calm),
      3
    )
    const stopped = summaryOf([{
      _tag: "Stopped",
      reason: "key",
      stop: { _tag: "Unauthenticated", error: errors.unauthenticated }
    }])
    assert.strictEqual(ofBatch(stopped, { stoppedByUser: true, unfinished: 2 }), 3)
  })

  it("4 when a quota or rate limit stopped documents", () => {
    assert.strictEqual(
      ofBatch(
        summaryOf([{ _tag: "Stopped", reason: "quota", stop: { _tag: "QuotaSpent", error: errors.quota } }]),
        calm
      ),
      4
    )
    assert.strictEqual(ofBatch(summaryOf([completed(0), failed(1, errors.rate)]), calm), 4)
  })

  it("5 when the service could not be reached, before a Ctrl-C and single failures", () => {
    const error = new PdfTransformError.TransportError({ operation: "submit", reason: "ECONNREFUSED", sent: false })
    const stopped = summaryOf([
      failed(0, errors.conversionFailed),
      {
        _tag: "Stopped",
        reason: "unreachable",
        stop: { _tag: "Unreachable", baseUrl: "http://x/v1", error, outageMs: 0 }
      },
      { _tag: "NotAttempted", job: job(1), reason: "unreachable" }
    ])
    assert.strictEqual(ofBatch(stopped, { stoppedByUser: true, unfinished: 0 }), 5)
    assert.strictEqual(ofError(error), 5)
    assert.strictEqual(
      ofError(new PdfTransformError.TransportError({ operation: "status", reason: "reset", sent: true })),
      1
    )
  })

  it("130 when Ctrl-C left documents undone, 0 when it came too late to matter", () => {
    const stopped = summaryOf([completed(0), { _tag: "NotAttempted", job: job(1), reason: "Ctrl-C" }])
    assert.strictEqual(ofBatch(stopped, { stoppedByUser: true, unfinished: 0 }), 130)
    assert.strictEqual(ofBatch(summaryOf([completed(0)]), { stoppedByUser: true, unfinished: 0 }), 0)
  })

  it("2 for usage errors, 3 and 4 for the service's refusals, 1 for the rest", () => {
    assert.strictEqual(ofError(errors.usage), 2)
    assert.strictEqual(ofError(errors.uploadFailed), 1)
    assert.strictEqual(ofError(errors.unauthenticated), 3)
    assert.strictEqual(ofError(errors.quota), 4)
    assert.strictEqual(ofError(errors.journal), 1)
    assert.strictEqual(ofError(errors.backend), 1)
  })
})
