/** Files written whole or not at all, for stream's outputs and the reference server's blob folder.
 * @since 0.2.0 */
import type { PlatformError } from "@effect/platform/Error"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/** Writes `chunks` to `temporary`, fsyncs, renames to `path`, fsyncs the folder; `path` unchanged on failure.
 * @since 0.2.0
 * @category writing */
export const write = <E, R, F>(
  path: string,
  chunks: Stream.Stream<Uint8Array, E, R>,
  options: {
    readonly temporary: string
    readonly failed: (cause: PlatformError) => F
    readonly syncDirectory?: (directory: string) => Effect.Effect<void, PlatformError>
  }
): Effect.Effect<number, E | F, R | FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const paths = yield* Path.Path
    const { failed, temporary } = options
    const written = yield* Effect.scoped(Effect.gen(function*() {
      const file = yield* Effect.mapError(fs.open(temporary, { flag: "wx" }), failed)
      const pull = yield* Stream.toPull(chunks)
      let total = 0
      const writeAll: Effect.Effect<void, E | F, R> = Effect.matchEffect(pull, {
        onFailure: Option.match({ onNone: () => Effect.void, onSome: Effect.fail }),
        onSuccess: (pieces) =>
          Effect.zipRight(
            Effect.forEach(pieces, (chunk) => {
              total += chunk.length
              return Effect.mapError(file.writeAll(chunk), failed)
            }, { discard: true }),
            writeAll
          )
      })
      yield* writeAll
      yield* Effect.mapError(file.sync, failed)
      return total
    })).pipe(
      Effect.onExit((exit) => exit._tag === "Success" ? Effect.void : Effect.ignore(fs.remove(temporary)))
    )
    yield* fs.rename(temporary, path).pipe(
      Effect.mapError(failed),
      Effect.tapError(() => Effect.ignore(fs.remove(temporary)))
    )
    const directory = paths.dirname(paths.resolve(path))
    const sync = options.syncDirectory ??
      ((folder: string) => Effect.scoped(Effect.flatMap(fs.open(folder, { flag: "r" }), (handle) => handle.sync)))
    yield* Effect.mapError(sync(directory), failed)
    return written
  })
