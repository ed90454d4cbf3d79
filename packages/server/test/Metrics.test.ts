/**
 * The server's metrics as Prometheus scrapes them (`Telemetry.metrics` on a listener of its own),
 * after a run whose every event is known: uploads, accepted submits, one refused by the quota, one
 * conversion that fails, one damaged row. Each counter and histogram count equals what happened,
 * and the exposition is read by a strict parser (`prometheus.ts`), itself checked here first.
 */
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { assert, describe, it } from "@effect/vitest"
import { Converter } from "@pdf-transform/converter/Converter"
import { Effect, Layer, Redacted } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Server from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import * as Telemetry from "../src/Telemetry.js"
import { parse, valueOf } from "./prometheus.js"
import { fakePdf, raw } from "./utils.js"

describe("the test's Prometheus parser", () => {
  it("reads a valid exposition and refuses what is not one", () => {
    const valid = [
      "# HELP requests_total Requests.",
      "# TYPE requests_total counter",
      "requests_total{route=\"/a\",code=\"200\"} 3",
      "requests_total{route=\"/b \\\"q\\\"\"} 1.5e1 1700000000000",
      "# TYPE latency histogram",
      "latency_bucket{le=\"0.1\"} 1",
      "latency_bucket{le=\"+Inf\"} 2",
      "latency_sum 0.3",
      "latency_count 2"
    ].join("\n")
    const families = parse(valid)
    assert.strictEqual(valueOf(families, "requests_total", { route: "/a" }), 3)
    assert.strictEqual(valueOf(families, "requests_total", { route: "/b \"q\"" }), 15)
    assert.strictEqual(valueOf(families, "latency_count"), 2)
    for (
      const broken of [
        "requests_total 1",
        "# TYPE x counter\nx{a=1} 1",
        "# TYPE x counter\nx one",
        "# TYPE x gauge\n# TYPE y gauge\ny 1\nx 2",
        "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1",
        "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 3",
        "# TYPE x counter\n9x 1"
      ]
    ) {
      assert.throws(() => parse(broken), Error, undefined, broken)
    }
  })
})

const key = "metrics-test-key"
const bearer = { authorization: `Bearer ${key}` }

/** The simulated converter, but a task whose filename is `broken.pdf` fails. */
const converter = Layer.effect(
  Converter,
  Effect.sync(() => {
    const simulated = SimulatedConverter.make({ duration: "50 millis", progressSteps: 3 })
    return {
      ...simulated,
      toMarkdown: (pdf, options) =>
        options?.filename === "broken.pdf"
          ? Effect.flatMap(SimulatedConverter.make({ duration: "50 millis", failureRate: 1 }).toMarkdown(pdf), () =>
            Effect.die("unreachable"))
          : simulated.toMarkdown(pdf, options)
    }
  })
)

describe("metrics", () => {
  it.live(
    "after a known run, the scraped counters and histogram counts equal what happened",
    () =>
      Effect.gen(function*() {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-metrics-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
        const database = SqliteClient.layer({ filename: Path.join(dir, "server.db") })
        const server = Server.layer({
          keys: [Redacted.make(key)],
          port: 0,
          database,
          metrics: true,
          metricsRefresh: 0,
          limits: { rate: false, concurrency: false, quota: { limit: 5, window: "1 hour" } }
        }).pipe(Layer.provide(converter))
        const context = yield* Layer.build(
          Layer.provideMerge(Telemetry.metrics({ port: 0 }), server).pipe(Layer.merge(database))
        )
        const { baseUrl } = yield* Effect.provide(Server.Server, context)
        const { address } = yield* Effect.provide(Telemetry.MetricsListener, context)
        const origin = baseUrl.replace(/\/v1$/, "")
        const request = (path: string, init: { method?: string; body?: string | Uint8Array; type?: string } = {}) =>
          Effect.promise(() =>
            raw(origin, {
              path,
              method: init.method ?? "GET",
              headers: { ...bearer, "content-type": init.type ?? "application/json" },
              ...(init.body === undefined ? {} : { body: init.body })
            })
          )

        const uploaded = yield* request("/v1/files", { method: "POST", body: fakePdf(2000), type: "application/pdf" })
        assert.strictEqual(uploaded.status, 201)
        const pdfURL = (uploaded.json as { url: string }).url
        const submit = (filename: string) =>
          request("/v1/pdf-transform-markdown/submit", {
            method: "POST",
            body: JSON.stringify({ pdfURL, model: "gundam", filename })
          })
        const ids: Array<string> = []
        for (const filename of ["a.pdf", "b.pdf", "c.pdf", "d.pdf", "broken.pdf"]) {
          const answer = yield* submit(filename)
          assert.strictEqual(answer.status, 200, answer.body.toString())
          ids.push((answer.json as { sessionID: string }).sessionID)
        }
        assert.strictEqual((yield* submit("over-quota.pdf")).status, 429)
        const states: Array<string> = []
        for (const id of ids) {
          for (let polls = 0;; polls++) {
            const polled = yield* request(`/v1/pdf-transform-markdown/result/${id}`)
            const state = (polled.json as { state: string }).state
            if (state !== "processing") {
              states.push(state)
              break
            }
            if (polls > 400) assert.fail(`task ${id} still processing`)
            yield* Effect.sleep("25 millis")
          }
        }
        assert.deepStrictEqual(states, ["completed", "completed", "completed", "completed", "failed"])
        // One completed task's row damaged by hand: its next poll is a storage failure.
        const sql = yield* Effect.provide(SqlClient.SqlClient, context)
        yield* Effect.orDie(sql`UPDATE pdt_tasks SET source = 'not json' WHERE id = ${ids[0]!}`)
        assert.strictEqual((yield* request(`/v1/pdf-transform-markdown/result/${ids[0]}`)).status, 503)

        const port = address._tag === "TcpAddress" ? address.port : 0
        const scraped = yield* Effect.promise(() => raw(`http://127.0.0.1:${port}`, { path: "/metrics" }))
        assert.strictEqual(scraped.status, 200)
        assert.match(String(scraped.headers["content-type"]), /^text\/plain; version=0\.0\.4/)
        const families = parse(scraped.body.toString())
        const value = (name: string, labels: Record<string, string> = {}) => valueOf(families, name, labels)
        const submitRoute = "/v1/pdf-transform-markdown/submit"
        const resultRoute = "/v1/pdf-transform-markdown/result/:taskId"
        const polls = value("pdf_transform_http_requests_total", { route: resultRoute, status: "200" })

        assert.strictEqual(value("pdf_transform_tasks_submitted_total", { format: "markdown" }), 5)
        assert.strictEqual(value("pdf_transform_rate_limited_total", { reason: "quota_exceeded" }), 1)
        assert.strictEqual(value("pdf_transform_http_requests_total", { route: submitRoute, status: "200" }), 5)
        assert.strictEqual(value("pdf_transform_http_requests_total", { route: submitRoute, status: "429" }), 1)
        assert.strictEqual(value("pdf_transform_http_requests_total", { route: "/v1/files", status: "201" }), 1)
        assert.strictEqual(value("pdf_transform_http_requests_total", { route: resultRoute, status: "503" }), 1)
        assert.isAtLeast(polls, 5)
        assert.strictEqual(value("pdf_transform_http_request_duration_seconds_count", { route: submitRoute }), 6)
        assert.strictEqual(
          value("pdf_transform_http_request_duration_seconds_count", { route: resultRoute }),
          polls + 1
        )
        const completed = { format: "markdown", engine: "text", outcome: "completed" }
        assert.strictEqual(value("pdf_transform_conversion_duration_seconds_count", completed), 4)
        assert.strictEqual(value("pdf_transform_conversion_duration_seconds_count", { outcome: "failed" }), 1)
        // The simulated converter reports its progress steps as pages.
        assert.strictEqual(value("pdf_transform_pages_converted_total", { format: "markdown", engine: "text" }), 12)
        assert.strictEqual(value("pdf_transform_storage_errors_total", { operation: "read task" }), 1)
        assert.strictEqual(value("pdf_transform_claim_takeovers_total"), 0)
        assert.strictEqual(value("pdf_transform_conversions_running"), 0)
        // The storage's figures: the damaged row still counts as completed.
        assert.strictEqual(value("pdf_transform_tasks", { state: "completed" }), 4)
        assert.strictEqual(value("pdf_transform_tasks", { state: "failed" }), 1)
        assert.strictEqual(value("pdf_transform_tasks", { state: "processing" }), 0)
        assert.strictEqual(value("pdf_transform_tasks_waiting"), 0)
        // Probes and scrapes need no key; the contract's routes still do.
        assert.strictEqual((yield* Effect.promise(() => raw(origin, { path: "/v1/openapi.json" }))).status, 401)
      }).pipe(Effect.scoped),
    60_000
  )
})
