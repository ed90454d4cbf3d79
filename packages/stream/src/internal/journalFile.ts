/**
 * The file journal: JSON lines appended to one file, fsync'd before `append` answers. A writer
 * fiber writes every entry waiting at that moment in one call, at once; a syncer fiber makes every
 * line written meanwhile durable with one fsync (group commit), so a thousand jobs answering
 * together cost one fsync, not a thousand, and no line waits for an fsync in progress to be written.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import { JournalFailed } from "../BatchError.js"
import type * as Journal from "../Journal.js"
import { syncDirectory } from "./files.js"
import { recover, toLine } from "./journalEntry.js"

interface Pending {
  readonly line: string
  readonly written: Deferred.Deferred<void, JournalFailed>
}

const encoder = new TextEncoder()

export const make = (
  path: string
): Effect.Effect<Journal.Service, JournalFailed, FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const paths = yield* Path.Path
    const failed = (operation: "open" | "read" | "write") => (cause: { readonly message: string }) =>
      new JournalFailed({ path, operation, reason: cause.message })

    const directory = paths.dirname(paths.resolve(path))
    yield* fs.makeDirectory(directory, { recursive: true }).pipe(Effect.mapError(failed("open")))
    const existed = yield* fs.exists(path).pipe(Effect.mapError(failed("open")))
    const text = existed ? yield* fs.readFileString(path).pipe(Effect.mapError(failed("read"))) : ""
    const recovered = recover(text)
    const handle = yield* fs.open(path, { flag: "a" }).pipe(Effect.mapError(failed("open")))
    if (!existed) {
      // The new file's directory entry must be durable too, or a crash could lose the whole file.
      yield* syncDirectory(fs, directory).pipe(Effect.mapError(failed("open")))
    }
    // A line cut short by a crash gets its newline first, so the next entry starts a line of its own.
    let prefix = text.length > 0 && !text.endsWith("\n") ? "\n" : ""

    // Two steps, each with its own fiber: lines are written as soon as they come (a write in the
    // page cache survives a killed process), and made durable by an fsync shared by every line
    // written meanwhile. A line never waits for an fsync in progress to be written: the crash window
    // of a `submitted` entry is one write, not a write behind the group's fsync.
    const toWrite = yield* Effect.acquireRelease(Queue.unbounded<Pending>(), Queue.shutdown)
    const toSync = yield* Effect.acquireRelease(Queue.unbounded<Pending>(), Queue.shutdown)
    const broken = yield* Ref.make<JournalFailed | undefined>(undefined)

    /** Fails every line of `batch` with the first failure, and every later append with it too. */
    const fail = (batch: ReadonlyArray<Pending>, error: JournalFailed) =>
      Effect.zipRight(
        Ref.update(broken, (current) => current ?? error),
        Effect.forEach(batch, (pending) => Deferred.fail(pending.written, error), { discard: true })
      )

    const writeBatch = (batch: ReadonlyArray<Pending>) =>
      Effect.gen(function*() {
        const already = yield* Ref.get(broken)
        if (already !== undefined) return yield* fail(batch, already)
        const text = prefix + batch.map((pending) => pending.line).join("")
        yield* handle.writeAll(encoder.encode(text)).pipe(
          Effect.mapError(failed("write")),
          Effect.matchEffect({
            // After a failed write the file's end is unknown: every later append fails too.
            onFailure: (error) => fail(batch, error),
            onSuccess: () =>
              Effect.suspend(() => {
                prefix = ""
                return Queue.offerAll(toSync, batch)
              })
          })
        )
      }).pipe(Effect.uninterruptible)

    const syncBatch = (batch: ReadonlyArray<Pending>) =>
      Effect.gen(function*() {
        const already = yield* Ref.get(broken)
        if (already !== undefined) return yield* fail(batch, already)
        yield* Effect.mapError(handle.sync, failed("write")).pipe(
          Effect.matchEffect({
            onFailure: (error) => fail(batch, error),
            onSuccess: () =>
              Effect.forEach(batch, (pending) => Deferred.succeed(pending.written, undefined), { discard: true })
          })
        )
      }).pipe(Effect.uninterruptible)

    /** Every item waiting now (at least one: it waits for the first). */
    const takeBatch = (queue: Queue.Queue<Pending>) =>
      Effect.flatMap(Queue.take(queue), (first) => Effect.map(Queue.takeAll(queue), (rest) => [first, ...rest]))

    // Entries still queued when the journal closes are written and synced before it does.
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        const unwritten = yield* Queue.takeAll(toWrite)
        if (unwritten.length > 0) yield* writeBatch([...unwritten])
        const unsynced = yield* Queue.takeAll(toSync)
        if (unsynced.length > 0) yield* syncBatch([...unsynced])
      })
    )
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(takeBatch(toWrite), writeBatch)))
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(takeBatch(toSync), syncBatch)))

    const append = (entry: Journal.Entry): Effect.Effect<void, JournalFailed> =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        const written = yield* Deferred.make<void, JournalFailed>()
        yield* Queue.offer(toWrite, { line: toLine(entry, at), written })
        yield* Deferred.await(written)
      })

    return { recovered, append, location: path } satisfies Journal.Service
  })
