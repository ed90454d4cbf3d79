/** A request's body as the fake records it (JSON, else text, else `undefined`), and as bytes for uploads. */
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const textEncoder = new TextEncoder()
const textDecoder = new TextDecoder()

const parseBodyText = (text: string): unknown => {
  if (text.length === 0) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export const readBody = (
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<unknown, HttpClientError.RequestError> => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(undefined)
    case "Uint8Array":
      return Effect.succeed(parseBodyText(textDecoder.decode(body.body)))
    case "Raw":
      if (typeof body.body === "string") return Effect.succeed(parseBodyText(body.body))
      if (body.body instanceof Uint8Array) return Effect.succeed(parseBodyText(textDecoder.decode(body.body)))
      return Effect.succeed(body.body)
    case "FormData":
      return Effect.succeed(body.formData)
    case "Stream":
      return body.stream.pipe(
        Stream.runFold([] as Array<Uint8Array>, (chunks, chunk) => {
          chunks.push(chunk)
          return chunks
        }),
        Effect.map((chunks) => parseBodyText(Buffer.concat(chunks).toString("utf8"))),
        Effect.mapError((cause) =>
          new HttpClientError.RequestError({
            request,
            reason: "Encode",
            cause,
            description: "request body stream failed"
          })
        )
      )
  }
}

/** The request's body as bytes; with `upTo`, stops pulling once that many bytes arrived. */
export const bodyBytes = (
  request: HttpClientRequest.HttpClientRequest,
  upTo?: number
): Effect.Effect<Uint8Array, HttpClientError.RequestError> => {
  const body = request.body
  switch (body._tag) {
    case "Uint8Array":
      return Effect.succeed(body.body)
    case "Raw":
      return Effect.succeed(typeof body.body === "string" ? textEncoder.encode(body.body) : new Uint8Array(0))
    case "Stream": {
      let received = 0
      const stream = Stream.tap(body.stream, (chunk) => Effect.sync(() => void (received += chunk.byteLength)))
      return (upTo === undefined ? stream : Stream.takeUntil(stream, () => received >= upTo)).pipe(
        Stream.runCollect,
        Effect.map((chunks) => Buffer.concat(Chunk.toReadonlyArray(chunks))),
        Effect.mapError((cause) => new HttpClientError.RequestError({ request, reason: "Encode", cause }))
      )
    }
    default:
      return Effect.succeed(new Uint8Array(0))
  }
}
