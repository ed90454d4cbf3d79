/**
 * What a conversion costs the runtime, as a count that a change cannot hide: the fibers it forks.
 * A request runs under `Effect.timeoutFail`, which races it against a sleep: two fibers a request;
 * a download read as a stream takes five. So a conversion through the real client over FakeServer
 * (submit, one poll, download) forks nine, ten for the first (one set up once), and never more as
 * conversions follow one another. A change that forks more per request or per poll, or that
 * leaves work behind that grows with the number of conversions, fails here.
 */
import { assert, describe, it } from "@effect/vitest"
import { PdfTransformClient } from "@pdf-transform/core"
import { TestPdfTransformClient } from "@pdf-transform/testing"
import { Effect, Stream, Supervisor } from "effect"

/** Counts the fibers started under it. */
class Counting extends Supervisor.AbstractSupervisor<number> {
  started = 0
  get value() {
    return Effect.sync(() => this.started)
  }
  onStart() {
    this.started++
  }
}

const convertAndDownload = Effect.gen(function*() {
  const client = yield* PdfTransformClient.PdfTransformClient
  const done = yield* client.convert("markdown", { pdfURL: "https://files.example.com/a.pdf" })
  yield* Stream.runDrain(client.download(done))
})

/** Fibers started by `n` conversions (and downloads) in a row. */
const forkedBy = (n: number) =>
  Effect.gen(function*() {
    const counting = new Counting()
    yield* Effect.supervised(Effect.repeatN(convertAndDownload, n - 1), counting)
    return counting.started
  }).pipe(Effect.provide(TestPdfTransformClient.layer()))

describe("runtime cost of a conversion", () => {
  it.effect("a conversion and its download fork a bounded, constant number of fibers", () =>
    Effect.gen(function*() {
      const one = yield* forkedBy(1)
      const ten = yield* forkedBy(10)
      const perConversion = (ten - one) / 9
      const measured = JSON.stringify({ one, ten, perConversion })
      assert.isAtMost(one, 10, measured)
      assert.isAtMost(perConversion, 9, measured)
      assert.isAtLeast(perConversion, 8, measured)
    }))
})
