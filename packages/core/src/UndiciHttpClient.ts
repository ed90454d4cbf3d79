/**
 * An `HttpClient` straight on undici's `Dispatcher.request`: the recommended HTTP layer for the
 * client on Node.
 *
 * `NodeHttpClient.layerUndici` from `@effect/platform-node` runs every request through
 * `HttpClient.make`, which costs five to six times undici's own `request` on loopback (a span
 * that records every request and response header, a URL rebuilt per request, a wrapper and a
 * finalization entry per response, a fiber to read each body). This layer keeps what the client
 * relies on and drops the rest:
 *
 * - a span per request (`http.client GET`, the name `HttpClient.withSpanNameGenerator` gives),
 *   with the method, the server, the path and the status, and a W3C `traceparent` header unless
 *   `HttpClient.withTracerPropagation(false)`; `HttpClient.withTracerDisabledWhen` and a disabled
 *   tracer turn it off. Headers and the query are not recorded: a signed download URL carries its
 *   signature in the query.
 * - interruption aborts the request, or destroys the body being read; a response whose body is
 *   never read releases its connection when it is garbage collected.
 * - transport failures are `RequestError`s with reason `Transport` and undici's error (its `code`
 *   included) as the cause; a body cut short is a `ResponseError` with reason `Decode`.
 *
 * A sub-path of its own (`@pdf-transform/core/UndiciHttpClient`), out of the package's index: it
 * loads undici and `node:stream`, which the rest of the package does without.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as Stream from "effect/Stream"
import type * as Tracer from "effect/Tracer"
import { Readable } from "node:stream"
import type * as Undici from "undici"
import { Agent } from "undici"
import { UndiciResponse } from "./internal/undiciResponse.js"

/**
 * An `HttpClient` over a dispatcher the caller owns (an undici `Agent`, `Pool` or `MockAgent`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (dispatcher: Undici.Dispatcher): HttpClient.HttpClient =>
  HttpClient.makeWith<never, never, HttpClientError.HttpClientError, never>(
    (request) => Effect.flatMap(request, (r) => execute(dispatcher, r)),
    Effect.succeed
  )

/**
 * The client over its own undici `Agent` (keep-alive connections), closed with the layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<HttpClient.HttpClient> = Layer.scoped(
  HttpClient.HttpClient,
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => new Agent()),
      (agent) => Effect.promise(() => agent.destroy())
    ),
    make
  )
)

// Timeouts are the caller's (the client's own time limits), as in `NodeHttpClient`.
const headersTimeout = 60 * 60 * 1000

const transportError = (request: HttpClientRequest.HttpClientRequest, cause: unknown) =>
  new HttpClientError.RequestError({ request, reason: "Transport", cause })

const execute = (
  dispatcher: Undici.Dispatcher,
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<UndiciResponse, HttpClientError.HttpClientError> =>
  Effect.withFiberRuntime((fiber) => {
    const url = UrlParams.makeUrl(request.url, request.urlParams, request.hash)
    if (url._tag === "Left") {
      return Effect.fail(new HttpClientError.RequestError({ request, reason: "InvalidUrl", cause: url.left }))
    }
    const traced = fiber.getFiberRef(FiberRef.currentTracerEnabled) &&
      !fiber.getFiberRef(HttpClient.currentTracerDisabledWhen)(request)
    if (!traced) return send(dispatcher, request, url.right, fiber)
    const name = Context.get(fiber.currentContext, HttpClient.SpanNameGenerator)(request)
    return Effect.useSpan(name, {
      kind: "client",
      captureStackTrace: false,
      attributes: {
        "http.request.method": request.method,
        "server.address": url.right.origin,
        "url.path": url.right.pathname
      }
    }, (span) => {
      const sent = fiber.getFiberRef(HttpClient.currentTracerPropagation)
        ? HttpClientRequest.setHeader(request, "traceparent", traceparent(span))
        : request
      return Effect.tap(
        Effect.withParentSpan(send(dispatcher, sent, url.right, fiber), span),
        (response) => span.attribute("http.response.status_code", response.status)
      )
    })
  })

const traceparent = (span: Tracer.Span): string => `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`

const send = (
  dispatcher: Undici.Dispatcher,
  request: HttpClientRequest.HttpClientRequest,
  url: URL,
  fiber: Fiber.RuntimeFiber<unknown, unknown>
): Effect.Effect<UndiciResponse, HttpClientError.HttpClientError> =>
  Effect.async<UndiciResponse, HttpClientError.HttpClientError>((resume, signal) => {
    let body: RequestBody
    try {
      body = bodyOf(request, fiber)
    } catch (cause) {
      resume(Effect.fail(new HttpClientError.RequestError({ request, reason: "Encode", cause })))
      return
    }
    dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method,
      headers: request.headers,
      body,
      signal,
      headersTimeout,
      bodyTimeout: 0
    }, (error, data) => {
      if (error !== null) resume(Effect.fail(transportError(request, error)))
      else resume(Effect.succeed(new UndiciResponse(request, data)))
    })
  })

type RequestBody = Exclude<Undici.Dispatcher.RequestOptions["body"], undefined>

const bodyOf = (
  request: HttpClientRequest.HttpClientRequest,
  fiber: Fiber.RuntimeFiber<unknown, unknown>
): RequestBody => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return null
    case "Uint8Array":
      return body.body
    case "Raw":
      if (typeof body.body === "string" || body.body instanceof Uint8Array || body.body instanceof Readable) {
        return body.body
      }
      throw new TypeError("a raw body must be a string, a Uint8Array or a Readable")
    case "FormData":
      return body.formData as unknown as Undici.FormData
    case "Stream":
      // Pulled as undici writes; destroying the readable (an aborted request) interrupts the stream.
      return Readable.from(
        Stream.toAsyncIterableRuntime(
          body.stream,
          Runtime.make({
            context: fiber.currentContext,
            fiberRefs: fiber.getFiberRefs(),
            runtimeFlags: Runtime.defaultRuntime.runtimeFlags
          })
        ),
        { objectMode: false }
      )
  }
}
