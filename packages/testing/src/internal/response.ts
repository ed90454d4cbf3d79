/** A light `HttpClientResponse`: the body in memory as chunks, read under the reader's Clock. */
import * as Cookies from "@effect/platform/Cookies"
import * as Headers from "@effect/platform/Headers"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as IncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Effect from "effect/Effect"
import * as Inspectable from "effect/Inspectable"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

const textDecoder = new TextDecoder()

export class FakeResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse {
  readonly [IncomingMessage.TypeId]: IncomingMessage.TypeId = IncomingMessage.TypeId
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId
  readonly headers: Headers.Headers
  readonly cookies: Cookies.Cookies = Cookies.empty
  readonly remoteAddress: Option.Option<string> = Option.none()

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    readonly status: number,
    headers: Readonly<Record<string, string>>,
    /** The body as delivered, chunk by chunk. */
    private readonly chunks: ReadonlyArray<Uint8Array>,
    /** Clock milliseconds before the first byte of the body arrives. */
    private readonly delayMs: number | undefined
  ) {
    super()
    this.headers = Headers.fromInput(headers)
  }

  private get wait(): Effect.Effect<void> {
    return this.delayMs === undefined ? Effect.void : Effect.sleep(this.delayMs)
  }

  get stream(): Stream.Stream<Uint8Array, HttpClientError.ResponseError> {
    const body = Stream.fromIterable(this.chunks)
    return this.delayMs === undefined ? body : Stream.concat(Stream.drain(Stream.fromEffect(this.wait)), body)
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.ResponseError> {
    return Effect.map(this.wait, () => {
      const total = this.chunks.reduce((n, chunk) => n + chunk.length, 0)
      const out = new Uint8Array(total)
      let offset = 0
      for (const chunk of this.chunks) {
        out.set(chunk, offset)
        offset += chunk.length
      }
      return out.buffer
    })
  }

  get text(): Effect.Effect<string, HttpClientError.ResponseError> {
    return Effect.map(this.arrayBuffer, (buffer) => textDecoder.decode(buffer))
  }

  get json(): Effect.Effect<unknown, HttpClientError.ResponseError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: (): unknown => JSON.parse(text),
        catch: (cause) =>
          new HttpClientError.ResponseError({ request: this.request, response: this, reason: "Decode", cause })
      }))
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.ResponseError> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }

  get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    return Effect.fail(
      new HttpClientError.ResponseError({
        request: this.request,
        response: this,
        reason: "Decode",
        description: "the fake server never answers with form data"
      })
    )
  }

  toJSON(): unknown {
    return IncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpClientResponse",
      request: this.request.toJSON(),
      status: this.status
    })
  }
}
