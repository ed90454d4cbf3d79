/**
 * A request's deadline (internal/deadline.ts): past it the answer goes at once, even while the
 * request's work cannot be interrupted yet (a query inside a transaction).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Layer } from "effect"
import { withDeadline } from "../src/internal/deadline.js"
import { fail, failureResponse } from "../src/internal/http.js"

describe("request deadline", () => {
  it.live(
    "answers 503 at the deadline while the work is uninterruptible, then lets the work end",
    () =>
      Effect.gen(function*() {
        const release = yield* Deferred.make<void>()
        const ended = yield* Deferred.make<void>()
        const work = Effect.uninterruptible(Deferred.await(release)).pipe(
          Effect.ensuring(Deferred.succeed(ended, undefined)),
          Effect.as(HttpServerResponse.text("too late"))
        )
        const late = () => fail(503, "request_timeout", "late", { headers: { "retry-after": "5" } })
        const app = withDeadline(work, 200, late).pipe(
          Effect.catchTag("HttpFailure", (failure) => Effect.succeed(failureResponse(failure)))
        )
        const context = yield* Layer.build(NodeHttpServer.layerTest)
        yield* HttpServer.serveEffect(app).pipe(Effect.provide(context))
        const client = yield* HttpClient.HttpClient.pipe(Effect.provide(context))
        const response = yield* client.get("/")
        assert.strictEqual(response.status, 503)
        assert.strictEqual(response.headers["retry-after"], "5")
        assert.deepStrictEqual(yield* response.json, { error: "request_timeout", message: "late" })
        assert.isFalse(yield* Deferred.isDone(ended))
        yield* Deferred.succeed(release, undefined)
        yield* Deferred.await(ended)
      }).pipe(Effect.scoped),
    20_000
  )
})
