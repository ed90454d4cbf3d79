/**
 * The store's bytes as files of a directory (a volume every node may mount), each written whole or not
 * at all. The rows say which blobs exist: a blob is written before its row commits and removed after
 * the row is gone; what a crash leaves between the two goes at the next start, once `orphanAgeMs` old.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as AtomicFile from "@pdf-transform/core/AtomicFile"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs/promises"
import * as Path from "node:path"
import { StorageError } from "./store.js"

/** Task and file ids are the server's UUIDs; anything else never names a path. */
const safeId = /^[A-Za-z0-9-]{1,64}$/

/** A blob without a row is left alone this long: another node may not have committed its row yet. */
export const orphanAgeMs = 60 * 60 * 1000

export interface BlobDirectory {
  readonly root: string
  readonly writeOutput: (taskId: string, bytes: Uint8Array) => Effect.Effect<void, StorageError>
  /** A task's output; a row that says it exists and a file that does not is a storage failure. */
  readonly readOutput: (taskId: string) => Effect.Effect<Uint8Array, StorageError>
  readonly removeOutputs: (taskIds: ReadonlyArray<string>) => Effect.Effect<void, StorageError>
  readonly writePart: (fileId: string, part: number, bytes: Uint8Array) => Effect.Effect<void, StorageError>
  readonly readPart: (fileId: string, part: number) => Effect.Effect<Uint8Array, StorageError>
  readonly removeFiles: (fileIds: ReadonlyArray<string>) => Effect.Effect<void, StorageError>
  /**
   * Removes blobs older than `orphanAgeMs` whose row is gone: `known` answers, for a batch of ids,
   * those the store still has.
   */
  readonly removeOrphans: (
    known: {
      readonly tasks: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>, StorageError>
      readonly files: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>, StorageError>
    },
    now: number
  ) => Effect.Effect<number, StorageError>
}

const attempt = <A>(operation: string, run: () => Promise<A>): Effect.Effect<A, StorageError> =>
  Effect.tryPromise({ try: run, catch: (cause) => new StorageError({ operation, cause }) })

const isMissing = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT"

const platform = Layer.merge(NodeFileSystem.layer, NodePath.layer)

/** `bytes` at `path`, whole or not at all, durable once this returns; written first in `temporaries`. */
const writeWhole = (operation: string, temporaries: string, path: string, bytes: Uint8Array) =>
  Effect.zipRight(
    attempt(operation, () => Fs.mkdir(Path.dirname(path), { recursive: true })),
    AtomicFile.write(path, Stream.succeed(bytes), {
      temporary: Path.join(temporaries, `${Path.basename(path)}.${Crypto.randomBytes(6).toString("hex")}.partial`),
      failed: (cause) => new StorageError({ operation, cause })
    })
  ).pipe(Effect.asVoid, Effect.provide(platform))

/** The names in `folder`, none when it does not exist. */
const namesIn = async (folder: string): Promise<ReadonlyArray<string>> => {
  try {
    return await Fs.readdir(folder)
  } catch (error) {
    if (isMissing(error)) return []
    throw error
  }
}

export const make = (root: string): Effect.Effect<BlobDirectory, StorageError> =>
  Effect.gen(function*() {
    const outputs = Path.join(root, "outputs")
    const files = Path.join(root, "files")
    const temporaries = Path.join(root, "tmp")
    yield* attempt(`open the blob directory ${root}`, async () => {
      await Fs.mkdir(outputs, { recursive: true })
      await Fs.mkdir(files, { recursive: true })
      await Fs.mkdir(temporaries, { recursive: true })
      await Fs.access(root, Fs.constants.R_OK | Fs.constants.W_OK)
    })
    const checked = (id: string) =>
      safeId.test(id) ? Effect.succeed(id) : Effect.fail(
        new StorageError({ operation: "name a blob", cause: new Error(`not an id: ${JSON.stringify(id)}`) })
      )
    const outputPath = (taskId: string) => Effect.map(checked(taskId), (id) => Path.join(outputs, id))
    const filePath = (fileId: string) => Effect.map(checked(fileId), (id) => Path.join(files, id))

    const removeOrphansIn = (
      folder: string,
      known: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>, StorageError>,
      now: number
    ) =>
      Effect.gen(function*() {
        const names = yield* attempt(`list ${folder}`, () => namesIn(folder))
        let removed = 0
        for (let start = 0; start < names.length; start += 500) {
          const batch = names.slice(start, start + 500)
          const kept = yield* known(batch.filter((name) => safeId.test(name)))
          for (const name of batch) {
            if (kept.has(name)) continue
            const path = Path.join(folder, name)
            const gone = yield* attempt(`remove the orphan ${path}`, async () => {
              const stat = await Fs.stat(path).catch((error: unknown) =>
                isMissing(error) ? undefined : Promise.reject(error)
              )
              if (stat === undefined || now - stat.mtimeMs < orphanAgeMs) return false
              await Fs.rm(path, { recursive: true, force: true })
              return true
            })
            if (gone) removed++
          }
        }
        return removed
      })

    return {
      root,
      writeOutput: (taskId, bytes) =>
        Effect.flatMap(
          outputPath(taskId),
          (path) => writeWhole("write output", temporaries, path, bytes)
        ),
      readOutput: (taskId) =>
        Effect.flatMap(outputPath(taskId), (path) => attempt("read output", () => Fs.readFile(path))),
      removeOutputs: (taskIds) =>
        Effect.forEach(
          taskIds,
          (taskId) =>
            Effect.flatMap(outputPath(taskId), (path) => attempt("remove output", () => Fs.rm(path, { force: true }))),
          { discard: true }
        ),
      writePart: (fileId, part, bytes) =>
        Effect.flatMap(
          filePath(fileId),
          (folder) => writeWhole("write part", temporaries, Path.join(folder, String(part)), bytes)
        ),
      readPart: (fileId, part) =>
        Effect.flatMap(filePath(fileId), (folder) =>
          attempt("read file", () => Fs.readFile(Path.join(folder, String(part))))),
      removeFiles: (fileIds) =>
        Effect.forEach(
          fileIds,
          (fileId) =>
            Effect.flatMap(
              filePath(fileId),
              (folder) =>
                attempt("remove file", () => Fs.rm(folder, { recursive: true, force: true }))
            ),
          { discard: true }
        ),
      removeOrphans: (known, now) =>
        Effect.all([
          removeOrphansIn(outputs, known.tasks, now),
          removeOrphansIn(files, known.files, now),
          // The temporary files of writes that never finished name no row.
          removeOrphansIn(temporaries, () => Effect.succeed(new Set()), now)
        ]).pipe(Effect.map((counts) => counts.reduce((sum, count) => sum + count, 0)))
    }
  })
