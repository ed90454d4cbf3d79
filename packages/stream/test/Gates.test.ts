/**
 * The concurrency gate and the shared rate gate against FakeServer's limits, under TestClock:
 * the gate follows a policy that changes mid-batch, `concurrency_exceeded` never leads to more of
 * our tasks in flight than the service allows, one `rate_exceeded` pauses every submitter, and a
 * spent quota or a refused key stops the batch cleanly.
 */
import { assert, describe, it } from "@effect/vitest"
import { FakeServer } from "@pdf-transform/testing"
import { Chunk, Duration, Effect, Stream, TestClock } from "effect"
import { Batch, Job } from "../src/index.js"
import * as H from "./support/harness.js"

const urls = (count: number) =>
  Array.from({ length: count }, (_, i) => Job.url(`https://example.com/${i}.pdf`, "markdown"))

/** 429s: submits the fake answered without creating a task. */
const refusals = Effect.gen(function*() {
  const server = yield* FakeServer.FakeServer
  return (yield* H.submits).length - (yield* server.tasks).length
})

/** When a fake task ends: its timeline's `completed` step, measured from its creation. */
const endOf = (task: FakeServer.FakeTask): number => {
  const step = task.timeline.find((s) => s.status.state === "completed")
  return task.createdAt + (step === undefined ? Number.POSITIVE_INFINITY : Duration.toMillis(step.after))
}

/** The most tasks running at once at the service, probed at each creation in [from, to). */
const peakInFlight = (tasks: ReadonlyArray<FakeServer.FakeTask>, from = 0, to = Number.POSITIVE_INFINITY) => {
  let peak = 0
  for (const probe of tasks.map((t) => t.createdAt).filter((at) => at >= from && at < to)) {
    peak = Math.max(peak, tasks.filter((t) => t.createdAt <= probe && probe < endOf(t)).length)
  }
  return peak
}

const fourSeconds: FakeServer.Timeline = [{ after: "4 seconds", status: { state: "completed" } }]

describe("concurrency gate", () => {
  it.effect(
    "follows an announced policy that changes mid-batch: one 429 for the decrease, none for the increase",
    () => {
      const h = H.make({ server: { concurrencyLimit: 3 } })
      return Effect.gen(function*() {
        const server = yield* FakeServer.FakeServer
        // Tasks of 3, 4 and 5 s, so that ours end one at a time.
        yield* server.enqueueSubmit(...Array.from({ length: 40 }, (_, i): FakeServer.SubmitStep => ({
          _tag: "Accept",
          timeline: [{ after: Duration.seconds(3 + (i % 3)), status: { state: "completed" } }]
        })))
        const start = yield* TestClock.currentTimeMillis
        const fiber = yield* Effect.fork(Batch.run(urls(40), { outputDirectory: H.outDir, concurrency: 8 }))
        yield* H.advance(10_000)
        assert.strictEqual(yield* refusals, 0)
        yield* server.setConcurrencyLimit(5)
        yield* H.advance(20_000)
        assert.strictEqual(yield* refusals, 0)
        yield* server.setConcurrencyLimit(2)
        const summary = yield* H.drive(fiber)
        assert.strictEqual(summary.completed.length, 40)
        assert.strictEqual(yield* refusals, 1)
        const tasks = yield* server.tasks
        assert.strictEqual(peakInFlight(tasks, start, start + 10_000), 3)
        // The gate grew with the announced quota: five at once once the first answer said so.
        assert.strictEqual(peakInFlight(tasks, start + 15_000, start + 30_000), 5)
        // After the decrease no new task started while two of ours were running.
        assert.isAtMost(peakInFlight(tasks, start + 30_001), 2)
      }).pipe(Effect.provide(h.layer))
    },
    60_000
  )

  it.effect("starts with one submit, so an announced limit below the bound costs no 429", () => {
    const h = H.make({ server: { concurrencyLimit: 2, defaultTimeline: fourSeconds } })
    return Effect.gen(function*() {
      const summary = yield* H.run(urls(6), { concurrency: 16 })
      assert.strictEqual(summary.completed.length, 6)
      assert.strictEqual(yield* refusals, 0)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("concurrency_exceeded from a full service: shrinks to our tasks in flight, retries when one of ours ends", () => {
    const h = H.make({ server: { defaultTimeline: fourSeconds } })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      // Someone else holds the service's other slots: our fourth submit is refused, no hint given.
      yield* server.enqueueSubmit(
        { _tag: "Accept" },
        { _tag: "Accept" },
        { _tag: "Accept" },
        { _tag: "RateLimited", reason: "concurrency_exceeded" }
      )
      const start = yield* TestClock.currentTimeMillis
      const summary = yield* H.run(urls(8), { concurrency: 4 })
      assert.strictEqual(summary.completed.length, 8)
      assert.strictEqual(yield* refusals, 1)
      const times = (yield* H.submits).map((r) => r.at - start)
      // Three accepted and one refused at once; the refused job went again only when one of ours
      // ended (4 s), and from then on never more than three of ours at once.
      assert.deepStrictEqual(times.slice(0, 4), [0, 0, 0, 0])
      assert.isAtLeast(times[4]!, 4000)
      assert.strictEqual(peakInFlight(yield* server.tasks), 3)
    }).pipe(Effect.provide(h.layer))
  })
})

describe("rate gate", () => {
  it.effect("one rate_exceeded pauses every submitter until its retry time", () => {
    const h = H.make({ server: { defaultTimeline: [{ after: "2 seconds", status: { state: "completed" } }] } })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      yield* server.enqueueSubmit(
        { _tag: "Accept" },
        { _tag: "Accept" },
        { _tag: "Accept" },
        { _tag: "Accept" },
        { _tag: "RateLimited", reason: "rate_exceeded", retryAfterMs: 5000 }
      )
      const start = yield* TestClock.currentTimeMillis
      const summary = yield* H.run(urls(8), { concurrency: 4 })
      assert.strictEqual(summary.completed.length, 8)
      assert.strictEqual(yield* refusals, 1)
      const times = (yield* H.submits).map((r) => r.at - start)
      const refusedAt = times[4]!
      // Slots freed at 2 s, yet nobody submitted before the pause ended.
      assert.isTrue(times.every((t) => t <= refusedAt || t >= refusedAt + 5000), times.join(","))
      assert.isAtLeast(times.filter((t) => t >= refusedAt + 5000).length, 4)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a RateLimit with no request left (r=0) pauses submitters until its window resets", () => {
    const h = H.make({
      server: { rateLimitHeaders: { policy: `"burst";q=1;w=3`, state: `"burst";r=0;t=3` } }
    })
    return Effect.gen(function*() {
      const start = yield* TestClock.currentTimeMillis
      const summary = yield* H.run(urls(4), { concurrency: 4 })
      assert.strictEqual(summary.completed.length, 4)
      const times = (yield* H.submits).map((r) => r.at - start)
      assert.strictEqual(times.length, 4)
      for (let i = 1; i < times.length; i++) assert.isAtLeast(times[i]! - times[i - 1]!, 3000)
    }).pipe(Effect.provide(h.layer))
  })
})

/** Refused submits: every submit the fake answered without creating a task. */
const rateRefusals = (tasks: number, submits: number) => submits - tasks

describe("rate pacing", () => {
  // The scenario: 30 URL jobs, bound 32, a service allowing 5 submits a second that says so
  // on every answer and refuses with the RateLimit fields as its only hint, 20 ms to each answer.
  // Instant tasks: the makespan is the submits' pace.
  for (const kind of ["fixed-window", "token-bucket"] as const) {
    it.effect(`learns q per w from the headers and paces every submitter to it (${kind})`, () => {
      const h = H.make({ server: { rateLimit: { quota: 5, window: "1 second", kind }, latency: "20 millis" } })
      return Effect.gen(function*() {
        const server = yield* FakeServer.FakeServer
        const start = yield* TestClock.currentTimeMillis
        const summary = yield* H.run(urls(30), { concurrency: 32 })
        const end = yield* TestClock.currentTimeMillis
        assert.strictEqual(summary.completed.length, 30)
        const submits = (yield* H.submits).length
        const tasks = (yield* server.tasks).length
        assert.strictEqual(tasks, 30)
        // The policy is learnt from the first answer: at most one 429 for it.
        assert.isAtMost(rateRefusals(tasks, submits), 1, `${submits - tasks} rate 429s`)
        // N / q * w = 6 s; within 1.1x of it.
        assert.isAtMost(end - start, 6_600, `makespan ${end - start} ms`)
      }).pipe(Effect.provide(h.layer))
    }, 60_000)
  }

  it.effect("after a pause, releases at most the remaining quota, not every waiting submitter", () => {
    // 50 ms to each answer: every submitter released at once is in flight before the first 429 is read.
    const h = H.make({ server: { rateLimit: { quota: 4, window: "2 seconds" }, latency: "50 millis" } })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      // Someone else spent the window: our first submit is refused with the window's reset.
      yield* server.enqueueSubmit({
        _tag: "RateLimited",
        reason: "rate_exceeded",
        policy: `"rate";q=4;w=2`,
        state: `"rate";r=0;t=2`
      })
      const start = yield* TestClock.currentTimeMillis
      const summary = yield* H.run(urls(12), { concurrency: 16 })
      assert.strictEqual(summary.completed.length, 12)
      const all = yield* H.submits
      const tasks = (yield* server.tasks).length
      assert.strictEqual(rateRefusals(tasks, all.length), 1)
      // In any 2 s, at most 4 submits were sent after the pause.
      const times = all.slice(1).map((r) => r.at - start)
      for (const t of times) {
        assert.isAtMost(times.filter((u) => u >= t && u < t + 2000).length, 4, times.join(","))
      }
    }).pipe(Effect.provide(h.layer))
  })
})

describe("stopping", () => {
  it.effect("a spent quota stops new submits; tasks running are followed; the rest are not attempted", () => {
    const h = H.make({ server: { defaultTimeline: fourSeconds } })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      yield* server.enqueueSubmit(
        { _tag: "Accept" },
        { _tag: "Accept" },
        { _tag: "RateLimited", reason: "quota_exceeded" }
      )
      const fiber = yield* Effect.fork(
        Stream.runCollect(Batch.convert(urls(10), { outputDirectory: H.outDir, concurrency: 2 }))
      )
      const all = Chunk.toReadonlyArray(yield* H.drive(fiber))
      const stopped = H.ofTag(all, "Stopped")
      assert.strictEqual(stopped.length, 1)
      assert.strictEqual(stopped[0]!.stop._tag, "QuotaSpent")
      assert.strictEqual(H.ofTag(all, "Completed").length, 2)
      const failed = H.ofTag(all, "Failed")
      assert.strictEqual(failed.length, 1)
      assert.strictEqual(failed[0]!.error._tag, "RateLimited")
      assert.strictEqual(H.ofTag(all, "NotAttempted").length, 7)
      assert.strictEqual((yield* H.submits).length, 3)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a refused API key stops the batch at its first submit", () => {
    const h = H.make({ server: { apiKeys: ["another-key"] } })
    return Effect.gen(function*() {
      const summary = yield* H.run(urls(5), { concurrency: 3 })
      assert.strictEqual(summary.stopped?.stop._tag, "Unauthenticated")
      assert.strictEqual(summary.failed.length, 1)
      assert.strictEqual(summary.notAttempted.length, 4)
      assert.strictEqual((yield* H.submits).length, 1)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("options.stop: no new submits from then on, running tasks end normally", () => {
    const h = H.make({ server: { defaultTimeline: fourSeconds } })
    return Effect.gen(function*() {
      const summary = yield* H.run(urls(6), { concurrency: 2, stop: Effect.sleep(Duration.seconds(1)) })
      assert.strictEqual(summary.stopped?.reason, "stopped by request")
      assert.strictEqual(summary.completed.length, 2)
      assert.strictEqual(summary.notAttempted.length, 4)
      assert.strictEqual((yield* H.submits).length, 2)
    }).pipe(Effect.provide(h.layer))
  })
})
