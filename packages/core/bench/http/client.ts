/**
 * Our client in the loopback benchmark, over the HTTP layer its entry point gives (one bundle per
 * layer, so that each process loads only its own), polling from 50 ms with no growth and no jitter
 * (progress-aware, as by default), each result read whole into memory with `downloadBytes`, as the
 * loop reads it with `arrayBuffer()`.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { PdfTransformClient } from "../../src/index.js"
import { measure } from "./measure.js"

export const run = (http: Layer.Layer<HttpClient.HttpClient>) => {
  const base = process.argv[2]!
  const pollMs = Number(process.env["BENCH_POLL_MS"] ?? 50)

  const runtime = ManagedRuntime.make(
    PdfTransformClient.layer({
      apiKey: Redacted.make("bench-key"),
      baseUrl: `${base}/v1`,
      poll: { initialInterval: `${pollMs} millis`, factor: 1, jitter: false }
    }).pipe(Layer.provide(http))
  )

  const batch = (count: number, concurrency: number) =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      yield* Effect.forEach(
        Array.from({ length: count }, (_, i) => i),
        (i) =>
          client.convert(i % 2 === 0 ? "markdown" : "epub", {
            pdfURL: "https://files.example.com/paper.pdf",
            filename: `doc-${i}`
          }).pipe(Effect.flatMap((done) => client.downloadBytes(done))),
        { concurrency, discard: true }
      )
    })

  measure((count, concurrency) => runtime.runPromise(batch(count, concurrency)))
}
