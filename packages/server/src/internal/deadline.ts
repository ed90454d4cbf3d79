/**
 * A request's deadline, with one timer and no extra fiber: past it the request's work is interrupted,
 * and on Node the answer is written at once, even when the interruption waits (on a query in a
 * transaction).
 */
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { HttpFailure } from "./http.js"

/** Writes `failure` on the Node response, unless the request is not Node's or its answer has begun. */
const answerNow = (request: HttpServerRequest.HttpServerRequest, failure: HttpFailure): void => {
  // Undefined when the app runs on another platform (a web handler): its answer waits for the cut.
  const response = NodeHttpServerRequest.toServerResponse(request) as
    | ReturnType<typeof NodeHttpServerRequest.toServerResponse>
    | undefined
  if (response === undefined || typeof response.writeHead !== "function" || response.headersSent) return
  const body = JSON.stringify(failure.body)
  response.writeHead(failure.status, {
    ...failure.headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body)
  })
  response.end(body)
}

/** `app`, cut at `millis`: it then fails with `late()`, whose answer has already gone on Node. */
export const withDeadline = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  millis: number,
  late: () => HttpFailure
): Effect.Effect<HttpServerResponse.HttpServerResponse, E | HttpFailure, R> =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, E | HttpFailure, R>((fiber) => {
    let state: "running" | "done" | HttpFailure = "running"
    const timer = setTimeout(() => {
      if (state !== "running") return
      state = late()
      const request = Context.getOption(fiber.currentContext, HttpServerRequest.HttpServerRequest)
      if (request._tag === "Some") answerNow(request.value, state)
      fiber.unsafeInterruptAsFork(fiber.id())
    }, millis)
    // The platform runs the app uninterruptibly: only this part can be cut.
    return Effect.interruptible(app).pipe(
      Effect.onExit(() =>
        Effect.sync(() => {
          clearTimeout(timer)
          if (state === "running") state = "done"
        })
      ),
      Effect.catchAllCause((cause): Effect.Effect<never, E | HttpFailure> =>
        typeof state === "object" && Cause.isInterruptedOnly(cause) ? Effect.fail(state) : Effect.failCause(cause)
      )
    )
  })
