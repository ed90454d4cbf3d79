/**
 * The web page's API and files on the server's side: the overview's figures as tasks are submitted,
 * run and end (TestClock), per key and per node; the keys it needs; the page turned off; a server
 * whose page was never built.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Schema, TestClock } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as PageRoutes from "../src/internal/pageRoutes.js"
import * as WebAssets from "../src/internal/webAssets.js"
import * as WebApi from "../src/WebApi.js"
import { bearer, otherBearer, serve, settle, submitted } from "./harness.js"

const overview = (h: Effect.Effect.Success<ReturnType<typeof serve>>) =>
  Effect.map(h.request({ path: WebApi.paths.overview, headers: bearer }), (r) => {
    assert.strictEqual(r.status, 200, r.body.toString())
    assert.strictEqual(r.headers["cache-control"], "no-store")
    return Schema.decodeUnknownSync(WebApi.Overview)(r.json)
  })

describe("GET /api/overview", () => {
  it.scoped("counts tasks by state, per key and per node, with each key's limits and their use now", () =>
    Effect.gen(function*() {
      const h = yield* serve({ node: { id: "node-a" }, conversions: { maxConcurrent: 2 } })
      yield* submitted(h, "markdown")
      yield* submitted(h, "markdown")
      yield* submitted(h, "epub")
      yield* settle
      const busy = yield* overview(h)
      assert.deepStrictEqual(busy.tasks, { queued: 1, running: 2, completed: 0, failed: 0 })
      assert.deepStrictEqual(busy.nodes, [{ node: "node-a", running: 2, finished: 0 }])
      const [first, second] = busy.keys
      assert.strictEqual(first!.key, "key#1")
      assert.deepStrictEqual(first!.concurrency, { limit: 8, inFlight: 3 })
      assert.deepStrictEqual(first!.rate, { limit: 10, windowMs: 1000, tokens: 7 })
      assert.strictEqual(first!.quota!.used, 3)
      assert.strictEqual(first!.quota!.limit, 1000)
      // The other key has submitted nothing: its limits are whole.
      assert.deepStrictEqual(second, {
        key: "key#2",
        tasks: { queued: 0, running: 0, completed: 0, failed: 0 },
        rate: { limit: 10, windowMs: 1000, tokens: 10 },
        quota: { limit: 1000, windowMs: 3_600_000, used: 0, resetsAt: second!.quota!.resetsAt },
        concurrency: { limit: 8, inFlight: 0 }
      })
      assert.strictEqual(busy.storage.tasks, 3)
      assert.strictEqual(busy.storage.files, 3)

      for (let i = 0; i < 4; i++) {
        yield* TestClock.adjust("1 second")
        yield* settle
      }
      const done = yield* overview(h)
      assert.deepStrictEqual(done.tasks, { queued: 0, running: 0, completed: 3, failed: 0 })
      assert.deepStrictEqual(done.nodes, [{ node: "node-a", running: 0, finished: 3 }])
      assert.deepStrictEqual(done.keys[0]!.rate, { limit: 10, windowMs: 1000, tokens: 10 })
      assert.deepStrictEqual(done.keys[0]!.concurrency, { limit: 8, inFlight: 0 })
      assert.isAbove(done.storage.outputBytes, 0)
    }))

  it.scoped("needs a key, as the contract's routes do; settings name the key that asks", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      for (const path of [WebApi.paths.overview, WebApi.paths.settings]) {
        const refused = yield* h.request({ path })
        assert.strictEqual(refused.status, 401)
        assert.strictEqual(refused.headers["www-authenticate"], "Bearer realm=\"pdf-transform\"")
      }
      const settings = yield* h.request({ path: WebApi.paths.settings, headers: otherBearer })
      assert.deepStrictEqual(Schema.decodeUnknownSync(WebApi.Settings)(settings.json), {
        key: "key#2",
        remoteFetch: false,
        maxUploadBytes: 100 * 1024 * 1024
      })
    }))
})

describe("the page's files", () => {
  it.scoped("are served at / with the security headers; with webPage: false, / and /api are the contract's unknown paths", () =>
    Effect.gen(function*() {
      const on = yield* serve()
      const page = yield* on.request({ path: "/" })
      assert.strictEqual(page.status, 200)
      assert.strictEqual(page.headers["content-type"], "text/html; charset=utf-8")
      assert.include(page.headers["content-security-policy"], "script-src 'self'")
      const again = yield* on.request({ path: "/", headers: { "if-none-match": String(page.headers["etag"]) } })
      assert.strictEqual(again.status, 304)
      // A name is looked up among the built files, never as a path.
      const outside = yield* on.request({ path: "/assets/..%2F..%2Fpackage.json" })
      assert.strictEqual(outside.status, 404)

      const off = yield* serve({ webPage: false })
      for (const path of ["/", "/assets/app.js", WebApi.paths.settings]) {
        const answer = yield* off.request({ path, headers: bearer })
        assert.strictEqual(answer.status, 404, path)
        assert.deepStrictEqual(answer.json, { error: "not_found", message: "No such endpoint (see /v1/openapi.json)" })
      }
    }))

  it.effect("a server whose page is not built says so at /, with the headers", () =>
    Effect.gen(function*() {
      const empty = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-web-"))
      const assets = yield* Effect.either(WebAssets.load(empty))
      Fs.rmSync(empty, { recursive: true })
      assert.isTrue(Either.isLeft(assets))
      const handler = HttpApp.toWebHandler(
        HttpRouter.toHttpApp(PageRoutes.routes(assets, new URL("http://127.0.0.1:1"))).pipe(Effect.flatten)
      )
      const answer = yield* Effect.promise(() => handler(new Request("http://127.0.0.1:1/")))
      assert.strictEqual(answer.status, 404)
      assert.include(yield* Effect.promise(() => answer.text()), "no index.html")
      assert.strictEqual(answer.headers.get("x-frame-options"), "DENY")
    }))
})
