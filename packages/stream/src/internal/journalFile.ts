/**
 * The file journal: JSON lines appended to one file, fsync'd before `append` answers. One writer
 * fiber takes every entry waiting at that moment, writes them in one call and syncs once (group
 * commit), so a thousand jobs answering together cost one fsync, not a thousand.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Queue from "effect/Queue"
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

    const queue = yield* Effect.acquireRelease(Queue.unbounded<Pending>(), Queue.shutdown)
    let broken: JournalFailed | undefined

    const writeBatch = (batch: ReadonlyArray<Pending>) =>
      Effect.gen(function*() {
        const text = prefix + batch.map((pending) => pending.line).join("")
        const exit = broken === undefined ?
          yield* Effect.exit(
            handle.writeAll(encoder.encode(text)).pipe(
              Effect.zipRight(handle.sync),
              Effect.mapError(failed("write"))
            )
          ) :
          Exit.fail(broken)
        if (Exit.isSuccess(exit)) prefix = ""
        // After a failed write the file's end is unknown: every later append fails too.
        else if (exit.cause._tag === "Fail") broken = exit.cause.error
        for (const pending of batch) yield* Deferred.done(pending.written, exit)
      }).pipe(Effect.uninterruptible)

    // Entries still queued when the journal closes are written before it does.
    yield* Effect.addFinalizer(() =>
      Effect.flatMap(Queue.takeAll(queue), (rest) => rest.length === 0 ? Effect.void : writeBatch([...rest]))
    )

    yield* Effect.forkScoped(
      Effect.forever(
        Effect.flatMap(
          Queue.take(queue),
          (first) => Effect.flatMap(Queue.takeAll(queue), (rest) => writeBatch([first, ...rest]))
        )
      )
    )

    const append = (entry: Journal.Entry): Effect.Effect<void, JournalFailed> =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        const written = yield* Deferred.make<void, JournalFailed>()
        yield* Queue.offer(queue, { line: toLine(entry, at), written })
        yield* Deferred.await(written)
      })

    return { recovered, append, location: path } satisfies Journal.Service
  })
