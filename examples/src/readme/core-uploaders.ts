import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { ChunkedUploader, PdfTransformClient, Uploader } from "@pdf-transform/core"
import { Console, Effect, Stream } from "effect"

const program = Effect.gen(function*() {
  const uploader = yield* Uploader.Uploader
  const client = yield* PdfTransformClient.PdfTransformClient
  // Streamed from disk in parts, three at a time; `upload({ path })` is the same without progress.
  let pdfURL = ""
  yield* Stream.runForEach(uploader.uploadWithProgress({ path: "paper.pdf" }), (event) => {
    if (event._tag === "Progress") return Console.log(`sent ${event.sent} of ${event.total} bytes`)
    pdfURL = event.url // cache://<name>.pdf
    return Effect.void
  })
  const done = yield* client.convert("markdown", { pdfURL, filename: "paper" })
  yield* Console.log(yield* client.download(done).pipe(Stream.decodeText(), Stream.mkString))
})

program.pipe(
  // PDF_TRANSFORM_API_KEY; PDF_TRANSFORM_UPLOAD_BASE_URL (default: the hosted service's upload base)
  Effect.provide(ChunkedUploader.layerConfig()),
  Effect.provide(PdfTransformClient.layerConfig()), // PDF_TRANSFORM_API_KEY, PDF_TRANSFORM_BASE_URL
  Effect.provide(NodeHttpClient.layerUndici),
  Effect.provide(NodeContext.layer), // the FileSystem the uploader reads with
  NodeRuntime.runMain
)
