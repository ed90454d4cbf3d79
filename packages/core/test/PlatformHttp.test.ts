import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { assert, describe, it } from "@effect/vitest"
import { Contract, PdfTransformClient } from "@pdf-transform/core"
import { Chunk, Effect, Either, Fiber, Layer, Redacted, Stream, Tracer } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/** What the loopback server saw of one request. */
interface Seen {
  readonly method: string
  readonly headers: Http.IncomingHttpHeaders
  readonly body: Buffer
}

/** A server on 127.0.0.1 with a route per behaviour under test; closed with the scope. */
const server = Effect.acquireRelease(
  Effect.async<{
    base: string
    seen: Map<string, Seen>
    closed: (path: string) => Promise<void>
    arrived: (path: string) => Promise<void>
    http: Http.Server
  }>((resume) => {
    const seen = new Map<string, Seen>()
    const signals = new Map<string, { promise: Promise<void>; resolve: () => void }>()
    const signal = (name: string) => {
      let entry = signals.get(name)
      if (entry === undefined) {
        let resolve!: () => void
        const promise = new Promise<void>((r) => (resolve = r))
        entry = { promise, resolve }
        signals.set(name, entry)
      }
      return entry
    }
    const http = Http.createServer((req, res) => {
      const path = req.url ?? "/"
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        seen.set(path, { method: req.method ?? "", headers: req.headers, body: Buffer.concat(chunks) })
        res.on("close", () => signal(`closed ${path}`).resolve())
        signal(`arrived ${path}`).resolve()
        switch (new URL(path, "http://127.0.0.1").pathname) {
          case "/text":
            res.setHeader("x-multi", ["a", "b"])
            res.setHeader("content-type", "text/plain")
            res.end("hello")
            return
          case "/json":
            res.setHeader("content-type", "application/json")
            res.end(JSON.stringify({ ok: true }))
            return
          case "/echo":
            res.end(Buffer.concat(chunks))
            return
          case "/big":
            res.setHeader("content-length", String(16 * 65_536))
            for (let i = 0; i < 16; i++) res.write(Buffer.alloc(65_536, i))
            res.end()
            return
          case "/chunked":
            // No Content-Length: chunked transfer encoding.
            for (let i = 0; i < 16; i++) res.write(Buffer.alloc(65_536, i))
            res.end()
            return
          case "/hang":
            return
          case "/stall":
            res.setHeader("content-length", "1000")
            res.write("partial")
            return
          default:
            res.statusCode = 404
            res.end()
        }
      })
    })
    http.listen(0, "127.0.0.1", () => {
      const { port } = http.address() as AddressInfo
      resume(Effect.succeed({
        base: `http://127.0.0.1:${port}`,
        seen,
        closed: (path: string) => signal(`closed ${path}`).promise,
        arrived: (path: string) => signal(`arrived ${path}`).promise,
        http
      }))
    })
  }),
  ({ http }) =>
    Effect.async<void>((resume) => {
      http.closeAllConnections()
      http.close(() => resume(Effect.void))
    })
)

/** Waits (without a clock) until `fiber` is suspended: waiting on its body, here. */
const untilSuspended = (fiber: Fiber.RuntimeFiber<unknown, unknown>) =>
  Effect.repeat(Effect.zipRight(Effect.yieldNow(), fiber.status), { until: (status) => status._tag === "Suspended" })

const withClient = <A, E>(f: (client: HttpClient.HttpClient) => Effect.Effect<A, E>) =>
  Effect.flatMap(HttpClient.HttpClient, f).pipe(Effect.provide(NodeHttpClient.layerUndici))

/** A tracer that keeps every span it starts, on top of the current one. */
const recording = Effect.map(Effect.tracer, (native) => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (...args) => {
      const span = native.span(...args)
      spans.push(span)
      return span
    },
    context: (f, fiber) => native.context(f, fiber)
  })
  return { spans, tracer }
})

describe("the client over the platform's undici layer", () => {
  it.scopedLive("answers status, lower-case headers (repeated ones joined), text and JSON", () =>
    Effect.gen(function*() {
      const { base } = yield* server
      yield* withClient((client) =>
        Effect.gen(function*() {
          const text = yield* client.execute(HttpClientRequest.get(`${base}/text`))
          assert.strictEqual(text.status, 200)
          assert.strictEqual(text.headers["content-type"], "text/plain")
          assert.strictEqual(text.headers["x-multi"], "a, b")
          assert.strictEqual(yield* text.text, "hello")
          // A body read twice gives the same text, as the platform's responses do.
          assert.strictEqual(yield* text.text, "hello")
          const json = yield* client.execute(HttpClientRequest.get(`${base}/json`))
          assert.deepStrictEqual(yield* json.json, { ok: true })
        })
      )
    }))

  it.scopedLive("sends bodies: JSON, bytes, and a Stream with its length", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* server
      yield* withClient((client) =>
        Effect.gen(function*() {
          const json = yield* client.execute(
            HttpClientRequest.post(`${base}/echo`).pipe(HttpClientRequest.bodyUnsafeJson({ a: 1 }))
          )
          assert.strictEqual(yield* json.text, "{\"a\":1}")
          assert.strictEqual(seen.get("/echo")?.headers["content-type"], "application/json")
          assert.strictEqual(seen.get("/echo")?.method, "POST")

          const parts = Array.from({ length: 40 }, (_, i) => new Uint8Array(10_000).fill(i))
          const streamed = yield* client.execute(
            HttpClientRequest.put(`${base}/echo`).pipe(
              HttpClientRequest.bodyStream(Stream.fromIterable(parts), {
                contentType: "application/octet-stream",
                contentLength: 400_000
              })
            )
          )
          const echoed = new Uint8Array(yield* streamed.arrayBuffer)
          assert.strictEqual(echoed.length, 400_000)
          assert.strictEqual(echoed[0], 0)
          assert.strictEqual(echoed[399_999], 39)
          assert.strictEqual(seen.get("/echo")?.headers["content-length"], "400000")
        })
      )
    }))

  it.scopedLive("streams a large body chunk by chunk, whole", () =>
    Effect.gen(function*() {
      const { base } = yield* server
      const chunks = yield* withClient((client) =>
        Effect.flatMap(client.execute(HttpClientRequest.get(`${base}/big`)), (r) => Stream.runCollect(r.stream))
      )
      const all = Chunk.toReadonlyArray(chunks)
      assert.isAbove(all.length, 1)
      assert.strictEqual(all.reduce((n, c) => n + c.length, 0), 16 * 65_536)
      assert.strictEqual(all[all.length - 1]![all[all.length - 1]!.length - 1], 15)
    }))

  it.scopedLive("interrupting a request aborts it; interrupting a body read closes the connection", () =>
    Effect.gen(function*() {
      const { arrived, base, closed } = yield* server
      yield* withClient((client) =>
        Effect.gen(function*() {
          const waiting = yield* Effect.fork(client.execute(HttpClientRequest.get(`${base}/hang`)))
          yield* Effect.promise(() => arrived("/hang"))
          yield* Fiber.interrupt(waiting)
          yield* Effect.promise(() => closed("/hang"))

          const response = yield* client.execute(HttpClientRequest.get(`${base}/stall`))
          const reading = yield* Effect.fork(response.text)
          yield* untilSuspended(reading)
          yield* Fiber.interrupt(reading)
          yield* Effect.promise(() => closed("/stall"))
        })
      )
    }))

  it.scopedLive("a refused connection is a Transport error whose cause says nothing was sent", () =>
    Effect.gen(function*() {
      const { base } = yield* server
      const port = Number(new URL(base).port)
      // A port nobody listens on: the server's, once it is closed.
      const closedServer = yield* Effect.async<string>((resume) => {
        const s = Http.createServer()
        s.listen(0, "127.0.0.1", () => {
          const { port: free } = s.address() as AddressInfo
          s.close(() => resume(Effect.succeed(`http://127.0.0.1:${free}`)))
        })
      })
      assert.notStrictEqual(Number(new URL(closedServer).port), port)
      const error = yield* withClient((client) =>
        Effect.flip(client.execute(HttpClientRequest.get(`${closedServer}/x`)))
      )
      assert.strictEqual(error._tag, "RequestError")
      assert.strictEqual(error.reason, "Transport")
      assert.strictEqual((error.cause as { code?: string }).code, "ECONNREFUSED")

      // Through the client: a submit that certainly was not sent.
      const submit = yield* Effect.flatMap(
        PdfTransformClient.PdfTransformClient,
        (c) => Effect.either(c.submit("markdown", { pdfURL: "https://example.com/a.pdf" }, { maxAttempts: 1 }))
      ).pipe(
        Effect.provide(
          PdfTransformClient.layer({ apiKey: Redacted.make("k"), baseUrl: `${closedServer}/v1` }).pipe(
            Layer.provide(NodeHttpClient.layerUndici)
          )
        )
      )
      assert.isTrue(Either.isLeft(submit))
      if (Either.isLeft(submit)) {
        assert.strictEqual(submit.left._tag, "TransportError")
        assert.strictEqual(submit.left._tag === "TransportError" && submit.left.sent, false)
      }
    }))

  it.scopedLive("an invalid URL fails before anything is sent", () =>
    Effect.gen(function*() {
      const error = yield* withClient((client) => Effect.flip(client.execute(HttpClientRequest.get("not a url"))))
      assert.strictEqual(error._tag, "RequestError")
      assert.strictEqual(error.reason, "InvalidUrl")
    }))

  it.scopedLive("downloadBytes: an unannounced output stops being read past maxBytes; within it, it is whole", () =>
    Effect.gen(function*() {
      const { base } = yield* server
      const completed: PdfTransformClient.CompletedTask<"markdown"> = {
        format: "markdown",
        sessionId: Contract.SessionId.make("chunked"),
        downloadURL: `${base}/chunked`
      }
      const [refused, whole] = yield* Effect.flatMap(
        PdfTransformClient.PdfTransformClient,
        (client) =>
          Effect.all([
            Effect.flip(client.downloadBytes(completed, { maxBytes: 100_000 })),
            client.downloadBytes(completed)
          ])
      ).pipe(
        Effect.provide(
          PdfTransformClient.layer({ apiKey: Redacted.make("k"), baseUrl: `${base}/v1` }).pipe(
            Layer.provide(NodeHttpClient.layerUndici)
          )
        )
      )
      assert.include(refused.reason, "maxBytes (100000)")
      assert.isUndefined(refused.expectedBytes)
      // Stopped at the first chunk past the bound, not after reading the whole megabyte.
      assert.isAbove(refused.receivedBytes ?? 0, 100_000)
      assert.isBelow(refused.receivedBytes ?? Infinity, 16 * 65_536)
      assert.strictEqual(whole.length, 16 * 65_536)
      assert.strictEqual(whole[whole.length - 1], 15)
    }))

  it.scopedLive("a span per request, its traceparent sent; none when propagation or the tracer is off", () =>
    Effect.gen(function*() {
      const { base, seen } = yield* server
      const { spans, tracer } = yield* recording
      const get = (client: HttpClient.HttpClient) =>
        Effect.flatMap(client.execute(HttpClientRequest.get(`${base}/echo?q=secret`)), (r) => r.text)
      yield* withClient((client) =>
        Effect.gen(function*() {
          yield* get(client).pipe(Effect.withSpan("parent"))
          const parent = spans.find((s) => s.name === "parent")!
          const request = spans.find((s) => s.name === "http.client GET")!
          assert.isDefined(request)
          assert.strictEqual(request.kind, "client")
          assert.strictEqual(request.parent._tag === "Some" && request.parent.value.spanId, parent.spanId)
          assert.strictEqual(request.attributes.get("http.request.method"), "GET")
          assert.strictEqual(request.attributes.get("url.path"), "/echo")
          assert.strictEqual(request.attributes.get("http.response.status_code"), 200)
          assert.strictEqual(request.status._tag, "Ended")
          assert.strictEqual(
            seen.get("/echo?q=secret")?.headers["traceparent"],
            `00-${request.traceId}-${request.spanId}-01`
          )

          yield* get(client).pipe(Effect.locally(HttpClient.currentTracerPropagation, false))
          assert.isUndefined(seen.get("/echo?q=secret")?.headers["traceparent"])
          const before = spans.length
          yield* get(client).pipe(Effect.withTracerEnabled(false))
          assert.strictEqual(spans.length, before)
        })
      ).pipe(Effect.withTracer(tracer))
    }))

  it.scopedLive("a signed download URL's query reaches no span; the download has its own", () =>
    Effect.gen(function*() {
      const { base } = yield* server
      const { spans, tracer } = yield* recording
      const completed = (path: string): PdfTransformClient.CompletedTask<"markdown"> => ({
        format: "markdown",
        sessionId: Contract.SessionId.make("signed"),
        downloadURL: `${base}${path}?sig=secret-signature`
      })
      yield* Effect.flatMap(
        PdfTransformClient.PdfTransformClient,
        (client) =>
          Effect.all([
            client.downloadBytes(completed("/text")),
            Stream.runDrain(client.download(completed("/big")))
          ])
      ).pipe(
        Effect.provide(
          PdfTransformClient.layer({ apiKey: Redacted.make("k"), baseUrl: `${base}/v1` }).pipe(
            Layer.provide(NodeHttpClient.layerUndici)
          )
        ),
        Effect.withTracer(tracer)
      )
      const names = spans.map((s) => s.name)
      assert.include(names, "PdfTransformClient.downloadBytes")
      assert.include(names, "PdfTransformClient.download")
      for (const span of spans) {
        assert.isFalse(
          [...span.attributes.values()].some((v) => String(v).includes("secret-signature")),
          `span ${span.name} records the signature`
        )
      }
    }))
})
