/**
 * The batch as a separate process, for the crash test: converts every PDF of a folder through a
 * reference server, journal on, and prints one JSON line per event on stdout.
 *
 *   node crashChild.mjs <baseUrl> <apiKey> <inDir> <outDir> <journal> [resubmit]
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { PdfTransformClient, ServerUploader } from "@pdf-transform/core"
import { Effect, Layer, Logger, LogLevel, Redacted, Stream } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Batch, type BatchEvent, Job, Journal } from "../../src/index.js"

const [baseUrl, key, inDir, outDir, journalPath, mode] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string | undefined
]
const apiKey = Redacted.make(key)

const jobs = Fs.readdirSync(inDir).filter((name) => name.endsWith(".pdf")).sort().map((name) =>
  Job.file(Path.join(inDir, name), "markdown", { request: { filename: name.replace(/\.pdf$/, "") } })
)

/** What the test needs of an event, as one JSON line. */
const line = (event: BatchEvent.BatchEvent): string => {
  const job = "job" in event ? { index: event.job.index, name: Path.basename(event.job.name) } : {}
  const detail = event._tag === "Failed" ?
    { error: event.error._tag, message: event.error.message } :
    event._tag === "Completed" ?
    { output: event.output } :
    event._tag === "Skipped" ?
    { previous: event.previous } :
    {}
  return `${JSON.stringify({ tag: event._tag, ...job, ...detail })}\n`
}

const program = Batch.convert(jobs, {
  outputDirectory: outDir,
  concurrency: 16,
  resubmitAmbiguous: mode === "resubmit",
  poll: { initialInterval: "50 millis", maxInterval: "200 millis" }
}).pipe(Stream.runForEach((event) => Effect.sync(() => process.stdout.write(line(event)))))

const HttpLive = NodeHttpClient.layerUndici

NodeRuntime.runMain(
  program.pipe(
    Effect.provide(Journal.layerFile(journalPath)),
    Effect.provide(
      Layer.mergeAll(
        PdfTransformClient.layer({ baseUrl, apiKey }),
        ServerUploader.layer({ baseUrl, apiKey })
      ).pipe(Layer.provide(HttpLive))
    ),
    Effect.provide(Layer.merge(NodeFileSystem.layer, NodePath.layer)),
    Effect.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
)
