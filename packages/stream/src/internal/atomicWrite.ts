/**
 * The atomic writer behind `Output`: a temporary file beside the target, written, fsync'd and
 * closed, then renamed over the target, and the folder fsync'd (alone, or in a group shared by
 * the writers that finish together, see `directorySync.ts`).
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Random from "effect/Random"
import * as Stream from "effect/Stream"
import { OutputFailed } from "../BatchError.js"
import type { DirectorySync } from "./directorySync.js"
import { syncDirectory } from "./files.js"

/** The suffix of temporary files; `Output.removeStale` deletes files that end with it. */
export const temporarySuffix = ".pdf-transform.part"

/** Writes `chunks` to `path` whole or not at all; the folder is synced by `sync`, or alone when none is given. */
export const write = <E, R>(
  path: string,
  chunks: Stream.Stream<Uint8Array, E, R>,
  sync: DirectorySync | undefined
): Effect.Effect<number, E | OutputFailed, R | FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const paths = yield* Path.Path
    const failed = (cause: { readonly message: string }) => new OutputFailed({ path, reason: cause.message })
    const directory = paths.dirname(paths.resolve(path))
    const id = (yield* Random.nextInt).toString(16).replace("-", "")
    const temporary = paths.join(directory, `.${paths.basename(path)}.${id}${temporarySuffix}`)

    const write = Effect.scoped(Effect.gen(function*() {
      const file = yield* fs.open(temporary, { flag: "wx" }).pipe(Effect.mapError(failed))
      // Pulled rather than run: running a stream costs more CPU than pulling it, once per output.
      const pull = yield* Stream.toPull(chunks)
      let written = 0
      const writeAll: Effect.Effect<void, E | OutputFailed, R> = Effect.matchEffect(pull, {
        onFailure: Option.match({ onNone: () => Effect.void, onSome: Effect.fail }),
        onSuccess: (pieces) =>
          Effect.zipRight(
            Effect.forEach(pieces, (chunk) => {
              written += chunk.length
              return Effect.mapError(file.writeAll(chunk), failed)
            }, { discard: true }),
            writeAll
          )
      })
      yield* writeAll
      yield* Effect.mapError(file.sync, failed)
      return written
    }))

    const written = yield* write.pipe(
      Effect.onExit((exit) => exit._tag === "Success" ? Effect.void : Effect.ignore(fs.remove(temporary)))
    )
    yield* fs.rename(temporary, path).pipe(
      Effect.mapError(failed),
      Effect.tapError(() => Effect.ignore(fs.remove(temporary)))
    )
    yield* (sync === undefined ? syncDirectory(fs, directory) : sync(directory)).pipe(Effect.mapError(failed))
    return written
  })
