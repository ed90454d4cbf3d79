/**
 * What a load balancer sees of a node on PostgreSQL (the test's own, `fixtures/postgres.ts`):
 * from the moment it listens it answers, 503 while it sets up its tables (nodes starting together
 * take turns) and `/healthz` 200; `/readyz` 200 once it can serve, 503 when its database stops
 * answering; a request that cannot be answered gets a 503 at its deadline instead of waiting forever.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer, Redacted, Scope } from "effect"
import * as Net from "node:net"
import { schemaLockId, submitLockId } from "../src/internal/sqlTables.js"
import * as Server from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import type { Postgres } from "./fixtures/postgres.js"
import { startPostgres } from "./fixtures/postgres.js"
import { fakePdf, raw } from "./utils.js"

let postgres: Postgres
beforeAll(async () => {
  postgres = await startPostgres()
}, 120_000)
afterAll(() => postgres?.stop())

const key = "health-test-key"
const bearer = { authorization: `Bearer ${key}` }

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = Net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as Net.AddressInfo
      server.close(() => resolve(port))
    })
  })

/** The node's layer on the database at `url`, listening on `port`. */
const node = (url: string, port: number, options: Partial<Server.Options> = {}) =>
  Server.layer({
    keys: [Redacted.make(key)],
    signingKey: Redacted.make("health-test-signing-key"),
    port,
    database: PgClient.layer({ url: Redacted.make(url) }),
    limits: { rate: false },
    ...options
  }).pipe(Layer.provide(SimulatedConverter.layer({ duration: "100 millis" })))

/**
 * Holds the transaction-scoped advisory lock `id` on the database at `url` in a fiber of the
 * current scope (as another node would), until `release` is completed.
 */
const holdLock = (url: string, id: number) =>
  Effect.gen(function*() {
    const held = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    const context = yield* Layer.build(PgClient.layer({ url: Redacted.make(url) }))
    const sql = yield* Effect.provide(SqlClient.SqlClient, context)
    const fiber = yield* Effect.forkScoped(
      sql.withTransaction(
        Effect.zipRight(
          Effect.zipRight(sql`SELECT pg_advisory_xact_lock(${id})`, Deferred.succeed(held, undefined)),
          Deferred.await(release)
        )
      )
    )
    yield* Deferred.await(held)
    // Let go at the scope's end whatever happens, so that a failed test does not leave a node waiting.
    yield* Effect.addFinalizer(() => Deferred.succeed(release, undefined))
    return Effect.zipRight(Deferred.succeed(release, undefined), Fiber.join(fiber))
  })

/** A request that must be answered within `withinMs` (a request nobody answers fails the test, not the run). */
const request = (port: number, path: string, options: { method?: string; body?: string; withinMs?: number } = {}) =>
  Effect.promise(() =>
    Promise.race([
      raw(`http://127.0.0.1:${port}`, {
        path,
        headers: { ...bearer, "content-type": "application/json" },
        ...(options.method === undefined ? {} : { method: options.method }),
        ...(options.body === undefined ? {} : { body: options.body })
      }),
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`${path}: no answer within ${options.withinMs ?? 10_000} ms`)),
          options.withinMs ?? 10_000
        )
      )
    ])
  )

/** Tries `path` until the port accepts connections. */
const firstAnswer = (port: number, path: string) =>
  Effect.promise(async () => {
    const deadline = Date.now() + 60_000
    for (;;) {
      const connected = await new Promise<boolean>((resolve) => {
        const socket = Net.connect(port, "127.0.0.1", () => {
          socket.destroy()
          resolve(true)
        })
        socket.once("error", () => resolve(false))
      })
      if (connected) return
      if (Date.now() > deadline) throw new Error("the node never listened")
      await new Promise((resume) => setTimeout(resume, 20))
    }
  }).pipe(Effect.zipRight(request(port, path)))

describe("a node's health, as a load balancer sees it", () => {
  it.live(
    "answers from the moment it listens: 503 while its tables are set up, then serves; /healthz 200 throughout",
    () =>
      Effect.gen(function*() {
        const url = postgres.createDatabase()
        const port = yield* Effect.promise(freePort)
        // Another node setting up the tables holds their lock: this one waits for it, listening.
        const release = yield* holdLock(url, schemaLockId)
        const scope = yield* Scope.make()
        const started = yield* Effect.fork(Layer.buildWithScope(node(url, port), scope))
        const early = yield* firstAnswer(port, "/v1/openapi.json")
        assert.strictEqual(early.status, 503, early.body.toString())
        assert.strictEqual(early.headers["retry-after"], "1")
        assert.strictEqual((yield* request(port, "/healthz")).status, 200)
        assert.strictEqual((yield* request(port, "/readyz")).status, 503)
        yield* release
        yield* Fiber.join(started)
        assert.strictEqual((yield* request(port, "/readyz")).status, 200)
        assert.strictEqual((yield* request(port, "/v1/openapi.json")).status, 200)
        // Neither answers with a key's worth of detail, and neither needs one.
        const ready = yield* Effect.promise(() => raw(`http://127.0.0.1:${port}`, { path: "/readyz" }))
        assert.deepStrictEqual(ready.json, { status: "ready" })
        yield* Scope.close(scope, Exit.void)
      }).pipe(Effect.scoped),
    120_000
  )

  it.live(
    "a request that cannot be answered gets a 503 with Retry-After at its deadline, not a wait forever",
    () =>
      Effect.gen(function*() {
        const url = postgres.createDatabase()
        const port = yield* Effect.promise(freePort)
        yield* Layer.build(node(url, port, { requestTimeout: "1 second" }))
        const uploaded = yield* Effect.promise(() =>
          raw(`http://127.0.0.1:${port}`, {
            method: "POST",
            path: "/v1/files",
            headers: { ...bearer, "content-type": "application/pdf" },
            body: fakePdf(1000)
          })
        )
        const pdfURL = (uploaded.json as { url: string }).url
        // Submits take this lock one at a time; another node holding it stalls every submit here.
        const release = yield* holdLock(url, submitLockId)
        const stalled = yield* request(port, "/v1/pdf-transform-markdown/submit", {
          method: "POST",
          body: JSON.stringify({ pdfURL, model: "gundam" })
        })
        assert.strictEqual(stalled.status, 503, stalled.body.toString())
        assert.strictEqual(stalled.headers["retry-after"], "5")
        assert.strictEqual((stalled.json as { error: string }).error, "request_timeout")
        yield* release
      }).pipe(Effect.scoped),
    120_000
  )

  it.live("/readyz is 503 while the database is unreachable, and /healthz stays 200", () =>
    Effect.gen(function*() {
      const url = postgres.createDatabase()
      const port = yield* Effect.promise(freePort)
      yield* Layer.build(node(url, port))
      assert.strictEqual((yield* request(port, "/readyz")).status, 200)
      postgres.stop()
      const unready = yield* request(port, "/readyz")
      assert.strictEqual(unready.status, 503)
      assert.deepStrictEqual(unready.json, { status: "unavailable" })
      assert.strictEqual((yield* request(port, "/healthz")).status, 200)
    }).pipe(Effect.scoped), 120_000)
})
