/**
 * A platform `HttpClientResponse` over undici's response data: each body read is one promise of
 * undici's (memoised, as the platform's responses are), resumed without a fiber of its own, and
 * destroyed when the reading fiber is interrupted.
 */
import * as Cookies from "@effect/platform/Cookies"
import * as Headers from "@effect/platform/Headers"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Effect from "effect/Effect"
import * as Inspectable from "effect/Inspectable"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type * as Undici from "undici"

type Body = Undici.Dispatcher.ResponseData["body"]

/**
 * A body nobody reads holds its connection: it is destroyed once its response is garbage
 * collected (the platform's responses do the same with their abort controllers).
 */
const unread = new FinalizationRegistry<Body>((body) => {
  body.destroy()
})

/**
 * An `error` event without a listener would crash the process; the error itself reaches whoever
 * reads the body, through the promise or the stream that reads it.
 */
const reportedByTheReader = () => {}

export class UndiciResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse {
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId
  readonly status: number
  private readonly body: Body
  private readonly rawHeaders: Undici.Dispatcher.ResponseData["headers"]
  private parsedHeaders: Headers.Headers | undefined
  private textRead: Promise<string> | undefined
  private bytesRead: Promise<ArrayBuffer> | undefined
  private formRead: Promise<FormData> | undefined

  constructor(readonly request: HttpClientRequest.HttpClientRequest, data: Undici.Dispatcher.ResponseData) {
    super()
    this.status = data.statusCode
    this.body = data.body
    this.rawHeaders = data.headers
    this.body.on("error", reportedByTheReader)
    unread.register(this, this.body, this)
  }

  get headers(): Headers.Headers {
    return this.parsedHeaders ??= Headers.fromInput(this.rawHeaders)
  }

  get cookies(): Cookies.Cookies {
    const header = this.rawHeaders["set-cookie"]
    return header === undefined ? Cookies.empty : Cookies.fromSetCookie(Array.isArray(header) ? header : [header])
  }

  get remoteAddress(): Option.Option<string> {
    return Option.none()
  }

  private decodeError(cause: unknown): HttpClientError.ResponseError {
    return new HttpClientError.ResponseError({ request: this.request, response: this, reason: "Decode", cause })
  }

  /** Reads the body once through `start`; interrupting the reader destroys the body. */
  private read<A>(start: () => Promise<A>): Effect.Effect<A, HttpClientError.ResponseError> {
    return Effect.async<A, HttpClientError.ResponseError>((resume) => {
      unread.unregister(this)
      start().then(
        (value) => resume(Effect.succeed(value)),
        (cause: unknown) => resume(Effect.fail(this.decodeError(cause)))
      )
      return Effect.sync(() => {
        this.body.destroy()
      })
    })
  }

  get text(): Effect.Effect<string, HttpClientError.ResponseError> {
    return this.read(() => this.textRead ??= this.body.text())
  }

  get json(): Effect.Effect<unknown, HttpClientError.ResponseError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: (): unknown => text === "" ? null : JSON.parse(text),
        catch: (cause) => this.decodeError(cause)
      }))
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.ResponseError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: () => UrlParams.fromInput(new URLSearchParams(text)),
        catch: (cause) => this.decodeError(cause)
      }))
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.ResponseError> {
    return this.read(() => this.bytesRead ??= this.body.arrayBuffer())
  }

  get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    return this.read(() => this.formRead ??= this.body.formData() as Promise<FormData>)
  }

  get stream(): Stream.Stream<Uint8Array, HttpClientError.ResponseError> {
    return Stream.suspend(() => {
      unread.unregister(this)
      // Pulled chunk by chunk (backpressure); ending the stream early destroys the body.
      return Stream.fromAsyncIterable(this.body as AsyncIterable<Uint8Array>, (cause) => this.decodeError(cause))
    })
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpClientResponse",
      request: this.request.toJSON(),
      status: this.status
    })
  }
}
