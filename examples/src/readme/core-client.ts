// Sub-paths: the package's index also loads @effect/cluster, which is not installed.
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { PdfTransformClient } from "@pdf-transform/core"
import { Effect, Stream } from "effect"

const program = Effect.gen(function*() {
  const client = yield* PdfTransformClient.PdfTransformClient
  const done = yield* client.convert("markdown", { pdfURL: "https://example.com/paper.pdf", filename: "paper" })
  const text = yield* client.download(done).pipe(Stream.decodeText(), Stream.mkString)
  yield* Effect.log(text.slice(0, 200))
})

program.pipe(
  Effect.provide(PdfTransformClient.layerConfig()), // PDF_TRANSFORM_API_KEY, PDF_TRANSFORM_BASE_URL
  Effect.provide(NodeHttpClient.layerUndici),
  NodeRuntime.runMain
)
