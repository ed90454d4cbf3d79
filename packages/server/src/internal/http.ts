/** HTTP plumbing of the handlers: failures as JSON answers, bodies read within a size limit. */
import type * as Headers from "@effect/platform/Headers"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

/** An answer other than success, with its JSON body: every 4xx/5xx of the server is one of these. */
export class HttpFailure extends Data.TaggedError("HttpFailure")<{
  readonly status: number
  readonly body: Readonly<Record<string, unknown>>
  readonly headers?: Headers.Input | undefined
}> {}

export const jsonResponse = (
  status: number,
  body: unknown,
  headers?: Headers.Input | undefined
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(body, headers === undefined ? { status } : { status, headers })

export const failureResponse = (failure: HttpFailure): HttpServerResponse.HttpServerResponse =>
  jsonResponse(failure.status, failure.body, failure.headers)

/** A generic error answer: `{error, message}` plus any extra fields. */
export const fail = (
  status: number,
  error: string,
  message: string,
  extra?: { readonly body?: Readonly<Record<string, unknown>>; readonly headers?: Headers.Input }
): HttpFailure => new HttpFailure({ status, body: { error, message, ...extra?.body }, headers: extra?.headers })

/** Reads the request body, at most `maxBytes` (a chunked body counted as it arrives); a 413 closes the connection. */
export const readBody = (
  maxBytes: number
): Effect.Effect<Uint8Array, HttpFailure, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    // Made when needed: an error captures a stack trace, which costs more than reading a small body.
    const tooLarge = () =>
      fail(413, "payload_too_large", `The request body exceeds ${maxBytes} bytes`, {
        headers: { connection: "close" }
      })
    const declared = request.headers["content-length"]
    if (declared !== undefined) {
      if (!/^\d+$/.test(declared)) return yield* fail(400, "invalid_request", "Content-Length is not a number")
      if (Number(declared) > maxBytes) return yield* tooLarge()
    }
    const chunks: Array<Uint8Array> = []
    let size = 0
    yield* request.stream.pipe(
      Stream.runForEachWhile((chunk) =>
        Effect.sync(() => {
          size += chunk.byteLength
          if (size <= maxBytes) chunks.push(chunk)
          // The rest is read and dropped, so the client gets its 413 rather than a reset, up to an allowance.
          return size <= maxBytes + drainAllowance
        })
      ),
      Effect.mapError(() => fail(400, "invalid_request", "The request body could not be read"))
    )
    if (size > maxBytes) return yield* tooLarge()
    return Buffer.concat(chunks, size)
  })

/** Bytes of an oversized chunked body read and dropped before answering 413. */
const drainAllowance = 8 * 1024 * 1024

export const queryOf = (url: string): URLSearchParams => {
  const index = url.indexOf("?")
  return new URLSearchParams(index === -1 ? "" : url.slice(index + 1))
}

/** The path of the request without its query, for logs (signatures live in the query). */
export const pathOf = (url: string): string => {
  const index = url.search(/[?#]/)
  return index === -1 ? url : url.slice(0, index)
}
