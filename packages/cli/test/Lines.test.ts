import { assert, describe, it } from "@effect/vitest"
import * as Lines from "../src/internal/lines.js"
import { plain } from "../src/internal/view/style.js"
import { errors } from "./support/errors.js"
import { completed, failed, job, sessionId } from "./support/events.js"

const display: Lines.Display = { path: (path) => path.replace(/^\/work\//, ""), messages: { service: "http://h/v1" } }

describe("events as lines", () => {
  it("writes one plain line per event, a fixed word first", () => {
    assert.strictEqual(Lines.plain({ _tag: "Queued", job: job(0) }, display), "queued      doc-0.pdf")
    assert.strictEqual(
      Lines.plain({ _tag: "Submitted", job: job(0), sessionId: sessionId(0), resumed: true }, display),
      "resumed     doc-0.pdf (task task-0)"
    )
    assert.strictEqual(
      Lines.plain({ _tag: "Progress", job: job(0), sessionId: sessionId(0), progress: 42.7 }, display),
      "progress    doc-0.pdf 42%"
    )
    assert.strictEqual(
      Lines.plain(completed(0, "/work/out/doc-0.md"), display),
      "converted   doc-0.pdf -> out/doc-0.md (84.0 kB)"
    )
    assert.strictEqual(
      Lines.plain(failed(1, errors.unauthenticated), display),
      "failed      doc-1.pdf: The service at http://h/v1 refused the API key: The API key is not valid for this " +
        "server. Check the key given with --api-key or PDF_TRANSFORM_API_KEY."
    )
    assert.strictEqual(
      Lines.plain({ _tag: "Uploaded", job: job(2, "a\nb.pdf"), pdfURL: "http://h/f", bytes: 999 }, display),
      "uploaded    a?b.pdf (999 B)"
    )
  })

  it("prints lasting lines only for a document's end and the batch's news", () => {
    assert.strictEqual(
      Lines.lasting(completed(0, "out/doc-0.md"), display, plain),
      "✓ doc-0.pdf → out/doc-0.md (84.0 kB)"
    )
    assert.strictEqual(
      Lines.lasting({ _tag: "Skipped", job: job(0), previous: "completed", output: "out/doc-0.md" }, display, plain),
      "= doc-0.pdf: already converted (out/doc-0.md)"
    )
    assert.strictEqual(Lines.lasting({ _tag: "Queued", job: job(0) }, display, plain), undefined)
    assert.strictEqual(
      Lines.lasting({ _tag: "NotAttempted", job: job(0), reason: "Ctrl-C" }, display, plain),
      undefined
    )
    assert.include(
      Lines.lasting({ _tag: "Stopped", reason: "Ctrl-C", stop: { _tag: "Requested", by: "Ctrl-C" } }, display, plain),
      "Stopped (Ctrl-C)"
    )
  })

  it("writes JSON objects with the event's name, the job, and errors as a tag and a sentence", () => {
    assert.deepStrictEqual(Lines.json(completed(0), display), {
      event: "Completed",
      index: 0,
      name: "doc-0.pdf",
      key: "key-0",
      format: "markdown",
      sessionId: "task-0",
      output: "out/doc-0.md",
      bytes: 84_010
    })
    assert.deepStrictEqual(Lines.json(failed(1, errors.conversionFailed), display), {
      event: "Failed",
      index: 1,
      name: "doc-1.pdf",
      key: "key-1",
      format: "markdown",
      error: {
        tag: "ConversionFailed",
        message: "The service could not convert it: Not a readable PDF: Invalid PDF structure."
      }
    })
    const quota = { _tag: "Stopped", reason: "quota", stop: { _tag: "QuotaSpent", error: errors.quota } } as const
    assert.deepStrictEqual(Lines.json(quota, display).error, {
      tag: "RateLimited",
      message: `The service's quota for this API key is spent. Try again after ${
        new Date(Date.UTC(2030, 0, 1, 12)).toLocaleString()
      }.`
    })
  })

  it("sizes in SI units", () => {
    assert.deepStrictEqual([0, 999, 1_000, 84_010, 1_200_000, 3e12].map(Lines.bytes), [
      "0 B",
      "999 B",
      "1.0 kB",
      "84.0 kB",
      "1.2 MB",
      "3.0 TB"
    ])
  })
})
