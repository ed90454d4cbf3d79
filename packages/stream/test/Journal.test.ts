/**
 * The file journal: entries survive a reopen, a job's state is its last word, entries appended
 * together are written together, unreadable lines are reported (never dropped, never fatal), and
 * a failed write is an error for every later append. On a real disk a line is in the file the moment
 * it is appended, without a round trip through the thread pool.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { assert, describe, expectTypeOf, it } from "@effect/vitest"
import { Contract } from "@pdf-transform/core"
import { MemoryFileSystem } from "@pdf-transform/testing"
import { Deferred, Effect, Either, Fiber, Layer, Option } from "effect"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Journal } from "../src/index.js"

const path = "/state/journal.jsonl"
const sid = Contract.SessionId.make

/** Opens the journal at `path` on `memory` for the length of `use`. */
const withJournal = <A, E>(
  memory: MemoryFileSystem.MemoryFileSystem,
  use: (journal: Journal.Service) => Effect.Effect<A, E>
) => Effect.scoped(Effect.flatMap(Journal.makeFile(path), use)).pipe(Effect.provide(memory.layer))

describe("file journal", () => {
  it.effect("entries survive a reopen; each job's state is its last entry, with what earlier ones established", () => {
    const memory = MemoryFileSystem.make()
    return Effect.gen(function*() {
      yield* withJournal(memory, (journal) =>
        Effect.gen(function*() {
          assert.strictEqual(journal.recovered.jobs.size, 0)
          yield* journal.append({ state: "submitting", key: "a", name: "a.pdf", format: "markdown", output: "/o/a.md" })
          yield* journal.append({ state: "submitted", key: "a", sessionId: sid("s-a") })
          yield* journal.append({ state: "submitting", key: "b", name: "b.pdf", format: "epub", output: "/o/b.epub" })
          yield* journal.append({ state: "submitting", key: "c", name: "c.pdf", format: "markdown", output: "/o/c.md" })
          yield* journal.append({ state: "submitted", key: "c", sessionId: sid("s-c") })
          yield* journal.append({
            state: "failed",
            key: "c",
            failure: { tag: "PollTimeout", message: "still processing", taskEnded: false }
          })
          yield* journal.append({ state: "completed", key: "a", sessionId: sid("s-a"), output: "/o/a.md", bytes: 12 })
        }))
      const reopened = yield* withJournal(memory, (journal) => Effect.succeed(journal.recovered))
      assert.deepStrictEqual(reopened.problems, [])
      assert.deepStrictEqual(reopened.jobs.get("a"), {
        key: "a",
        state: "completed",
        output: "/o/a.md",
        sessionId: sid("s-a")
      })
      assert.deepStrictEqual(reopened.jobs.get("b"), { key: "b", state: "submitting", output: "/o/b.epub" })
      // A failure after the submit keeps the sessionID, so the next run can poll the task again.
      const c = reopened.jobs.get("c")
      assert.deepStrictEqual(c, {
        key: "c",
        state: "failed",
        output: "/o/c.md",
        sessionId: sid("s-c"),
        failure: { tag: "PollTimeout", message: "still processing", taskEnded: false }
      })
      // A record's state says which fields it has.
      if (c?.state === "failed") expectTypeOf(c.failure).toEqualTypeOf<Journal.Failure>()
      expectTypeOf<Extract<Journal.JobRecord, { state: "completed" }>["sessionId"]>().toEqualTypeOf<
        Contract.SessionId
      >()
    })
  })

  it.effect("unreadable and truncated lines are reported with their line numbers; the rest is read", () => {
    const memory = MemoryFileSystem.make()
    const good = (key: string) => JSON.stringify({ v: 1, key, at: 0, state: "submitted", sessionId: `s-${key}` })
    memory.files.set(
      path,
      new TextEncoder().encode(
        [
          good("a"),
          "not json",
          JSON.stringify({ v: 1, key: "x", at: 0, state: "exploded" }),
          good("b"),
          "{\"v\":1,\"ke"
        ]
          .join("\n")
      )
    )
    return Effect.gen(function*() {
      const recovered = yield* withJournal(memory, (journal) =>
        Effect.gen(function*() {
          yield* journal.append({ state: "submitted", key: "c", sessionId: sid("s-c") })
          return journal.recovered
        }))
      assert.deepStrictEqual(recovered.problems.map((p) => p.line), [2, 3, 5])
      assert.include(recovered.problems[0]!.problem, "not a journal entry")
      assert.include(recovered.problems[2]!.problem, "truncated")
      assert.sameMembers([...recovered.jobs.keys()], ["a", "b"])
      // The cut line got its newline: the new entry is a line of its own, readable next time.
      const again = yield* withJournal(memory, (journal) => Effect.succeed(journal.recovered))
      assert.sameMembers([...again.jobs.keys()], ["a", "b", "c"])
      assert.deepStrictEqual(again.problems.map((p) => p.line), [2, 3, 5])
    })
  })

  it.effect("entries appended together are written (and synced) together", () => {
    const memory = MemoryFileSystem.make()
    return Effect.gen(function*() {
      yield* withJournal(memory, (journal) =>
        Effect.forEach(
          Array.from({ length: 200 }, (_, i) => i),
          (i) => journal.append({ state: "submitted", key: `k${i}`, sessionId: sid(`s${i}`) }),
          { concurrency: "unbounded", discard: true }
        ))
      assert.isAtMost(memory.writes.get(path) ?? 0, 5)
      const recovered = yield* withJournal(memory, (journal) => Effect.succeed(journal.recovered))
      assert.strictEqual(recovered.jobs.size, 200)
    })
  })

  it.effect("an entry is written at once, not behind an fsync in progress; it answers once a sync after it ends", () => {
    const memory = MemoryFileSystem.make()
    return Effect.gen(function*() {
      const slowDisk = yield* Deferred.make<void>()
      yield* withJournal(memory, (journal) =>
        Effect.gen(function*() {
          memory.syncing.wait = Deferred.await(slowDisk)
          const first = yield* Effect.fork(journal.append({ state: "submitted", key: "a", sessionId: sid("s-a") }))
          for (let i = 0; i < 20; i++) yield* Effect.yieldNow()
          // The first entry's fsync hangs; the second entry is written all the same.
          const second = yield* Effect.fork(journal.append({ state: "submitted", key: "b", sessionId: sid("s-b") }))
          for (let i = 0; i < 20; i++) yield* Effect.yieldNow()
          assert.include(memory.text(path), `"key":"b"`)
          assert.isNull(yield* Fiber.poll(second).pipe(Effect.map(Option.getOrNull)))
          memory.syncing.wait = Effect.void
          yield* Deferred.succeed(slowDisk, undefined)
          yield* Fiber.join(first)
          yield* Fiber.join(second)
          // However the assertions end, the disk comes back, so the journal can close.
        }).pipe(Effect.ensuring(Deferred.succeed(slowDisk, undefined))))
    })
  })

  it.effect("a failed write fails that append and every later one", () => {
    const memory = MemoryFileSystem.make()
    return Effect.gen(function*() {
      yield* withJournal(memory, (journal) =>
        Effect.gen(function*() {
          yield* journal.append({ state: "submitted", key: "a", sessionId: sid("s-a") })
          memory.failingWrites.add(path)
          const first = yield* Effect.either(journal.append({ state: "submitted", key: "b", sessionId: sid("s-b") }))
          memory.failingWrites.delete(path)
          const later = yield* Effect.either(journal.append({ state: "submitted", key: "c", sessionId: sid("s-c") }))
          assert.isTrue(Either.isLeft(first) && first.left._tag === "JournalFailed" && first.left.operation === "write")
          assert.isTrue(Either.isLeft(later) && later.left._tag === "JournalFailed")
        }))
    })
  })

  it.effect("on a real disk: appends from many fibers are all there after a reopen", () =>
    Effect.gen(function*() {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "journal-"))
      const file = Path.join(dir, "nested", "journal.jsonl")
      const open = Effect.scoped(Effect.flatMap(Journal.makeFile(file), (journal) =>
        Effect.as(
          Effect.forEach(
            Array.from({ length: 300 }, (_, i) => i),
            (i) => journal.append({ state: "submitted", key: `k${i}`, sessionId: sid(`s${i}`) }),
            { concurrency: 50, discard: true }
          ),
          journal.recovered
        )))
      const first = yield* open
      assert.strictEqual(first.jobs.size, 0)
      const second = yield* open
      assert.strictEqual(second.jobs.size, 300)
      assert.deepStrictEqual(second.problems, [])
      assert.strictEqual(Fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "").length, 600)
      Fs.rmSync(dir, { recursive: true, force: true })
    }).pipe(Effect.provide(Layer.merge(NodeFileSystem.layer, NodePath.layer))))

  it.effect("on a real disk: a line is in the file when append is called, even while every thread-pool thread is busy", () =>
    Effect.gen(function*() {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "journal-"))
      const file = Path.join(dir, "journal.jsonl")
      const pipe = Path.join(dir, "pool")
      ChildProcess.execFileSync("mkfifo", [pipe])
      const fifo = Fs.openSync(pipe, Fs.constants.O_RDWR)
      const threads = Number(process.env["UV_THREADPOOL_SIZE"] ?? 4)
      yield* Effect.scoped(Effect.gen(function*() {
        const journal = yield* Journal.makeFile(file)
        // Every thread of libuv's pool held by a read of an empty pipe, until the pipe is written.
        const held = Array.from(
          { length: threads },
          () => new Promise<void>((resolve) => Fs.read(fifo, Buffer.alloc(1), 0, 1, null, () => resolve()))
        )
        const release = Effect.promise(() => {
          Fs.writeSync(fifo, Buffer.alloc(threads))
          return Promise.all(held)
        })
        const append = yield* Effect.fork(journal.append({ state: "submitted", key: "k", sessionId: sid("s") }))
        // Until the append waits for its fsync (which needs a thread of the pool).
        while ((yield* Fiber.status(append))._tag !== "Suspended") yield* Effect.yieldNow()
        const text = Fs.readFileSync(file, "utf8")
        yield* release
        yield* Fiber.join(append)
        assert.match(text, /"state":"submitted"/, "the line waited for the thread pool")
      })).pipe(Effect.ensuring(Effect.sync(() => {
        Fs.closeSync(fifo)
        Fs.rmSync(dir, { recursive: true, force: true })
      })))
    }).pipe(Effect.provide(Layer.merge(NodeFileSystem.layer, NodePath.layer))))
})
