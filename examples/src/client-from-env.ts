/**
 * The client composed into an Effect program, configured from the environment:
 * `PDF_TRANSFORM_API_KEY` (required) and `PDF_TRANSFORM_BASE_URL` (default: the hosted service).
 * Converts the PDF at a URL and prints the Markdown.
 *
 *   PDF_TRANSFORM_API_KEY=... tsx src/client-from-env.ts https://example.org/paper.pdf
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { PdfTransformClient } from "@pdf-transform/core"
import { Console, Effect, Stream } from "effect"

const pdfURL = process.argv[2] ?? "https://raw.githubusercontent.com/mozilla/pdf.js/master/test/pdfs/tracemonkey.pdf"

const program = Effect.gen(function*() {
  const client = yield* PdfTransformClient.PdfTransformClient
  const completed = yield* client.convert("markdown", { pdfURL })
  const markdown = yield* client.download(completed).pipe(Stream.decodeText(), Stream.mkString)
  yield* Console.log(markdown)
})

NodeRuntime.runMain(
  program.pipe(
    Effect.provide(PdfTransformClient.layerConfig()),
    Effect.provide(NodeHttpClient.layerUndici)
  )
)
