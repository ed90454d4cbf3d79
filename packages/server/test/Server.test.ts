import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Fiber, Layer, Redacted, Scope } from "effect"
import * as Http from "node:http"
import * as Net from "node:net"
import * as Server from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import { fakePdf, raw } from "./utils.js"

const converter = SimulatedConverter.layer({ duration: "100 millis" })

const origin = (baseUrl: string) => baseUrl.replace(/\/v1$/, "")

/** A raw HTTP/1.1 connection that sends requests one after another; each answers "answered" or "closed". */
const keepAlive = (url: URL) => {
  const socket = Net.connect({ host: url.hostname, port: Number(url.port) })
  let received = ""
  let ended = false
  let waiting: (() => void) | undefined
  socket.setEncoding("utf8")
  socket.on("data", (chunk: string) => {
    received += chunk
    waiting?.()
  })
  const end = () => {
    ended = true
    waiting?.()
  }
  socket.on("close", end)
  socket.on("error", end)
  let answers = 0
  return {
    request: (path: string) =>
      new Promise<"answered" | "closed">((resolve) => {
        const expected = answers + 1
        waiting = () => {
          if (received.split("HTTP/1.1 ").length - 1 >= expected) {
            answers = expected
            resolve("answered")
          } else if (ended) resolve("closed")
        }
        if (ended) return resolve("closed")
        socket.write(`GET ${path} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer secret-key\r\n\r\n`)
      }),
    close: () => socket.destroy()
  }
}

describe("Server.layer", () => {
  it.live("listens on 127.0.0.1, answers the OpenAPI document, and accepts a raw key", () =>
    Effect.gen(function*() {
      const { address, baseUrl } = yield* Server.Server
      assert.strictEqual(address._tag === "TcpAddress" && address.hostname, "127.0.0.1")
      assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/)
      const doc = yield* Effect.promise(() =>
        raw(origin(baseUrl), { path: "/v1/openapi.json", headers: { authorization: "secret-key" } })
      )
      assert.strictEqual(doc.status, 200)
      const document = doc.json as { openapi: string; paths: Record<string, unknown>; components: { schemas: object } }
      assert.strictEqual(document.openapi, "3.1.0")
      assert.includeMembers(Object.keys(document.paths), [
        "/pdf-transform-markdown/submit",
        "/pdf-transform-epub/submit",
        "/pdf-transform-markdown/result/{taskId}",
        "/pdf-transform-epub/result/{taskId}",
        "/files",
        "/uploads/init",
        "/uploads/{uploadId}/parts/{partNumber}",
        "/uploads/{uploadId}/url"
      ])
      assert.includeMembers(Object.keys(document.components.schemas), [
        "TaskStatus",
        "RateLimitedBody",
        "UnauthenticatedBody",
        "UploadInitResponse"
      ])
    }).pipe(
      Effect.provide(Server.layer({ keys: [Redacted.make("secret-key")], port: 0 }).pipe(Layer.provide(converter)))
    ))

  it.live("graceful shutdown: a request in flight finishes, new connections are refused", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const layer = Server.layer({ keys: [Redacted.make("secret-key")], port: 0 }).pipe(Layer.provide(converter))
      const context = yield* Layer.buildWithScope(layer, scope)
      const base = origin(context.unsafeMap.get(Server.Server.key).baseUrl as string)
      const url = new URL(base)
      // An upload whose body is still arriving while the server shuts down.
      let resolveResponse: (value: { status: number; body: string }) => void = () => {}
      const response = new Promise<{ status: number; body: string }>((resolve) => (resolveResponse = resolve))
      const request = Http.request({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/v1/files",
        headers: { authorization: "Bearer secret-key", "transfer-encoding": "chunked" }
      }, (res) => {
        let body = ""
        res.on("data", (chunk: Buffer) => (body += chunk.toString()))
        res.on("end", () => resolveResponse({ status: res.statusCode ?? 0, body }))
      })
      const pdf = fakePdf(4096)
      request.write(pdf.subarray(0, 1024))
      yield* Effect.sleep("100 millis")
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.sleep("100 millis")
      const refused = yield* Effect.promise(() =>
        raw(base, { path: "/v1/openapi.json" }).then(() => "answered", (error: NodeJS.ErrnoException) => error.code)
      )
      assert.strictEqual(refused, "ECONNREFUSED")
      request.end(pdf.subarray(1024))
      const answer = yield* Effect.promise(() => response)
      assert.strictEqual(answer.status, 201, answer.body)
      yield* Fiber.join(closing)
    }))

  it.live("the layer built twice: closing the first server leaves the second one's connections alone", () =>
    Effect.gen(function*() {
      const layer = Server.layer({ keys: [Redacted.make("secret-key")], port: 0, shutdownGracePeriod: 0 }).pipe(
        Layer.provide(converter)
      )
      const first = yield* Scope.make()
      yield* Layer.buildWithScope(layer, first)
      const second = yield* Scope.make()
      const context = yield* Layer.buildWithScope(layer, second)
      const url = new URL(context.unsafeMap.get(Server.Server.key).baseUrl as string)
      // One keep-alive connection to the second server, idle between two requests.
      const connection = keepAlive(url)
      yield* Effect.promise(() => connection.request("/v1/openapi.json"))
      yield* Scope.close(first, Exit.void)
      // The shutdown's cut-off timer (grace 0) has fired by the time this 1 ms timer does.
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1)))
      const answer = yield* Effect.promise(() => connection.request("/v1/openapi.json"))
      assert.strictEqual(answer, "answered")
      connection.close()
      yield* Scope.close(second, Exit.void)
    }))

  it.live("layerConfig reads PDF_TRANSFORM_SERVER_* and refuses an empty key list", () =>
    Effect.gen(function*() {
      const config = (map: Record<string, string>) =>
        Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(map))))
      const served = yield* Effect.gen(function*() {
        const { baseUrl } = yield* Server.Server
        const one = yield* Effect.promise(() =>
          raw(origin(baseUrl), { path: "/v1/openapi.json", headers: { authorization: "Bearer k2" } })
        )
        return [baseUrl, one.status] as const
      }).pipe(
        Effect.provide(
          Server.layerConfig().pipe(
            Layer.provide(converter),
            Layer.provide(config({ PDF_TRANSFORM_SERVER_KEYS: "k1, k2", PDF_TRANSFORM_SERVER_PORT: "0" }))
          )
        )
      )
      assert.match(served[0], /^http:\/\/127\.0\.0\.1:\d+\/v1$/)
      assert.strictEqual(served[1], 200)
      const missing = yield* Effect.exit(
        Effect.provide(
          Server.Server,
          Server.layerConfig().pipe(
            Layer.provide(converter),
            Layer.provide(config({ PDF_TRANSFORM_SERVER_KEYS: " , ", PDF_TRANSFORM_SERVER_PORT: "0" }))
          )
        )
      )
      assert.isTrue(Exit.isFailure(missing))
    }))
})
