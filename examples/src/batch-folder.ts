/**
 * Converts a folder of PDFs with the batch pipeline, on this machine: the reference server starts
 * in-process on a free 127.0.0.1 port with the local converter, local files are streamed from disk
 * to it through core's ServerUploader (`POST /v1/files`), and the journal (in the output folder)
 * makes a second run resume instead of paying twice.
 *
 *   tsx src/batch-folder.ts [folder] [--to markdown|epub] [--out DIR]
 *
 * Default folder: examples/pdfs; default output: examples/out/batch.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import { Contract, PdfTransformClient, ServerUploader } from "@pdf-transform/core"
import * as Server from "@pdf-transform/server/Server"
import { Batch, Job, Journal } from "@pdf-transform/stream"
import { Console, Effect, Layer, Logger, LogLevel, Redacted, Stream } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const args = process.argv.slice(2)
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const format = Contract.Format.literals.find((f) => f === (flag("--to") ?? "markdown")) ?? "markdown"
const here = Path.dirname(fileURLToPath(import.meta.url))
const folder = args.find((arg, i) => !arg.startsWith("--") && !args[i - 1]?.startsWith("--")) ??
  Path.join(here, "..", "pdfs")
const outputDirectory = Path.resolve(flag("--out") ?? Path.join(here, "..", "out", "batch"))

const jobs = Fs.readdirSync(folder).filter((name) => name.toLowerCase().endsWith(".pdf")).sort().map((name) =>
  Job.file(Path.join(folder, name), format)
)

const program = Batch.convert(jobs, { outputDirectory, concurrency: 2 }).pipe(
  Stream.tap((event) => {
    switch (event._tag) {
      case "Submitted":
        return Console.log(`${event.job.name}: submitted (${event.sessionId})${event.resumed ? ", resumed" : ""}`)
      case "Progress":
        return Console.log(`${event.job.name}: ${Math.round(event.progress)}%`)
      case "Completed":
        return Console.log(`${event.job.name} -> ${event.output} (${event.bytes} bytes)`)
      case "Skipped":
        return Console.log(`${event.job.name}: already ${event.previous}${event.output ? ` (${event.output})` : ""}`)
      case "Failed":
        return Console.log(`${event.job.name}: failed: ${event.error.message}`)
      case "Ambiguous":
        return Console.log(`${event.job.name}: outcome unknown (${event.reason}); not resubmitted`)
      default:
        return Effect.void
    }
  }),
  Stream.runDrain
)

// A key made for this run only: the server listens on 127.0.0.1 while the program runs.
const apiKey = Redacted.make(Crypto.randomBytes(24).toString("base64url"))

const ServerLive = Server.layer({ keys: [apiKey], port: 0, host: "127.0.0.1" }).pipe(
  Layer.provide(ConverterLive.layer())
)

const ClientsLive = Layer.unwrapEffect(Effect.map(Server.Server, ({ baseUrl }) =>
  Layer.merge(
    PdfTransformClient.layer({ baseUrl, apiKey }),
    ServerUploader.layer({ baseUrl, apiKey })
  ))).pipe(Layer.provideMerge(ServerLive), Layer.provide(NodeHttpClient.layerUndici))

NodeRuntime.runMain(
  program.pipe(
    Effect.provide(Journal.layerFile(Path.join(outputDirectory, ".pdf-transform-journal.jsonl"))),
    Effect.provide(ClientsLive),
    Effect.provide(Layer.merge(NodeFileSystem.layer, NodePath.layer)),
    Effect.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
)
