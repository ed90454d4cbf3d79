/**
 * The server's Node listener: it answers 503 (200 at `/healthz`) while the application is built, so no
 * request waits on a socket nobody reads; at shutdown, busy connections are cut after the grace period.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import * as Http from "node:http"

type Handler = (request: Http.IncomingMessage, response: Http.ServerResponse) => void

export interface Listener {
  readonly node: Http.Server
  /** Answers with `app` from now on, in the current scope; closing the scope drains connections within `graceMs`. */
  readonly serve: (app: HttpApp.Default<never, never>, graceMs: number) => Effect.Effect<void, never, Scope.Scope>
}

const starting: Handler = (request, response) => {
  const healthz = request.url === "/healthz" || request.url?.startsWith("/healthz?") === true
  const body = JSON.stringify(
    healthz ? { status: "ok" } : { error: "starting", message: "The server is starting; retry shortly" }
  )
  response.writeHead(healthz ? 200 : 503, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    ...(healthz ? {} : { "retry-after": "1" })
  })
  response.end(body)
}

/** A Node server that takes `requestTimeoutMs` at most to receive a request, and answers 503 until served. */
export const make = (requestTimeoutMs: number): Listener => {
  let handler: Handler = starting
  const node = Http.createServer({
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(30_000, requestTimeoutMs),
    keepAliveTimeout: 5_000
  })
  node.on("request", (request, response) => handler(request, response))
  const serve = (app: HttpApp.Default<never, never>, graceMs: number) =>
    Effect.gen(function*() {
      const closing = yield* Ref.make(false)
      // While shutting down, every answer closes its connection so keep-alive clients move on.
      const answer = Effect.flatMap(app, (response) =>
        Effect.map(
          Ref.get(closing),
          (closing) => closing ? HttpServerResponse.setHeader(response, "connection", "close") : response
        ))
      handler = yield* NodeHttpServer.makeHandler(answer)
      // Runs before Node's server.close (finalizers run in reverse).
      yield* Effect.addFinalizer(() =>
        Effect.zipRight(
          Ref.set(closing, true),
          Effect.sync(() => {
            node.closeIdleConnections()
            const timer = setTimeout(() => node.closeAllConnections(), graceMs)
            timer.unref()
            node.once("close", () => clearTimeout(timer))
          })
        )
      )
    })
  return { node, serve }
}
