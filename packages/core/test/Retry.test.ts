import { assert, describe, it } from "@effect/vitest"
import { Chunk, Duration, Effect, Schedule } from "effect"
import * as PdfTransformError from "../src/PdfTransformError.js"
import * as Retry from "../src/Retry.js"

const run = (schedule: Schedule.Schedule<Duration.Duration>, n: number) =>
  Effect.map(
    Schedule.run(schedule, 0, Array.from({ length: n }, (_, i) => i)),
    (delays) => Chunk.toReadonlyArray(delays).map(Duration.toMillis)
  )

describe("Retry", () => {
  it.effect("backoff doubles from the first delay to the cap", () =>
    Effect.gen(function*() {
      const options = { initial: "1 second", max: "30 seconds", jitter: false } as const
      const delays = yield* run(Retry.backoff(options), 7)
      assert.deepStrictEqual(delays, [1000, 2000, 4000, 8000, 16000, 30000, 30000])
    }))

  it.effect("jittered delays stay within 0.8-1.2 of the plain ones, and are not all equal", () =>
    Effect.gen(function*() {
      const options = { initial: "100 millis", max: "100 millis" } as const
      const delays = yield* run(Retry.backoff(options), 200)
      for (const delay of delays) assert.isTrue(delay >= 80 && delay <= 120, `${delay}`)
      assert.isAbove(new Set(delays).size, 10)
    }))

  it("transient: the network, 408, 429 and 5xx a retry can pass; not 4xx, not 501/505/507/508/510", () => {
    const transient = [408, 429, 500, 502, 503, 504, 599]
    const final = [400, 401, 403, 404, 409, 413, 422, 501, 505, 507, 508, 510, 600]
    for (const status of transient) assert.isTrue(Retry.isTransientStatus(status), `${status}`)
    for (const status of final) assert.isFalse(Retry.isTransientStatus(status), `${status}`)
    const unexpected = (status: number) =>
      new PdfTransformError.UnexpectedResponse({ operation: "status", status, bodyExcerpt: "" })
    assert.isTrue(Retry.isTransient(unexpected(503)))
    assert.isFalse(Retry.isTransient(unexpected(501)))
    assert.isTrue(
      Retry.isTransient(new PdfTransformError.TransportError({ operation: "status", reason: "reset", sent: true }))
    )
    assert.isFalse(Retry.isTransient(new PdfTransformError.InvalidRequest({ operation: "submit", problem: "bad" })))
  })
})
