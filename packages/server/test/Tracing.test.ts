/**
 * Traces to OTLP: with the standard `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a receiver this test
 * runs on 127.0.0.1, the spans of a submit, its polls and its conversion arrive there (OTLP/HTTP,
 * JSON), under the server's service name; a signed download is not traced (its signature is in the
 * URL). Without the variable, `Telemetry.tracing` is nothing.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import * as Http from "node:http"
import type * as Net from "node:net"
import * as Server from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import * as Telemetry from "../src/Telemetry.js"
import { fakePdf, raw } from "./utils.js"

interface Span {
  readonly name: string
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: { readonly stringValue?: string } }>
}
interface ExportRequest {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource: { readonly attributes: Span["attributes"] }
    readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<Span> }>
  }>
}

/** An OTLP/HTTP receiver: every body POSTed to /v1/traces, decoded. */
const receiver = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly received: Array<ExportRequest>; readonly server: Http.Server }>(
    (resume) => {
      const received: Array<ExportRequest> = []
      const server = Http.createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          if (request.url === "/v1/traces" && request.headers["content-type"] === "application/json") {
            received.push(JSON.parse(Buffer.concat(chunks).toString()) as ExportRequest)
          }
          response.writeHead(200, { "content-type": "application/json" })
          response.end("{}")
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as Net.AddressInfo
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, received, server }))
      })
    }
  ),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.close(() => resume(Effect.void))
    })
)

const attribute = (span: Pick<Span, "attributes">, key: string) =>
  span.attributes.find((a) => a.key === key)?.value.stringValue

describe("traces", () => {
  it.live(
    "with OTEL_EXPORTER_OTLP_ENDPOINT set, the spans of requests and conversions reach the endpoint",
    () =>
      Effect.gen(function*() {
        const otlp = yield* receiver
        const before = process.env["OTEL_EXPORTER_OTLP_ENDPOINT"]
        process.env["OTEL_EXPORTER_OTLP_ENDPOINT"] = otlp.url
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => {
            if (before === undefined) delete process.env["OTEL_EXPORTER_OTLP_ENDPOINT"]
            else process.env["OTEL_EXPORTER_OTLP_ENDPOINT"] = before
          })
        )
        const scope = yield* Scope.make()
        const context = yield* Layer.buildWithScope(
          Server.layer({ keys: [Redacted.make("k")], port: 0, limits: { rate: false } }).pipe(
            Layer.provide(SimulatedConverter.layer({ duration: "50 millis" })),
            Layer.provide(Telemetry.tracing())
          ),
          scope
        )
        const { baseUrl } = yield* Effect.provide(Server.Server, context)
        const origin = baseUrl.replace(/\/v1$/, "")
        const headers = { authorization: "Bearer k" }
        const upload = yield* Effect.promise(() =>
          raw(origin, {
            method: "POST",
            path: "/v1/files",
            headers: { ...headers, "content-type": "application/pdf" },
            body: fakePdf(500)
          })
        )
        const submit = yield* Effect.promise(() =>
          raw(origin, {
            method: "POST",
            path: "/v1/pdf-transform-epub/submit",
            headers: { ...headers, "content-type": "application/json" },
            body: JSON.stringify({ pdfURL: (upload.json as { url: string }).url, model: "gundam" })
          })
        )
        const id = (submit.json as { sessionID: string }).sessionID
        let downloadURL = ""
        while (downloadURL === "") {
          yield* Effect.sleep("50 millis")
          const polled = yield* Effect.promise(() =>
            raw(origin, { path: `/v1/pdf-transform-epub/result/${id}`, headers })
          )
          downloadURL = (polled.json as { data?: { downloadURL: string } }).data?.downloadURL ?? ""
        }
        const url = new URL(downloadURL)
        assert.strictEqual(
          (yield* Effect.promise(() => raw(origin, { path: `${url.pathname}${url.search}` }))).status,
          200
        )
        // Closing the server sends what is still batched.
        yield* Scope.close(scope, Exit.void)

        const spans = otlp.received.flatMap((request) =>
          request.resourceSpans.flatMap((resourceSpans) =>
            resourceSpans.scopeSpans.flatMap((scope) =>
              scope.spans.map((span) => ({ ...span, service: attribute(resourceSpans.resource, "service.name") }))
            )
          )
        )
        const names = spans.map((span) => span.name)
        assert.include(names, "http.server POST")
        assert.include(names, "http.server GET")
        const conversion = spans.find((span) => span.name === "Server.conversion")
        assert.isDefined(conversion, names.join(", "))
        assert.strictEqual(attribute(conversion!, "pdf_transform.task_id"), id)
        assert.isTrue(spans.every((span) => span.service === "pdf-transform-server"))
        const paths = spans.map((span) => attribute(span, "url.path") ?? "")
        assert.include(paths, "/v1/pdf-transform-epub/submit")
        assert.notInclude(paths, url.pathname, "a signed download is not traced")
      }).pipe(Effect.scoped),
    60_000
  )

  it.live("without the variable, tracing is nothing: no exporter, nothing sent", () =>
    Effect.gen(function*() {
      const otlp = yield* receiver
      assert.isUndefined(process.env["OTEL_EXPORTER_OTLP_ENDPOINT"])
      const context = yield* Layer.build(
        Server.layer({ keys: [Redacted.make("k")], port: 0 }).pipe(
          Layer.provide(SimulatedConverter.layer({ duration: "50 millis" })),
          Layer.provide(Telemetry.tracing())
        )
      )
      const { baseUrl } = yield* Effect.provide(Server.Server, context)
      const answered = yield* Effect.promise(() =>
        raw(baseUrl.replace(/\/v1$/, ""), { path: "/v1/openapi.json", headers: { authorization: "Bearer k" } })
      )
      assert.strictEqual(answered.status, 200)
      assert.deepStrictEqual(otlp.received, [])
    }).pipe(Effect.scoped), 60_000)
})
