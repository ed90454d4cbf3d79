/**
 * The reference server in simulated mode, in its own process, counting what clients send: submits
 * by answer (200, or 429 by reason), result GETs and downloads. `GET /bench/stats` answers the
 * counts. Prints `{ "baseUrl": ... }` once listening.
 *
 * Environment: BENCH_KEY, BENCH_CONCURRENCY (tasks in flight per key, 0 for none),
 * BENCH_DURATION_MS (simulated conversion time), BENCH_STEPS (progress reports per conversion),
 * BENCH_UPLOAD_MAX_BYTES (largest upload, default 100 MiB as the server's own default).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Converter } from "@pdf-transform/converter/Converter"
import * as Server from "@pdf-transform/server/Server"
import * as SimulatedConverter from "@pdf-transform/server/SimulatedConverter"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import * as Http from "node:http"

const key = process.env["BENCH_KEY"] ?? "bench-key"
const concurrency = Number(process.env["BENCH_CONCURRENCY"] ?? 16)
const durationMs = Number(process.env["BENCH_DURATION_MS"] ?? 2000)
const steps = Number(process.env["BENCH_STEPS"] ?? 100)
const uploadMaxBytes = Number(process.env["BENCH_UPLOAD_MAX_BYTES"] ?? 100 * 1024 * 1024)

const stats = {
  submits: 0,
  accepted: 0,
  rejected: {} as Record<string, number>,
  resultGets: 0,
  downloads: 0,
  uploads: 0
}

const decoder = new TextDecoder()

const count = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) => {
  const path = request.url.split("?")[0] ?? ""
  if (request.method === "POST" && path.endsWith("/submit")) {
    stats.submits++
    if (response.status === 200) stats.accepted++
    if (response.status === 429) {
      const body = response.body._tag === "Uint8Array" ? decoder.decode(response.body.body) : "{}"
      const reason = (JSON.parse(body) as { readonly reason?: string }).reason ?? "unspecified"
      stats.rejected[reason] = (stats.rejected[reason] ?? 0) + 1
    }
  } else if (request.method === "GET" && path.includes("/result/")) stats.resultGets++
  else if (request.method === "GET" && path.includes("/downloads/")) stats.downloads++
  else if (request.method === "POST" && path.endsWith("/files")) stats.uploads++
}

const main = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  const origin = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "http://127.0.0.1"
  const app = yield* Server.makeApp({
    keys: [Redacted.make(key)],
    publicUrl: origin,
    limits: { rate: false, quota: false, concurrency: concurrency > 0 ? concurrency : false },
    conversions: { maxConcurrent: 200_000, maxTasks: 200_000, retention: "30 minutes" },
    uploads: { maxFiles: 50_000, maxBytes: uploadMaxBytes, maxTotalBytes: Math.max(uploadMaxBytes, 1024 ** 3) }
  })
  const counted = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (request.url.startsWith("/bench/stats")) return yield* HttpServerResponse.json(stats)
    const response = yield* app
    count(request, response)
    return response
  })
  yield* server.serve(counted)
  yield* Effect.sync(() => console.log(JSON.stringify({ baseUrl: `${origin}/v1` })))
  return yield* Effect.never
})

main.pipe(
  Effect.scoped,
  Effect.provide(NodeHttpServer.layer(() => Http.createServer({ keepAliveTimeout: 30_000 }), {
    port: 0,
    host: "127.0.0.1"
  })),
  Effect.provide(Layer.succeed(
    Converter,
    SimulatedConverter.make({ duration: `${durationMs} millis`, progressSteps: steps, jitter: 0 })
  )),
  Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)),
  NodeRuntime.runMain
)
