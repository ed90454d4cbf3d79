import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { PdfTransformClient } from "@pdf-transform/core"
import { Batch, Job, Journal } from "@pdf-transform/stream"
import { Console, Effect, Stream } from "effect"

// URLs are submitted as they are; local files (Job.file) also need an Uploader layer.
const jobs = [
  Job.url("https://example.com/papers/one.pdf", "markdown"),
  Job.url("https://example.com/papers/two.pdf", "epub")
]

const program = Batch.convert(jobs, { outputDirectory: "out", concurrency: 8 }).pipe(
  Stream.runForEach((event) => {
    switch (event._tag) {
      case "Completed":
        return Console.log(`${event.job.name} -> ${event.output}`)
      case "Failed":
        return Console.error(`${event.job.name}: ${event.error.message}`)
      default:
        return Effect.void
    }
  })
)

program.pipe(
  // Run it again after a crash: done jobs are skipped, running tasks polled, nothing paid twice.
  Effect.provide(Journal.layerFile("out/.pdf-transform-journal.jsonl")),
  Effect.provide(PdfTransformClient.layerConfig()), // PDF_TRANSFORM_API_KEY, PDF_TRANSFORM_BASE_URL
  Effect.provide(NodeHttpClient.layerUndici),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain
)
