/** The file journal: JSON lines appended to one file, fsync'd before `append` answers. */
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
import * as DirectWrite from "./directWrite.js"
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

    // Written at once (the page cache survives a killed process), made durable by one shared fsync.
    const direct = DirectWrite.forFile(handle, paths.resolve(path))
    const toWrite = yield* Effect.acquireRelease(Queue.unbounded<Pending>(), Queue.shutdown)
    const toSync = yield* Effect.acquireRelease(Queue.unbounded<Pending>(), Queue.shutdown)
    const broken = yield* Ref.make<JournalFailed | undefined>(undefined)

    /** Fails every line of `batch` with the first failure, and every later append with it too. */
    const fail = (batch: ReadonlyArray<Pending>, error: JournalFailed) =>
      Effect.zipRight(
        Ref.update(broken, (current) => current ?? error),
        Effect.forEach(batch, (pending) => Deferred.fail(pending.written, error), { discard: true })
      )

    /** The text of `batch`, after the newline a cut line still needs (taken once). */
    const render = (batch: ReadonlyArray<Pending>): Uint8Array => {
      const text = prefix + batch.map((pending) => pending.line).join("")
      prefix = ""
      return encoder.encode(text)
    }

    /** Writes `batch` with `write`, then hands it to the syncer; a failure breaks the journal. */
    const writeWith = (
      batch: ReadonlyArray<Pending>,
      write: (batch: ReadonlyArray<Pending>) => Effect.Effect<void, JournalFailed>
    ) =>
      Effect.flatMap(Ref.get(broken), (already) =>
        already !== undefined ? fail(batch, already) : write(batch).pipe(
          Effect.matchEffect({
            // After a failed write the file's end is unknown: every later append fails too.
            onFailure: (error) => fail(batch, error),
            onSuccess: () => Queue.offerAll(toSync, batch)
          })
        )).pipe(Effect.uninterruptible)

    const writeBatch = (batch: ReadonlyArray<Pending>) =>
      writeWith(
        batch,
        (lines) => Effect.mapError(Effect.suspend(() => handle.writeAll(render(lines))), failed("write"))
      )

    /** A synchronous write: the text is rendered and written in one step, so lines keep their order. */
    const writeNow = (write: DirectWrite.DirectWrite) => (lines: ReadonlyArray<Pending>) =>
      Effect.try({
        try: () => write(render(lines)),
        catch: (cause) => failed("write")({ message: cause instanceof Error ? cause.message : String(cause) })
      })

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
    if (direct === undefined) yield* Effect.forkScoped(Effect.forever(Effect.flatMap(takeBatch(toWrite), writeBatch)))
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(takeBatch(toSync), syncBatch)))

    const append = (entry: Journal.Entry): Effect.Effect<void, JournalFailed> =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        const pending: Pending = { line: toLine(entry, at), written: yield* Deferred.make<void, JournalFailed>() }
        if (direct === undefined) yield* Queue.offer(toWrite, pending)
        else yield* writeWith([pending], writeNow(direct))
        yield* Deferred.await(pending.written)
      })

    return { recovered, append, location: path } satisfies Journal.Service
  })
