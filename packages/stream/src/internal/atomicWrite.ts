/** The atomic writer behind `Output`: core's `AtomicFile`, its temporary file beside the target. */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as AtomicFile from "@pdf-transform/core/AtomicFile"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import type * as Stream from "effect/Stream"
import { OutputFailed } from "../BatchError.js"
import type { DirectorySync } from "./directorySync.js"

/** The suffix of temporary files; `Output.removeStale` deletes files that end with it. */
export const temporarySuffix = ".pdf-transform.part"

/** Writes `chunks` to `path` whole or not at all; the folder is synced by `sync`, or alone when none is given. */
export const write = <E, R>(
  path: string,
  chunks: Stream.Stream<Uint8Array, E, R>,
  sync: DirectorySync | undefined
): Effect.Effect<number, E | OutputFailed, R | FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const paths = yield* Path.Path
    const directory = paths.dirname(paths.resolve(path))
    const id = (yield* Random.nextInt).toString(16).replace("-", "")
    const temporary = paths.join(directory, `.${paths.basename(path)}.${id}${temporarySuffix}`)
    return yield* AtomicFile.write(path, chunks, {
      temporary,
      failed: (cause) => new OutputFailed({ path, reason: cause.message }),
      ...(sync === undefined ? {} : { syncDirectory: sync })
    })
  })
