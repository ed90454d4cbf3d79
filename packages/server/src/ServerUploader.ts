/**
 * The `Uploader` of core for the reference server: `POST {baseUrl}/files` with the PDF as the
 * body, answering the URL to submit as `pdfURL`. Errors are core's typed errors.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { HttpUrl, UnauthenticatedBody } from "@pdf-transform/core/Contract"
import * as Media from "@pdf-transform/core/Media"
import {
  InvalidRequest,
  InvalidResponse,
  TransportError,
  Unauthenticated,
  UnexpectedResponse
} from "@pdf-transform/core/PdfTransformError"
import * as Uploader from "@pdf-transform/core/Uploader"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"

/**
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** The server's base URL, ending in `/v1` (as given to the client). */
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  /** Time limit of one upload, body included (default 120 s). */
  readonly timeout?: Duration.DurationInput | undefined
}

const UploadedFile = Schema.Struct({ url: HttpUrl })
const decodeUploaded = Schema.decodeUnknownEither(UploadedFile)
const decodeUnauthenticated = Schema.decodeUnknownEither(UnauthenticatedBody)

const excerptOf = (text: string): string => text.slice(0, 500)

/** Error codes of a connection that never reached the server: nothing was sent. */
const notSentCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])

const causeCode = (cause: unknown): string | undefined => {
  let current: unknown = cause
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    if ("code" in current && typeof current.code === "string") return current.code
    current = "cause" in current ? current.cause : undefined
  }
  return undefined
}

const interpret = (
  response: HttpClientResponse.HttpClientResponse,
  text: string
): Effect.Effect<string, Uploader.UploadError> => {
  const contentType = response.headers["content-type"]
  const parsed = Either.try(() => JSON.parse(text) as unknown)
  if (response.status === 200 || response.status === 201) {
    const decoded = Either.flatMap(
      Either.mapLeft(parsed, () => "the body is not JSON"),
      (json) => Either.mapLeft(decodeUploaded(json), (error) => ParseResult.TreeFormatter.formatErrorSync(error))
    )
    return Either.match(decoded, {
      onLeft: (problem) =>
        Effect.fail(
          new InvalidResponse({ operation: "upload", status: response.status, problem, bodyExcerpt: excerptOf(text) })
        ),
      onRight: ({ url }) => Effect.succeed(url)
    })
  }
  if (response.status === 401) {
    const body = Either.flatMap(Either.mapLeft(parsed, () => undefined), (json) => decodeUnauthenticated(json))
    const challenge = response.headers["www-authenticate"]
    return Effect.fail(
      new Unauthenticated({
        operation: "upload",
        message: Either.isRight(body) ? body.right.message : "The server refused the credential",
        resolution: Either.isRight(body) ? body.right.resolution : "Check the API key",
        ...(challenge === undefined ? {} : { challenge })
      })
    )
  }
  return Effect.fail(
    new UnexpectedResponse({
      operation: "upload",
      status: response.status,
      ...(contentType === undefined ? {} : { contentType }),
      bodyExcerpt: excerptOf(text)
    })
  )
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<Uploader.Service, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/files`
    const timeout = Duration.decode(options.timeout ?? Duration.seconds(120))

    const upload = Effect.fn("ServerUploader.upload")(function*(file: Uploader.UploadFile) {
      if (file.bytes.byteLength === 0) {
        return yield* new InvalidRequest({ operation: "upload", problem: `${file.name} is empty` })
      }
      if (!Media.looksLikePdf(file.bytes)) {
        return yield* new InvalidRequest({
          operation: "upload",
          problem: `${file.name} is not a PDF (no %PDF- header)`
        })
      }
      const request = HttpClientRequest.post(endpoint).pipe(
        HttpClientRequest.bearerToken(Redacted.value(options.apiKey)),
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyUint8Array(file.bytes, Media.pdfContentType)
      )
      const exchange = Effect.flatMap(
        client.execute(request),
        (response) => Effect.map(response.text, (text) => ({ response, text }))
      ).pipe(
        Effect.scoped,
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () =>
            new TransportError({
              operation: "upload",
              reason: `no answer within ${Duration.format(timeout)}`,
              sent: true
            })
        }),
        Effect.catchTags({
          RequestError: (error) =>
            Effect.fail(
              new TransportError({
                operation: "upload",
                reason: error.message,
                sent: !notSentCodes.has(causeCode(error.cause) ?? ""),
                cause: error.cause
              })
            ),
          ResponseError: (error) =>
            Effect.fail(
              new TransportError({ operation: "upload", reason: error.message, sent: true, cause: error.cause })
            )
        })
      )
      const { response, text } = yield* exchange
      return yield* interpret(response, text)
    })

    return { upload }
  })

/**
 * The reference server's `Uploader` for core's tag.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<Uploader.Uploader, never, HttpClient.HttpClient> =>
  Layer.effect(Uploader.Uploader, make(options))
