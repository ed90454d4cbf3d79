/** An upload's source, checked before sending, read as ranges of chunks: never whole in memory. */
import type { PlatformError } from "@effect/platform/Error"
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Media from "../Media.js"
import { InvalidRequest } from "../PdfTransformError.js"
import * as Uploader from "../Uploader.js"

/** Chunks read from disk: small enough for constant memory, large enough for few reads. */
const readChunkBytes = 256 * 1024

/** Reading the file failed, or it changed size, while a range was sent. */
export class ReadFailure extends Error {
  readonly _tag = "ReadFailure"
}

export interface Source {
  readonly name: string
  readonly size: number
  /** `length` bytes from `offset`, as chunks; read from disk as they are pulled. */
  readonly read: (offset: number, length: number, into?: Uint8Array) => Stream.Stream<Uint8Array, ReadFailure>
}

const invalid = (problem: string) => new InvalidRequest({ operation: "upload", problem })

const chunksOf = (bytes: Uint8Array): Stream.Stream<Uint8Array> => {
  const chunks: Array<Uint8Array> = []
  for (let offset = 0; offset < bytes.byteLength; offset += readChunkBytes) {
    chunks.push(bytes.subarray(offset, offset + readChunkBytes))
  }
  return Stream.fromIterable(chunks)
}

/** Fails the stream unless it delivers exactly `length` bytes: a file that shrank mid-upload. */
const exactly = <E>(
  path: string,
  length: number,
  stream: Stream.Stream<Uint8Array, E>
): Stream.Stream<Uint8Array, E | ReadFailure> =>
  Stream.suspend(() => {
    let read = 0
    return Stream.concat(
      Stream.tap(stream, (chunk) => Effect.sync(() => void (read += chunk.byteLength))),
      Stream.fromEffect(
        Effect.suspend(() =>
          read === length ? Effect.void : Effect.fail(
            new ReadFailure(`${path} changed while it was uploaded (${read} of ${length} bytes read)`)
          )
        )
      ).pipe(Stream.drain)
    )
  })

/** Reads a range into `into` chunk by chunk, each chunk a view of it. */
const readInto = (
  fs: FileSystem.FileSystem,
  path: string,
  offset: number,
  length: number,
  into: Uint8Array
): Stream.Stream<Uint8Array, ReadFailure> =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const file = yield* fs.open(path, { flag: "r" })
    yield* file.seek(offset, "start")
    return Stream.unfoldEffect(0, (position) => {
      if (position >= length) return Effect.succeed(Option.none())
      const view = into.subarray(position, Math.min(position + readChunkBytes, length))
      return Effect.flatMap(file.read(view), (size) => {
        const read = Number(size)
        if (read === 0) {
          return Effect.fail(
            new ReadFailure(`${path} changed while it was uploaded (${position} of ${length} bytes read)`)
          )
        }
        return Effect.succeed(Option.some([view.subarray(0, read), position + read] as const))
      })
    })
  })).pipe(Stream.mapError((error) =>
    error instanceof ReadFailure ? error : new ReadFailure(`cannot read ${path}: ${error.message}`)
  ))

const fromPath = (
  fs: FileSystem.FileSystem,
  source: Uploader.UploadPath,
  name: string
): Effect.Effect<Source, InvalidRequest> =>
  Effect.gen(function*() {
    const { path } = source
    const info = yield* Effect.mapError(fs.stat(path), (error) => invalid(`cannot read ${path}: ${error.message}`))
    if (info.type !== "File") return yield* invalid(`${path} is not a file`)
    const size = Number(info.size)
    if (size === 0) return yield* invalid(`${name} is empty`)
    const head = yield* fs.stream(path, { bytesToRead: 8 }).pipe(
      Stream.runCollect,
      Effect.map((chunks) => Uint8Array.from(Chunk.toReadonlyArray(chunks).flatMap((chunk) => [...chunk]))),
      Effect.mapError((error) => invalid(`cannot read ${path}: ${error.message}`))
    )
    if (!Media.looksLikePdf(head)) return yield* invalid(`${name} is not a PDF (no %PDF- header)`)
    const failure = (error: PlatformError) => new ReadFailure(`cannot read ${path}: ${error.message}`)
    return {
      name,
      size,
      read: (offset, length, into) =>
        into !== undefined && into.byteLength >= length
          ? readInto(fs, path, offset, length, into)
          : exactly(
            path,
            length,
            fs.stream(path, { offset, bytesToRead: length, chunkSize: readChunkBytes, bufferSize: 2 }).pipe(
              Stream.mapError(failure)
            )
          )
    }
  })

/** Checks a source and answers how to read it. */
export const resolve = (
  fs: FileSystem.FileSystem,
  source: Uploader.UploadSource
): Effect.Effect<Source, InvalidRequest> => {
  const name = Uploader.nameOf(source)
  if ("path" in source) return fromPath(fs, source, name)
  const { bytes } = source
  if (bytes.byteLength === 0) return Effect.fail(invalid(`${name} is empty`))
  if (!Media.looksLikePdf(bytes)) return Effect.fail(invalid(`${name} is not a PDF (no %PDF- header)`))
  return Effect.succeed({
    name,
    size: bytes.byteLength,
    read: (offset, length) => chunksOf(bytes.subarray(offset, offset + length))
  })
}
