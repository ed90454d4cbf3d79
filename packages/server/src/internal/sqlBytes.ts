/**
 * Where the SQL store keeps the bytes of outputs and upload parts: in their rows (the default), or
 * as files of a blob directory, the rows then holding none (an output's column NULL, a part's
 * empty). One implementation of each, so the store's statements do not branch on it.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { BlobDirectory } from "./blobDirectory.js"
import * as Tables from "./sqlTables.js"
import { StorageError } from "./store.js"

/** Ids of the rows a transaction dropped: their files go once it has committed, never before. */
export interface Dropped {
  readonly tasks: Array<string>
  readonly files: Array<string>
}

export interface Bytes {
  readonly outputColumn: (output: Uint8Array) => Uint8Array | null
  readonly partColumn: (bytes: Uint8Array) => Uint8Array
  /** Before the row that names it is written. */
  readonly writeOutput: (taskId: string, output: Uint8Array) => Effect.Effect<void, StorageError>
  readonly writePart: (fileId: string, part: number, bytes: Uint8Array) => Effect.Effect<void, StorageError>
  /** A file whose row was never written (no room, or the write failed): its bytes go. */
  readonly discardFile: (fileId: string) => Effect.Effect<void, StorageError>
  readonly readOutput: (taskId: string, column: Uint8Array | null) => Effect.Effect<Uint8Array, StorageError>
  readonly readPart: (
    fileId: string,
    part: number,
    column: Uint8Array,
    fileSize: number
  ) => Effect.Effect<Uint8Array, StorageError>
  /** After a transaction that dropped rows has committed; never fails it (leftovers go at the next start). */
  readonly removeDropped: (dropped: Dropped) => Effect.Effect<void>
  /** At start: files a crash left without a row. */
  readonly removeOrphans: Effect.Effect<void, StorageError>
}

const directoryMissing = (operation: string) =>
  new StorageError({
    operation,
    cause: new Error("the bytes are in a blob directory, and this server was started without one")
  })

const inDirectory = new Uint8Array(0)

/** Bytes in the rows. Rows written by a server with a blob directory are answered 503. */
export const inRows: Bytes = {
  outputColumn: (output) => output,
  partColumn: (bytes) => bytes,
  writeOutput: () => Effect.void,
  writePart: () => Effect.void,
  discardFile: () => Effect.void,
  readOutput: (_, column) => column === null ? Effect.fail(directoryMissing("read output")) : Effect.succeed(column),
  readPart: (_id, _part, column, fileSize) =>
    column.byteLength > 0 || fileSize === 0 ? Effect.succeed(column) : Effect.fail(directoryMissing("read file")),
  removeDropped: () => Effect.void,
  removeOrphans: Effect.void
}

/** Bytes as files of `blobs`. Rows written before it was given keep their bytes, and are read from them. */
export const inFolder = (blobs: BlobDirectory, sql: SqlClient.SqlClient): Bytes => {
  const known = (table: "pdt_tasks" | "pdt_files") => (ids: ReadonlyArray<string>) =>
    ids.length === 0 ? Effect.succeed(new Set<string>()) : Effect.mapError(
      Effect.map(
        Tables.readIds(sql`SELECT id FROM ${sql(table)} WHERE ${sql.in("id", ids)}`),
        (rows): ReadonlySet<string> => new Set(rows.map((row) => row.id))
      ),
      (cause) => new StorageError({ operation: "find the rows of blobs", cause })
    )
  return {
    outputColumn: () => null,
    partColumn: () => inDirectory,
    writeOutput: blobs.writeOutput,
    writePart: blobs.writePart,
    discardFile: (fileId) => blobs.removeFiles([fileId]),
    readOutput: (taskId, column) => column !== null ? Effect.succeed(column) : blobs.readOutput(taskId),
    readPart: (fileId, part, column, fileSize) =>
      column.byteLength > 0 || fileSize === 0 ? Effect.succeed(column) : blobs.readPart(fileId, part),
    removeDropped: (dropped) =>
      dropped.tasks.length === 0 && dropped.files.length === 0
        ? Effect.void
        : Effect.zipRight(blobs.removeOutputs(dropped.tasks), blobs.removeFiles(dropped.files)).pipe(
          Effect.catchAll((error) =>
            Effect.logWarning("files of dropped tasks or uploads left for the next start", error)
          )
        ),
    removeOrphans: Effect.gen(function*() {
      // Compared with the files' times, which are the wall clock's.
      const removed = yield* blobs.removeOrphans({ tasks: known("pdt_tasks"), files: known("pdt_files") }, Date.now())
      if (removed > 0) yield* Effect.logInfo(`removed ${removed} blobs of ${blobs.root} that no row names`)
    })
  }
}

export const joined = (chunks: ReadonlyArray<Uint8Array>): Option.Option<Uint8Array> =>
  Option.some(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
