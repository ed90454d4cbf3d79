/**
 * The HTTP application of the reference server: the routes, and the one place where failures
 * become answers. The handlers live by concern in `taskRoutes.ts`, `fileRoutes.ts` and
 * `uploadRoutes.ts`.
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as SqlClient from "@effect/sql/SqlClient"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import * as Contract from "@pdf-transform/core/Contract"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import * as BlobDirectory from "./blobDirectory.js"
import type { AppContext } from "./context.js"
import { makeContext } from "./context.js"
import { withDeadline } from "./deadline.js"
import * as Dispatcher from "./dispatcher.js"
import { fetchFile, upload } from "./fileRoutes.js"
import * as Health from "./health.js"
import { fail, failureResponse, jsonResponse, pathOf } from "./http.js"
import * as MetricsRefresh from "./metricsRefresh.js"
import * as Observe from "./observe.js"
import { openApiDocument } from "./openapi.js"
import type { ResolvedOptions } from "./options.js"
import * as Overview from "./sqlOverview.js"
import * as SqlStore from "./sqlStore.js"
import type { StorageError, Store } from "./store.js"
import { download, result, submit, taskNotFound } from "./taskRoutes.js"
import { init, putPart, uploadUrl } from "./uploadRoutes.js"
import * as Web from "./web.js"

/** Everything the application holds; exposed to tests through `makeApp`'s second result. */
export interface AppState {
  readonly store: Store
  /** The cluster's figures the storage keeps, in the metrics: read again if older than `metricsRefreshMs`. */
  readonly refreshMetrics: Effect.Effect<void>
  /** Takes the node out of service and waits for its conversions (`Server.Service.drain`); once. */
  readonly drain: Effect.Effect<void>
}

const maxPathLength = 2048

const router = (context: AppContext, sql: SqlClient.SqlClient) => {
  const v1 = Contract.versionPrefix
  const resultRoute = (path: string) => `${v1}${path.replace("{taskId}", ":taskId")}` as `/${string}`
  return HttpRouter.empty.pipe(
    HttpRouter.get("/healthz", Effect.succeed(Health.healthy)),
    HttpRouter.get("/readyz", Health.readiness(sql, context.draining)),
    HttpRouter.post(`${v1}${Contract.paths.markdownSubmit}`, submit(context, "markdown")),
    HttpRouter.post(`${v1}${Contract.paths.epubSubmit}`, submit(context, "epub")),
    HttpRouter.get(resultRoute(Contract.paths.markdownResult), result(context, "markdown")),
    HttpRouter.get(resultRoute(Contract.paths.epubResult), result(context, "epub")),
    HttpRouter.post(`${v1}/files`, upload(context)),
    HttpRouter.get(`${v1}/files/:fileId`, fetchFile(context)),
    HttpRouter.get(`${v1}/downloads/:taskId`, download(context)),
    HttpRouter.post(`${v1}/uploads/init`, init(context)),
    HttpRouter.put(`${v1}/uploads/:uploadId/parts/:partNumber`, putPart(context)),
    HttpRouter.get(`${v1}/uploads/:uploadId/url`, uploadUrl(context)),
    HttpRouter.get(`${v1}/openapi.json`, Effect.as(context.authenticate, jsonResponse(200, openApiDocument)))
  )
}

const resultPrefix = /^\/v1\/pdf-transform-(markdown|epub)\/result\//

/**
 * The application on the store the `SqlClient` holds, with this node's dispatcher: tasks the
 * store still has processing (left by a server that stopped or died) are converted again.
 */
export const makeApp = (
  options: ResolvedOptions
): Effect.Effect<
  { readonly app: HttpApp.Default<never, never>; readonly state: AppState },
  StorageError,
  ConverterModule.Converter | Scope.Scope | SqlClient.SqlClient
> =>
  Effect.gen(function*() {
    const blobs = options.blobDir === undefined ? undefined : yield* BlobDirectory.make(options.blobDir)
    const store = yield* SqlStore.make({
      maxTasks: options.maxTasks,
      maxOutputBytes: options.maxStoredOutputBytes,
      maxFiles: options.uploads.maxFiles,
      maxFileBytes: options.uploads.maxTotalBytes
    }, blobs)
    const context = yield* makeContext(options, store)
    const drainDispatcher = yield* Dispatcher.start(context)
    const drain = Effect.flatMap(
      Ref.getAndSet(context.draining, true),
      (already) => already ? Effect.void : drainDispatcher(options.drainTimeoutMs)
    )
    const web = options.webPage ? yield* Web.routes(context) : HttpRouter.empty
    const sql = yield* SqlClient.SqlClient
    const routed = yield* HttpRouter.toHttpApp(
      options.metrics || options.requestLog ?
        HttpRouter.concat(router(context, sql), web).pipe(HttpRouter.use(Observe.noteRoute)) :
        HttpRouter.concat(router(context, sql), web)
    )
    const deadlineSeconds = Math.ceil(options.requestTimeoutMs / 1000)
    const late = () =>
      fail(503, "request_timeout", `The server could not answer within ${deadlineSeconds} s; retry later`, {
        headers: { "retry-after": "5" }
      })

    const app: HttpApp.Default<never, never> = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = pathOf(request.url)
      // The router decodes the path with decodeURI, which throws on a malformed escape.
      try {
        decodeURIComponent(path)
      } catch {
        yield* context.authenticate
        return yield* fail(400, "invalid_request", "The request path is not valid percent-encoding")
      }
      if (path.length > maxPathLength) {
        yield* context.authenticate
        return yield* fail(414, "uri_too_long", "The request path is too long")
      }
      return yield* routed
    }).pipe(
      (answer) => withDeadline(answer, options.requestTimeoutMs, late),
      Effect.catchTag("RouteNotFound", ({ request }) =>
        Effect.as(
          context.authenticate,
          // A task id the router cannot match (an encoded slash, too long) is an unknown task.
          resultPrefix.test(request.url)
            ? failureResponse(taskNotFound())
            : jsonResponse(404, { error: "not_found", message: "No such endpoint (see /v1/openapi.json)" })
        )),
      Effect.catchTag("HttpFailure", (failure) => Effect.succeed(failureResponse(failure))),
      Effect.catchTag("StorageError", (error) =>
        Effect.as(
          Effect.logError("storage failed", error.cause).pipe(
            Effect.annotateLogs({ operation: error.operation }),
            Effect.zipRight(context.metrics.storageFailed(error.operation))
          ),
          failureResponse(
            fail(503, "storage_unavailable", "The server's storage failed; retry later", {
              headers: { "retry-after": "5" }
            })
          )
        )),
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause)
          : Effect.as(
            Effect.logError("request failed", cause),
            jsonResponse(500, { error: "internal_error", message: "The server failed to answer this request" })
          )
      ),
      Effect.catchAllCause(() => Effect.succeed(HttpServerResponse.empty({ status: 499 })))
    )

    const refreshMetrics = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const states = yield* Overview.states(now).pipe(Effect.provideService(SqlClient.SqlClient, sql))
      const byState = { processing: 0, completed: 0, failed: 0 }
      let claimed = 0
      for (const row of states) {
        byState[row.state] += row.n
        if (row.state === "processing") claimed += row.running
      }
      yield* context.metrics.stored(byState, byState.processing - claimed)
    }).pipe(
      Effect.catchAll((error) =>
        Effect.zipRight(context.metrics.storageFailed(error.operation), Effect.logWarning("metrics not read", error))
      )
    )
    const refresher = options.metrics
      ? yield* MetricsRefresh.start(refreshMetrics, options.metricsRefreshMs)
      : undefined
    return {
      app: options.metrics || options.requestLog ?
        Observe.observed(app, { recorder: options.metrics ? context.metrics : undefined, log: options.requestLog }) :
        app,
      state: { store, refreshMetrics: refresher?.fresh ?? Effect.void, drain }
    }
  })
