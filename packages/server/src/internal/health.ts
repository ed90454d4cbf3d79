/**
 * `/healthz` (the process answers) and `/readyz` (the database answers, not draining), without a key:
 * they say no more, so they help nobody probe the server.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"

/** How long the database gets to answer a readiness probe (probes have short deadlines of their own). */
const databaseDeadlineMs = 2_000

const answer = (status: number, text: string) =>
  HttpServerResponse.unsafeJson({ status: text }, { status, headers: { "cache-control": "no-store" } })

export const healthy = answer(200, "ok")

/** The answer of `/readyz` while the node cannot take traffic. */
export const unavailable = answer(503, "unavailable")

/** `/readyz`: 200 when the database answers within its deadline and the node is not draining. */
export const readiness = (
  sql: SqlClient.SqlClient,
  draining: Ref.Ref<boolean>
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.gen(function*() {
    if (yield* Ref.get(draining)) return unavailable
    return yield* sql`SELECT 1`.pipe(
      Effect.disconnect,
      Effect.timeoutFail({ duration: databaseDeadlineMs, onTimeout: () => "the database did not answer in time" }),
      Effect.as(answer(200, "ready")),
      Effect.catchAll((cause) =>
        Effect.as(Effect.logWarning("not ready: the database does not answer", cause), unavailable)
      )
    )
  })
