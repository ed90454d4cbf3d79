/** Outputs on disk whole or absent: a temporary file beside the target, fsync'd, renamed over it, folder fsync'd.
 * @since 0.1.0 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import type * as Contract from "@pdf-transform/core/Contract"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type { DownloadFailed } from "@pdf-transform/core/PdfTransformError"
import * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import { OutputFailed } from "./BatchError.js"
import * as atomicWrite from "./internal/atomicWrite.js"

/** The suffix of temporary files; `removeStale` deletes files that end with it.
 * @since 0.1.0
 * @category constants */
export const temporarySuffix = atomicWrite.temporarySuffix

/** Writes a stream of chunks to `path` atomically and answers the number of bytes written.
 * @since 0.1.0
 * @category writing */
export const writeAtomically = <E, R>(
  path: string,
  chunks: Stream.Stream<Uint8Array, E, R>
): Effect.Effect<number, E | OutputFailed, R | FileSystem.FileSystem | Path.Path> =>
  atomicWrite.write(path, chunks, undefined)

/** Downloads a completed task straight to `path`, whole or absent (see `writeAtomically`).
 * @since 0.1.0
 * @category writing */
export const download = <F extends Contract.Format>(
  completed: PdfTransformClient.CompletedTask<F>,
  path: string
): Effect.Effect<
  number,
  DownloadFailed | OutputFailed,
  PdfTransformClient.PdfTransformClient | FileSystem.FileSystem | Path.Path
> =>
  Effect.flatMap(
    PdfTransformClient.PdfTransformClient,
    (client) => writeAtomically(path, client.download(completed))
  )

/** Deletes the temporary files (`temporarySuffix`) a killed run left in `directory`; answers how many.
 * @since 0.1.0
 * @category writing */
export const removeStale = (
  directory: string
): Effect.Effect<number, OutputFailed, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const paths = yield* Path.Path
    const failed = (cause: { readonly message: string }) => new OutputFailed({ path: directory, reason: cause.message })
    if (!(yield* fs.exists(directory).pipe(Effect.mapError(failed)))) return 0
    const names = yield* fs.readDirectory(directory).pipe(Effect.mapError(failed))
    const stale = names.filter((name) => name.endsWith(temporarySuffix))
    yield* Effect.forEach(stale, (name) => fs.remove(paths.join(directory, name)), { discard: true }).pipe(
      Effect.mapError(failed)
    )
    return stale.length
  })
