/**
 * A batch started again over its journal: done jobs are skipped, known tasks are polled (never
 * resubmitted), an unanswered submit is ambiguous unless the caller opts in, and an interrupted
 * batch leaves a journal the next run completes without a second submit.
 */
import { assert, describe, it } from "@effect/vitest"
import { FakeServer, type MemoryFileSystem } from "@pdf-transform/testing"
import { Effect, Fiber, Layer } from "effect"
import { Batch, Job, Journal } from "../src/index.js"
import * as H from "./support/harness.js"

const journalPath = "/state/journal.jsonl"

/** A fresh file journal over the same memory file system: what a restarted process opens. */
const fileJournal = (memory: MemoryFileSystem.MemoryFileSystem) =>
  Journal.layerFile(journalPath).pipe(Layer.provide(memory.layer))

const urls = (count: number) =>
  Array.from({ length: count }, (_, i) => Job.url(`https://example.com/${i}.pdf`, "markdown"))

const runOnce = (
  memory: MemoryFileSystem.MemoryFileSystem,
  jobs: ReadonlyArray<Job.Job>,
  options: Partial<Batch.Options> = {}
) =>
  Effect.fork(Batch.run(jobs, { outputDirectory: H.outDir, concurrency: 3, ...options })).pipe(
    Effect.flatMap((fiber) => H.drive(fiber)),
    Effect.provide(fileJournal(memory))
  )

const threeSeconds: FakeServer.Timeline = [{ after: "3 seconds", status: { state: "completed" } }]

describe("restart", () => {
  it.effect("completed jobs are skipped and their outputs left alone; nothing is submitted again", () => {
    const h = H.make({ server: { defaultTimeline: threeSeconds } })
    return Effect.gen(function*() {
      const first = yield* runOnce(h.memory, urls(4))
      assert.strictEqual(first.completed.length, 4)
      const before = new Map(h.memory.files)
      const second = yield* runOnce(h.memory, urls(4))
      assert.strictEqual(second.skipped.length, 4)
      assert.isTrue(second.skipped.every((e) => e.previous === "completed" && e.output !== undefined))
      assert.strictEqual((yield* H.submits).length, 4)
      for (const [path, bytes] of before) {
        if (path.startsWith("/out/")) assert.strictEqual(h.memory.files.get(path), bytes)
      }
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("an interrupted batch leaves every task it created in the journal; the next run polls them, submits none twice", () => {
    const h = H.make({ server: { defaultTimeline: threeSeconds } })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const fiber = yield* Effect.fork(
        Batch.run(urls(9), { outputDirectory: H.outDir, concurrency: 3 }).pipe(Effect.provide(fileJournal(h.memory)))
      )
      // Mid-batch: the first round done, the second running.
      yield* H.advance(4_500)
      yield* Fiber.interrupt(fiber)
      const created = yield* server.tasks
      assert.isAbove(created.length, 3)
      assert.isBelow(created.length, 9)
      const recovered = yield* Effect.scoped(Journal.makeFile(journalPath)).pipe(
        Effect.map((journal) => journal.recovered),
        Effect.provide(h.memory.layer)
      )
      const known = [...recovered.jobs.values()].flatMap((record) => record.sessionId ?? [])
      assert.sameMembers(known, created.map((task) => task.sessionId))
      assert.isFalse([...recovered.jobs.values()].some((record) => record.state === "submitting"))
      // No temporary file is left as an output.
      assert.isTrue([...h.memory.files.keys()].every((p) => !p.endsWith(".part") || p.includes(".pdf-transform.")))
      const second = yield* runOnce(h.memory, urls(9))
      assert.strictEqual(second.completed.length + second.skipped.length, 9)
      assert.strictEqual((yield* H.submits).length, 9)
      assert.strictEqual((yield* server.tasks).length, 9)
      assert.isFalse([...h.memory.files.keys()].some((p) => p.endsWith(".pdf-transform.part")))
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a rerun right after a kill: resumed tasks hold their slots, so new submits wait for them instead of spinning on 429", () => {
    // The scenario: 12 documents, the default bound, a service allowing 4 tasks in
    // flight (no retry hint on its refusals), tasks of 1.5 s, killed after 2.5 s and run again at once.
    const h = H.make({
      server: { concurrencyLimit: 4, defaultTimeline: [{ after: "1500 millis", status: { state: "completed" } }] }
    })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const jobs = urls(12)
      const fiber = yield* Effect.fork(
        Batch.run(jobs, { outputDirectory: H.outDir }).pipe(Effect.provide(fileJournal(h.memory)))
      )
      yield* H.advance(2_500)
      yield* Fiber.interrupt(fiber)
      const running = yield* server.inFlight
      assert.isAbove(running, 0)
      const submitsBefore = (yield* H.submits).length
      const second = yield* runOnce(h.memory, jobs, { concurrency: undefined })
      assert.strictEqual(second.failed.length, 0, second.failed.map((e) => e.error.message).join("; "))
      assert.strictEqual(second.completed.length + second.skipped.length, 12)
      assert.strictEqual((yield* server.tasks).length, 12)
      // The resumed tasks fill the service: no submit is refused, none spins.
      const refused = (yield* H.submits).length - (yield* server.tasks).length
      assert.strictEqual(refused, 0, `${refused} refusals after ${submitsBefore} submits in the first run`)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a submit left without its answer is ambiguous; with resubmitAmbiguous it is submitted once more", () => {
    const h = H.make()
    return Effect.gen(function*() {
      // A run killed right after writing `submitting`: seed the journal as it would have left it.
      const [job] = urls(1)
      const first = yield* runOnce(h.memory, [job!])
      const key = first.completed[0]!.job.key
      h.memory.files.set(
        journalPath,
        new TextEncoder().encode(
          `${
            JSON.stringify({
              v: 1,
              at: 0,
              key,
              state: "submitting",
              name: "x",
              format: "markdown",
              output: "/out/0.md"
            })
          }\n`
        )
      )
      const second = yield* runOnce(h.memory, [job!])
      assert.strictEqual(second.ambiguous.length, 1)
      assert.strictEqual((yield* H.submits).length, 1)
      const third = yield* runOnce(h.memory, [job!], { resubmitAmbiguous: true })
      assert.strictEqual(third.completed.length, 1)
      assert.strictEqual(third.completed[0]!.output, "/out/0.md")
      assert.strictEqual((yield* H.submits).length, 2)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a submit answered with an unknown outcome is ambiguous now and after a restart", () => {
    const h = H.make()
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      yield* server.enqueueSubmit({ _tag: "Fault", fault: { _tag: "ResetAfterSend" } })
      const first = yield* runOnce(h.memory, urls(2))
      assert.strictEqual(first.ambiguous.length, 1)
      assert.strictEqual(first.completed.length, 1)
      const second = yield* runOnce(h.memory, urls(2))
      assert.strictEqual(second.ambiguous.length, 1)
      assert.strictEqual(second.skipped.length, 1)
      assert.strictEqual((yield* H.submits).length, 2)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a task an earlier run submitted is polled, not submitted again; a task that failed is skipped unless retryFailed", () => {
    const h = H.make({ server: { defaultTimeline: threeSeconds } })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      yield* server.enqueueSubmit({
        _tag: "Accept",
        timeline: [{ after: "1 second", status: { state: "failed", error: "unreadable page" } }]
      })
      const jobs = urls(2)
      // The first run stops polling early (a short deadline): its task is still running.
      const first = yield* runOnce(h.memory, jobs, { concurrency: 1, poll: { deadline: "2 seconds" } })
      assert.strictEqual(first.failed.length, 2)
      const tags = first.failed.map((e) => e.error._tag).sort()
      assert.deepStrictEqual(tags, ["ConversionFailed", "PollTimeout"])
      const second = yield* runOnce(h.memory, jobs)
      assert.strictEqual(second.completed.length, 1)
      assert.strictEqual(second.skipped.length, 1)
      assert.strictEqual(second.skipped[0]!.previous, "failed")
      assert.strictEqual((yield* H.submits).length, 2)
      const third = yield* runOnce(h.memory, jobs, { retryFailed: true })
      assert.strictEqual(third.completed.length, 1)
      assert.strictEqual(third.skipped.length, 1)
      assert.strictEqual((yield* H.submits).length, 3)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("an in-memory journal shared by two batches: the second skips what the first did", () => {
    const h = H.make()
    const journal = Journal.makeMemory()
    return Effect.gen(function*() {
      const run = Effect.fork(Batch.run(urls(3), { outputDirectory: H.outDir })).pipe(
        Effect.flatMap((fiber) => H.drive(fiber)),
        Effect.provideService(Journal.Journal, journal)
      )
      assert.strictEqual((yield* run).completed.length, 3)
      assert.strictEqual((yield* run).skipped.length, 3)
      assert.strictEqual((yield* H.submits).length, 3)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a corrupt journal line is reported, and the batch goes on", () => {
    const h = H.make()
    h.memory.files.set(journalPath, new TextEncoder().encode("garbage\n"))
    return Effect.gen(function*() {
      const summary = yield* runOnce(h.memory, urls(2))
      assert.strictEqual(summary.completed.length, 2)
      assert.deepStrictEqual(summary.journalProblems.map((p) => p.line), [1])
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a journal that cannot be written stops the batch with JournalFailed before anything is submitted", () => {
    const h = H.make()
    return Effect.gen(function*() {
      h.memory.failingWrites.add(journalPath)
      const result = yield* Effect.either(runOnce(h.memory, urls(3)))
      assert.isTrue(result._tag === "Left" && result.left._tag === "JournalFailed")
      assert.strictEqual((yield* H.submits).length, 0)
    }).pipe(Effect.provide(h.layer))
  })
})
