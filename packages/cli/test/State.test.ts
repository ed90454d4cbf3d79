import { assert, describe, it } from "@effect/vitest"
import { PdfTransformError } from "@pdf-transform/core"
import type { BatchEvent } from "@pdf-transform/stream/BatchEvent"
import * as State from "../src/internal/view/state.js"
import { job, sessionId } from "./support/events.js"

const fold = (events: ReadonlyArray<readonly [number, BatchEvent]>, total: number) =>
  events.reduce((state, [at, event]) => State.update(state, event, at), State.initial(total, 0))

describe("the live view's state", () => {
  it("shows a document while it uploads, queues it again until a slot frees, then runs it", () => {
    const uploading = fold([
      [0, { _tag: "Queued", job: job(0) }],
      [100, { _tag: "Uploading", job: job(0), sent: 5_242_880, total: 20_971_520 }]
    ], 1)
    assert.strictEqual(uploading.queued, 0)
    assert.deepStrictEqual(uploading.running.get(0), {
      index: 0,
      name: "doc-0.pdf",
      phase: "uploading",
      progress: 25,
      since: 100,
      resumed: false
    })
    const waiting = State.update(uploading, { _tag: "Uploaded", job: job(0), pdfURL: "cache://0.pdf", bytes: 20 }, 900)
    assert.strictEqual(waiting.queued, 1)
    assert.strictEqual(waiting.running.size, 0)
    const submitted = State.update(
      waiting,
      { _tag: "Submitted", job: job(0), sessionId: sessionId(0), resumed: false },
      1_500
    )
    assert.strictEqual(submitted.queued, 0)
    assert.strictEqual(submitted.running.get(0)?.phase, "submitted")
    assert.isUndefined(submitted.running.get(0)?.progress)
  })

  it("follows documents from queued through running to their end", () => {
    const state = fold([
      [0, { _tag: "Queued", job: job(0) }],
      [0, { _tag: "Queued", job: job(1) }],
      [0, { _tag: "Queued", job: job(2) }],
      [100, { _tag: "Uploaded", job: job(0), pdfURL: "http://x/0.pdf", bytes: 10 }],
      [200, { _tag: "Submitted", job: job(0), sessionId: sessionId(0), resumed: false }],
      [300, { _tag: "Submitted", job: job(1), sessionId: sessionId(1), resumed: true }],
      [400, { _tag: "Progress", job: job(0), sessionId: sessionId(0), progress: 40 }]
    ], 3)
    assert.strictEqual(state.queued, 1)
    assert.deepStrictEqual([...state.running.keys()], [0, 1])
    assert.deepStrictEqual(state.running.get(0), {
      index: 0,
      name: "doc-0.pdf",
      phase: "converting",
      progress: 40,
      since: 200,
      resumed: false
    })
    assert.strictEqual(state.running.get(1)?.resumed, true)
    assert.strictEqual(state.firstStartAt, 200)

    const ended = [
      [2_200, { _tag: "Completed", job: job(0), sessionId: sessionId(0), output: "out/doc-0.md", bytes: 5 }],
      [2_300, {
        _tag: "Failed",
        job: job(1),
        error: new PdfTransformError.ConversionFailed({ format: "markdown", sessionId: sessionId(1), reason: "bad" })
      }],
      [2_400, { _tag: "Stopped", reason: "Ctrl-C", stop: { _tag: "Requested", by: "Ctrl-C" } }],
      [2_400, { _tag: "NotAttempted", job: job(2), reason: "stopped" }]
    ] as const
    const last = ended.reduce((s, [at, event]) => State.update(s, event, at), state)
    assert.strictEqual(last.running.size, 0)
    assert.strictEqual(last.queued, 0)
    assert.deepStrictEqual([last.done, last.failed, last.notStarted, last.convertedNow], [1, 1, 1, 1])
    assert.strictEqual(last.stopping, "Ctrl-C")
    assert.strictEqual(State.ended(last), 3)
  })

  it("counts documents done before as done, but not in the rate", () => {
    const state = fold([
      [0, { _tag: "Queued", job: job(0) }],
      [0, { _tag: "Skipped", job: job(0), previous: "completed", output: "out/doc-0.md" }],
      [0, { _tag: "Queued", job: job(1) }],
      [0, { _tag: "Skipped", job: job(1), previous: "failed", reason: "bad" }]
    ], 4)
    assert.deepStrictEqual([state.done, state.failed, state.convertedNow], [1, 1, 0])
    assert.strictEqual(State.rate(state, 10_000), undefined)
    assert.strictEqual(State.eta(state, 10_000), undefined)
  })

  it("estimates the rate and the time left from this run's conversions", () => {
    const state = fold([
      [0, { _tag: "Queued", job: job(0) }],
      [1_000, { _tag: "Submitted", job: job(0), sessionId: sessionId(0), resumed: false }],
      [5_000, { _tag: "Completed", job: job(0), sessionId: sessionId(0), output: "o", bytes: 1 }]
    ], 5)
    // One document in 4 s since the first start: 0.25 per second, 4 left: 16 s.
    assert.strictEqual(State.rate(state, 5_000), 0.25)
    assert.strictEqual(State.eta(state, 5_000), 16_000)
  })
})
