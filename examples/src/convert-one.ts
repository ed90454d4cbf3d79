/**
 * Composes `PdfTransformClient.layer` into an Effect program and converts one PDF against
 * `FakeServer` (an in-memory server that speaks the v1 contract), so it runs anywhere.
 * Swap `FakeServer.layer()` for `NodeHttpClient.layerUndici` (from `@effect/platform-node/NodeHttpClient`) and a real key to use the service.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { PdfTransformClient } from "@pdf-transform/core"
import { FakeServer } from "@pdf-transform/testing"
import { Console, Effect, Layer, Redacted } from "effect"
import { archive } from "./Archive.js"

const baseUrl = "https://fake.pdf-transform.test/v1"

const ClientLive = PdfTransformClient.layer({
  apiKey: Redacted.make(FakeServer.defaultApiKey),
  baseUrl,
  // The fake finishes quickly; shorter polls keep the demo snappy.
  poll: { initialInterval: "50 millis", maxInterval: "200 millis" }
}).pipe(
  Layer.provideMerge(FakeServer.layer({
    baseUrl,
    defaultTimeline: [
      { after: 0, status: { state: "processing", progress: 0 } },
      { after: "100 millis", status: { state: "processing", progress: 50 } },
      { after: "300 millis", status: { state: "completed" } }
    ],
    output: () => new TextEncoder().encode("# Tracemonkey\n\nTrace-based just-in-time type specialization.\n")
  }))
)

const program = Effect.gen(function*() {
  const result = yield* archive("https://files.example.com/tracemonkey.pdf", "tracemonkey")
  yield* Console.log(`converted ${result.sessionId}: "${result.title}" (${result.markdown.length} characters)`)
  yield* Console.log(result.markdown)
})

NodeRuntime.runMain(program.pipe(Effect.provide(ClientLive)))
