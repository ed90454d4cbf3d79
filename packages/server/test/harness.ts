/**
 * Serves the application on a real socket (127.0.0.1, free port) inside the calling test's scope,
 * so the handlers run with the test's services (TestClock included); and the requests the tests
 * make of it.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as HttpServer from "@effect/platform/HttpServer"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { assert } from "@effect/vitest"
import { Converter } from "@pdf-transform/converter/Converter"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import * as Contract from "@pdf-transform/core/Contract"
import { Context, Effect, Layer, Redacted, Schema } from "effect"
import type { Scope } from "effect"
import type { Resolve } from "../src/internal/addresses.js"
import * as InternalApp from "../src/internal/app.js"
import * as InternalOptions from "../src/internal/options.js"
import type { AppOptions } from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import { fakePdf, raw } from "./utils.js"
import type { RawRequest, RawResponse } from "./utils.js"

export const key = "test-key-1"
export const otherKey = "test-key-2"
export const bearer = { authorization: `Bearer ${key}` }
export const otherBearer = { authorization: `Bearer ${otherKey}` }

export interface Harness {
  readonly base: string
  readonly state: InternalApp.AppState
  /** The store's database, for tests that look at or damage what is stored. */
  readonly sql: SqlClient.SqlClient
  readonly request: (request: RawRequest) => Effect.Effect<RawResponse>
}

export const serve = (
  options: Partial<AppOptions> = {},
  converter: ConverterModule.Service = SimulatedConverter.make({ duration: "1 second", progressSteps: 4 }),
  internal: {
    readonly resolve?: Resolve
    /** This node's claims as on a database shared with other nodes: leases, renewed, polled for. */
    readonly shared?: boolean
  } = {}
): Effect.Effect<Harness, never, Scope.Scope> =>
  Effect.gen(function*() {
    const context = yield* Layer.build(NodeHttpServer.layerTest).pipe(Effect.orDie)
    const httpServer = Context.get(context, HttpServer.HttpServer)
    const address = httpServer.address
    const base = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "http://127.0.0.1"
    const given = InternalOptions.resolve({
      keys: [Redacted.make(key), Redacted.make(otherKey)],
      publicUrl: base,
      ...options
    }, internal)
    const resolved = internal.shared === true ? { ...given, node: { ...given.node, shared: true } } : given
    const sql = yield* Layer.build(SqliteClient.layer({ filename: ":memory:" })).pipe(Effect.orDie)
    const { app, state } = yield* InternalApp.makeApp(resolved).pipe(
      Effect.provideService(Converter, converter),
      Effect.provide(sql),
      Effect.orDie
    )
    yield* httpServer.serve(app)
    return {
      base,
      state,
      sql: Context.get(sql, SqlClient.SqlClient),
      request: (request) => Effect.promise(() => raw(base, request))
    }
  })

export const json = { "content-type": "application/json" }

/** `POST /v1/files` of `bytes` (a small fake PDF by default): the URL to submit. */
export const upload = (h: Harness, headers: Record<string, string> = bearer, bytes: Uint8Array = fakePdf()) =>
  Effect.map(
    h.request({
      method: "POST",
      path: "/v1/files",
      headers: { ...headers, "content-type": "application/pdf" },
      body: bytes
    }),
    (r) => {
      assert.strictEqual(r.status, 201, r.body.toString())
      return (r.json as { url: string }).url
    }
  )

export const submit = (h: Harness, format: Contract.Format, body: unknown, headers: Record<string, string> = bearer) =>
  h.request({
    method: "POST",
    path: `/v1${Contract.submitPath(format)}`,
    headers: { ...headers, ...json },
    body: JSON.stringify(body)
  })

/** Submits a fresh upload (or `extra.pdfURL`): the task id. */
export const submitted = (h: Harness, format: Contract.Format, extra: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const pdfURL = typeof extra["pdfURL"] === "string" ? extra["pdfURL"] : yield* upload(h)
    const response = yield* submit(h, format, { pdfURL, model: "gundam", ...extra })
    assert.strictEqual(response.status, 200, response.body.toString())
    return Schema.decodeUnknownSync(Contract.SubmittedTask)(response.json).sessionID
  })

export const poll = (h: Harness, format: Contract.Format, id: string, headers: Record<string, string> = bearer) =>
  h.request({ path: `/v1${Contract.resultPath(format, id)}`, headers })

export const status = (h: Harness, format: Contract.Format, id: string) =>
  Effect.map(poll(h, format, id), (r) => {
    assert.strictEqual(r.status, 200, r.body.toString())
    return Schema.decodeUnknownSync(Contract.TaskStatus)(r.json)
  })

/** Lets the background fibers run after a clock move (they are woken by the TestClock). */
export const settle = Effect.yieldNow().pipe(Effect.repeatN(20))

/** The path and query of a URL of the server, for a raw request. */
export const pathOf = (url: string): string => {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}
