/** The web page and its API. Without its files the server runs on, and `/` says why. */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ApiRoutes from "./apiRoutes.js"
import type { AppContext } from "./context.js"
import * as PageRoutes from "./pageRoutes.js"
import * as SqlOverview from "./sqlOverview.js"
import * as WebAssets from "./webAssets.js"

export const routes = (context: AppContext) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const assets = yield* Effect.either(WebAssets.load())
    if (Either.isLeft(assets)) yield* Effect.logWarning(`no web page at /: ${assets.left}`)
    const readOverview = (now: number) => SqlOverview.read(now).pipe(Effect.provideService(SqlClient.SqlClient, sql))
    return HttpRouter.concat(
      PageRoutes.routes(assets, context.options.publicUrl),
      ApiRoutes.routes(context, readOverview)
    )
  })
