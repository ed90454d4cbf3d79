// Sub-paths: the package's index also loads @effect/cluster, which is not installed.
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { PdfTransformClient } from "@pdf-transform/core"
import { Effect } from "effect"

const program = Effect.gen(function*() {
  const client = yield* PdfTransformClient.PdfTransformClient
  const done = yield* client.convert("markdown", { pdfURL: "https://example.com/paper.pdf", filename: "paper" })
  // A Markdown output is used whole: read it in one piece (`download` streams large outputs).
  const text = new TextDecoder().decode(yield* client.downloadBytes(done))
  yield* Effect.log(text.slice(0, 200))
})

program.pipe(
  Effect.provide(PdfTransformClient.layerConfig()), // PDF_TRANSFORM_API_KEY, PDF_TRANSFORM_BASE_URL
  Effect.provide(NodeHttpClient.layerUndici),
  NodeRuntime.runMain
)
