/** The `Uploader` of the reference server's single-request upload, `POST {baseUrl}/files`.
 * @since 0.1.0 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { HttpUrl } from "./Contract.js"
import * as Exchange from "./internal/exchange.js"
import * as PlatformUploader from "./internal/platformUploader.js"
import { type ReadFailure, resolve } from "./internal/uploadSource.js"
import * as Media from "./Media.js"
import { InvalidRequest, TransportError } from "./PdfTransformError.js"
import * as Uploader from "./Uploader.js"

/** @since 0.1.0
 * @category options */
export interface Options {
  /** The server's base URL, ending in `/v1` (as given to the client). */
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  /** Time limit of one upload, body included (default 120 s). */
  readonly timeout?: Duration.DurationInput | undefined
  /** The server's upload limit in bytes: a larger file fails with `UploadTooLarge` unsent. */
  readonly maxBytes?: number | undefined
}

/** Every default of this uploader, with its reason.
 * @since 0.1.0
 * @category constants */
export const defaults = {
  /** A whole file in one request: long enough for a large file on a modest link. */
  timeout: Duration.seconds(120)
} as const

const UploadedFile = Schema.parseJson(Schema.Struct({ url: HttpUrl }))

/** Builds the single-request uploader; the `HttpClient` and the `FileSystem` (for paths) are resolved here.
 * @since 0.1.0
 * @category constructors */
export const make = (
  options: Options
): Effect.Effect<Uploader.Service, never, HttpClient.HttpClient | FileSystem.FileSystem> =>
  PlatformUploader.make((client, fs) => {
    const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/files`
    const timeout = Duration.decode(options.timeout ?? defaults.timeout)
    const send = Exchange.send(client, timeout)

    return (source: Uploader.UploadSource, report: (progress: Uploader.Progress) => Effect.Effect<void>) =>
      Effect.gen(function*() {
        const file = yield* resolve(fs, source)
        yield* Effect.annotateCurrentSpan({ name: file.name, bytes: file.size })
        const tooLarge = new Uploader.UploadTooLarge({
          name: file.name,
          bytes: file.size,
          ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes })
        })
        if (options.maxBytes !== undefined && file.size > options.maxBytes) return yield* tooLarge
        // The body is read by the HTTP layer's fiber; a read failure is kept for this one.
        const readFailure = yield* Ref.make(Option.none<ReadFailure>())
        const body = file.read(0, file.size).pipe(
          Stream.mapAccumEffect(0, (sent, chunk) => {
            const total = sent + chunk.byteLength
            return Effect.as(report({ _tag: "Progress", sent: total, total: file.size }), [total, chunk] as const)
          }),
          Stream.tapError((error) => Ref.set(readFailure, Option.some(error)))
        )
        const request = HttpClientRequest.post(endpoint).pipe(
          HttpClientRequest.bearerToken(options.apiKey),
          HttpClientRequest.acceptJson,
          HttpClientRequest.bodyStream(body, { contentType: Media.pdfContentType, contentLength: file.size })
        )
        const answer = yield* Effect.catchAll(
          send(request),
          (failure) =>
            Effect.flatMap(Ref.get(readFailure), (read): Effect.Effect<never, InvalidRequest | TransportError> => {
              if (Option.isSome(read)) {
                return Effect.fail(new InvalidRequest({ operation: "upload", problem: read.value.message }))
              }
              if (failure._tag === "Malformed") {
                return Effect.fail(new InvalidRequest({ operation: "upload", problem: failure.reason }))
              }
              return Effect.fail(
                new TransportError({
                  operation: "upload",
                  reason: failure.reason,
                  sent: failure._tag === "Lost",
                  cause: failure.cause
                })
              )
            })
        )
        if (answer.status === 200 || answer.status === 201) {
          const decoded = Exchange.decode(UploadedFile, "upload", answer)
          if (Either.isLeft(decoded)) {
            return yield* decoded.left
          }
          return { _tag: "Uploaded" as const, url: decoded.right.url, bytes: file.size }
        }
        if (answer.status === 401) {
          return yield* Exchange.unauthenticated("upload", answer)
        }
        if (answer.status === 413) {
          return yield* tooLarge
        }
        return yield* Exchange.unexpected("upload", answer)
      }).pipe(Effect.withSpan("ServerUploader.upload"))
  })

/** The reference server's `Uploader` for core's tag.
 * @since 0.1.0
 * @category layers */
export const layer = (
  options: Options
): Layer.Layer<Uploader.Uploader, never, HttpClient.HttpClient | FileSystem.FileSystem> =>
  Layer.effect(Uploader.Uploader, make(options))
