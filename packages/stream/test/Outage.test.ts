/**
 * A service that cannot be reached, under TestClock: given up on within a few seconds when it never
 * answered; an outage ridden out up to `maxOutage` once it has, with nothing lost or submitted
 * twice; past `maxOutage` the batch stops and the next run picks up what was running.
 */
import { assert, describe, it } from "@effect/vitest"
import { FakeServer, type MemoryFileSystem } from "@pdf-transform/testing"
import { Chunk, Effect, Layer, Stream, TestClock } from "effect"
import { Batch, Job, Journal } from "../src/index.js"
import * as H from "./support/harness.js"

const urls = (count: number) =>
  Array.from({ length: count }, (_, i) => Job.url(`https://example.com/${i}.pdf`, "markdown"))

const fourSeconds: FakeServer.Timeline = [{ after: "4 seconds", status: { state: "completed" } }]

const journalPath = "/state/journal.jsonl"
const fileJournal = (memory: MemoryFileSystem.MemoryFileSystem) =>
  Journal.layerFile(journalPath).pipe(Layer.provide(memory.layer))

describe("an unreachable service", () => {
  it.effect("that never answered: the batch stops after three tries, within about 5 s, nothing sent", () => {
    const h = H.make()
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      yield* server.setUnreachable(true)
      const start = yield* TestClock.currentTimeMillis
      const fiber = yield* Effect.fork(
        Stream.runCollect(Batch.convert(urls(5), { outputDirectory: H.outDir, concurrency: 4 }))
      )
      const all = Chunk.toReadonlyArray(yield* H.drive(fiber))
      const elapsed = (yield* TestClock.currentTimeMillis) - start
      assert.isAtMost(elapsed, 5_000)
      const [stopped] = H.ofTag(all, "Stopped")
      assert.strictEqual(stopped?.stop._tag, "Unreachable")
      assert.strictEqual(
        stopped?.reason,
        "cannot reach the service at https://fake.pdf-transform.test/v1: connect ECONNREFUSED"
      )
      // Two waits were announced, each with its next try; the third failure gave up.
      const waits = H.ofTag(all, "ServiceUnreachable")
      assert.lengthOf(waits, 2)
      assert.isTrue(waits.every((w) => !w.answeredBefore && w.retryInMs !== undefined))
      assert.strictEqual(H.ofTag(all, "NotAttempted").length, 5)
      assert.strictEqual(H.ofTag(all, "Failed").length, 0)
      assert.lengthOf(yield* server.tasks, 0)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("after it has answered: an outage is ridden out, nothing lost and nothing submitted twice", () => {
    const h = H.make({ server: { defaultTimeline: fourSeconds } })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const fiber = yield* Effect.fork(
        Stream.runCollect(Batch.convert(urls(6), { outputDirectory: H.outDir, concurrency: 2 }))
      )
      yield* H.advance(2_000)
      yield* server.setUnreachable(true)
      yield* H.advance(90_000)
      yield* server.setUnreachable(false)
      const all = Chunk.toReadonlyArray(yield* H.drive(fiber))
      assert.strictEqual(H.ofTag(all, "Completed").length, 6)
      assert.strictEqual(H.ofTag(all, "Stopped").length, 0)
      const waits = H.ofTag(all, "ServiceUnreachable")
      assert.isAbove(waits.length, 0)
      assert.isTrue(waits.every((w) => w.answeredBefore))
      const [back] = H.ofTag(all, "ServiceReachable")
      assert.isAtLeast(back?.downMs ?? 0, 85_000)
      const tasks = yield* server.tasks
      assert.lengthOf(tasks, 6)
      assert.sameMembers(
        tasks.map((t) => String((t.request as { readonly pdfURL?: unknown }).pdfURL)),
        urls(6).map((j) => String(j.source))
      )
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("past maxOutage: the batch stops; running tasks stay in the journal and the next run finishes them", () => {
    const h = H.make({ server: { defaultTimeline: fourSeconds } })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const jobs = urls(6)
      const fiber = yield* Effect.fork(
        Stream.runCollect(Batch.convert(jobs, { outputDirectory: H.outDir, concurrency: 2, maxOutage: "30 seconds" }))
          .pipe(Effect.provide(fileJournal(h.memory)))
      )
      yield* H.advance(2_000)
      yield* server.setUnreachable(true)
      const all = Chunk.toReadonlyArray(yield* H.drive(fiber))
      const [stopped] = H.ofTag(all, "Stopped")
      assert.strictEqual(stopped?.stop._tag, "Unreachable")
      assert.isTrue(stopped?.stop._tag === "Unreachable" && stopped.stop.outageMs >= 30_000)
      const cut = H.ofTag(all, "Failed")
      assert.lengthOf(cut, 2)
      assert.isTrue(cut.every((e) => e.error._tag === "TransportError" && e.sessionId !== undefined))
      assert.strictEqual(H.ofTag(all, "NotAttempted").length, 4)
      assert.lengthOf(yield* server.tasks, 2)

      yield* server.setUnreachable(false)
      const second = yield* Effect.fork(Batch.run(jobs, { outputDirectory: H.outDir, concurrency: 2 })).pipe(
        Effect.flatMap((f) => H.drive(f)),
        Effect.provide(fileJournal(h.memory))
      )
      assert.strictEqual(second.completed.length, 6)
      // The two tasks the outage cut off were resumed, not submitted again.
      assert.lengthOf(yield* server.tasks, 6)
      assert.strictEqual((yield* H.submits).length, 6)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("local files: an upload that cannot connect is retried like a submit, then given up on", () => {
    const h = H.make({ uploader: "server" })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      yield* server.setUnreachable(true)
      const files = H.pdfs(h.memory, 3).map((path) => Job.file(path, "markdown"))
      const fiber = yield* Effect.fork(Batch.run(files, { outputDirectory: H.outDir }))
      const summary = yield* H.drive(fiber)
      assert.strictEqual(summary.stopped?.stop._tag, "Unreachable")
      assert.strictEqual(summary.notAttempted.length, 3)
      assert.strictEqual(summary.failed.length, 0)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("an answer lost after the submit reached the service is ambiguous: the task exists, it is not sent again", () => {
    const h = H.make()
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      // A reset once the request was read, and an answer slower than the client's request timeout.
      yield* server.enqueueSubmit(
        { _tag: "Fault", fault: { _tag: "ResetAfterSend" } },
        { _tag: "Fault", fault: { _tag: "SlowBody", delay: "2 minutes" } }
      )
      const all = yield* H.events(Batch.convert(urls(2), { outputDirectory: H.outDir }))
      const ambiguous = H.ofTag(all, "Ambiguous")
      assert.strictEqual(ambiguous.length, 2)
      assert.isTrue(ambiguous.every((event) => event.reason.includes("outcome is unknown")), ambiguous[0]!.reason)
      assert.strictEqual((yield* H.submits).length, 2)
      assert.strictEqual((yield* server.tasks).length, 2)
    }).pipe(Effect.provide(h.layer))
  })
})
