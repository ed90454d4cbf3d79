/** A job's journal key: a digest of its source, format and request options (defaults filled), however spelled. */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Contract from "@pdf-transform/core/Contract"
import { InvalidRequest } from "@pdf-transform/core/PdfTransformError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { createHash } from "node:crypto"
import { SourceUnreadable } from "../BatchError.js"
import type * as Job from "../Job.js"

/** Where a job's PDF comes from, resolved. */
export type Resolved =
  | { readonly _tag: "Remote"; readonly url: string }
  | { readonly _tag: "File"; readonly path: string }
  | { readonly _tag: "Bytes"; readonly bytes: Uint8Array }

export interface Identified {
  readonly key: string
  readonly source: Resolved
  /** The request's options with defaults filled (without `pdfURL`). */
  readonly request: Job.RequestOptions
}

/** Stands in for the `pdfURL` while the options are validated; never sent. */
const placeholderUrl = "https://placeholder.invalid/document.pdf"

const readChunk = 1024 * 1024

const sha256 = () => createHash("sha256")

/** The source as a person reads it. */
export const display = (job: Job.Job, index: number): string => {
  const source = job.source
  if (typeof source === "string") return source
  if (source instanceof URL) return source.protocol === "file:" ? decodeURIComponent(source.pathname) : source.href
  return job.outputName ?? `bytes #${index + 1}`
}

const resolve = (source: Job.Source): Effect.Effect<Resolved, InvalidRequest, Path.Path> => {
  if (typeof source === "string") return Effect.succeed({ _tag: "File", path: source })
  if (source instanceof Uint8Array) return Effect.succeed({ _tag: "Bytes", bytes: source })
  if (source.protocol === "http:" || source.protocol === "https:") {
    return Effect.succeed({ _tag: "Remote", url: source.href })
  }
  if (source.protocol === "file:") {
    return Effect.flatMap(Path.Path, (paths) =>
      Effect.map(
        Effect.orDie(paths.fromFileUrl(source)),
        (path): Resolved => ({ _tag: "File", path })
      ))
  }
  return Effect.fail(
    new InvalidRequest({ operation: "submit", problem: `unsupported source ${source.protocol} URL: ${source.href}` })
  )
}

const decodeRequest = Schema.decodeUnknownEither(Contract.ConversionRequest)
const encodeRequest = Schema.encodeSync(Contract.ConversionRequest)

const validateNow = (request: Job.RequestOptions | undefined): Either.Either<Job.RequestOptions, InvalidRequest> =>
  Either.match(decodeRequest({ ...request, pdfURL: placeholderUrl }), {
    onLeft: (error) =>
      Either.left(
        new InvalidRequest({ operation: "submit", problem: ParseResult.TreeFormatter.formatErrorSync(error) })
      ),
    onRight: (decoded) => {
      const { pdfURL: _pdfURL, ...options } = encodeRequest(decoded)
      return Either.right(options)
    }
  })

/** Jobs without options (most of a batch) all validate to the defaults: decoded once. */
let withoutOptions: Either.Either<Job.RequestOptions, InvalidRequest> | undefined

const validate = (request: Job.RequestOptions | undefined): Either.Either<Job.RequestOptions, InvalidRequest> =>
  request === undefined ? (withoutOptions ??= validateNow(undefined)) : validateNow(request)

/** A digest of the PDF: streamed from disk in constant memory, or of the bytes, or the URL itself. */
const digest = (source: Resolved): Effect.Effect<string, SourceUnreadable, FileSystem.FileSystem> => {
  switch (source._tag) {
    case "Remote":
      return Effect.succeed(`url:${source.url}`)
    case "Bytes":
      return Effect.sync(() => `sha256:${sha256().update(source.bytes).digest("hex")}`)
    case "File":
      return Effect.flatMap(FileSystem.FileSystem, (fs) =>
        Effect.suspend(() => {
          const hash = sha256()
          return fs.stream(source.path, { chunkSize: readChunk }).pipe(
            Stream.runForEach((chunk) => Effect.sync(() => hash.update(chunk))),
            Effect.map(() => `sha256:${hash.digest("hex")}`),
            Effect.mapError((cause) => new SourceUnreadable({ path: source.path, reason: cause.message }))
          )
        }))
  }
}

/** Validates the job and computes its key. */
export const identify = (
  job: Job.Job
): Effect.Effect<Identified, InvalidRequest | SourceUnreadable, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const request = yield* validate(job.request)
    const source = yield* resolve(job.source)
    const sourceDigest = yield* digest(source)
    const key = sha256()
      .update(JSON.stringify(["pdf-transform/batch/1", sourceDigest, job.format, request]))
      .digest("hex")
      .slice(0, 40)
    return { key, source, request }
  })
