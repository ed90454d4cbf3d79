/**
 * What an outside application does with the packed packages, type-checked with `--strict`,
 * `module NodeNext` and `skipLibCheck: false`, then run by `scripts/consumer-check.mjs`:
 *
 * 1. the first test of the testing README, a scripted `TestPdfTransformClient` under `TestClock`;
 * 2. the reference server started on a free loopback port with the simulated converter, a few PDFs
 *    uploaded to it, and a `Batch.run` of URL jobs for them over real sockets.
 *
 * Any failure exits non-zero with the reason on stderr.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as FileSystem from "@effect/platform/FileSystem"
import { PdfTransformClient, PdfTransformError } from "@pdf-transform/core"
import * as ServerUploader from "@pdf-transform/core/ServerUploader"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Server } from "@pdf-transform/server"
import * as SimulatedConverter from "@pdf-transform/server/SimulatedConverter"
import { Batch, Job, Journal } from "@pdf-transform/stream"
import { TestClockDriver, TestPdfTransformClient } from "@pdf-transform/testing"
import { Console, Effect, Layer, Logger, LogLevel, Redacted, TestContext } from "effect"

const check = (condition: boolean, what: string): Effect.Effect<void, Error> =>
  condition ? Effect.void : Effect.fail(new Error(`consumer check failed: ${what}`))

/** 1. A failed conversion reported through the test client, its jittered polls driven by the TestClock. */
const testClientUnderTestClock = Effect.gen(function*() {
  const client = yield* PdfTransformClient.PdfTransformClient
  const test = yield* TestPdfTransformClient.TestPdfTransformClient
  yield* test.script({
    _tag: "Timeline",
    timeline: [
      { after: 0, status: { state: "processing", progress: 30 } },
      { after: "5 seconds", status: { state: "failed", error: "encrypted PDF" } }
    ]
  })
  const fiber = yield* Effect.fork(Effect.flip(client.convert("epub", { pdfURL: "https://files.example.com/a.pdf" })))
  const error = yield* TestClockDriver.runUntilDone(fiber)
  yield* check(error instanceof PdfTransformError.ConversionFailed, `expected ConversionFailed, got ${error._tag}`)
  const methods = (yield* test.calls).map((call) => call.method)
  yield* check(methods.join(",") === "convert", `calls were ${methods.join(",")}`)
  yield* Console.error("ok: TestPdfTransformClient under TestClock reports the failed conversion")
}).pipe(Effect.provide(TestPdfTransformClient.layer()), Effect.provide(TestContext.TestContext))

/** 2. The reference server on a free port; PDFs uploaded to it; a batch of URL jobs over sockets. */
const apiKey = Redacted.make("consumer-check-key-0123456789")

const batchAgainstReferenceServer = Effect.gen(function*() {
  const server = yield* Server.Server
  const fs = yield* FileSystem.FileSystem
  const work = yield* fs.makeTempDirectoryScoped({ prefix: "pdf-transform-consumer-" })
  const uploader = yield* ServerUploader.make({ baseUrl: server.baseUrl, apiKey })
  const names = ["one", "two", "three"]
  const urls = yield* Effect.forEach(names, (name) =>
    uploader.upload({ name: `${name}.pdf`, bytes: new TextEncoder().encode(`%PDF-1.4\n% ${name}\n%%EOF\n`) }))
  const summary = yield* Batch.run(
    urls.map((url, i) => Job.url(url, "markdown", { outputName: names[i]! })),
    { outputDirectory: `${work}/out`, poll: { initialInterval: "20 millis", maxInterval: "100 millis" } }
  ).pipe(
    Effect.provide(Journal.layerFile(`${work}/journal.jsonl`)),
    Effect.provide(PdfTransformClient.layer({ baseUrl: server.baseUrl, apiKey }))
  )
  yield* check(summary.completed.length === names.length, `completed ${summary.completed.length} of ${names.length}`)
  for (const name of names) {
    const text = yield* fs.readFileString(`${work}/out/${name}.md`)
    yield* check(text.includes("simulated conversion"), `${name}.md holds ${JSON.stringify(text.slice(0, 80))}`)
  }
  yield* Console.error(`ok: Batch.run converted ${names.length} URL jobs through the reference server at ${server.baseUrl}`)
  // The web page, from the files the published package ships.
  const origin = server.baseUrl.replace(/\/v1$/, "")
  const get = (path: string) =>
    Effect.promise(() => fetch(`${origin}${path}`).then(async (r) => ({ status: r.status, text: await r.text() })))
  const page = yield* get("/")
  yield* check(page.status === 200 && page.text.includes("/assets/app.js"), `GET / answered ${page.status}`)
  const script = yield* get("/assets/app.js")
  yield* check(script.status === 200 && script.text.length > 0, `GET /assets/app.js answered ${script.status}`)
  yield* Console.error("ok: the web page and its script are served from the installed package's files")
}).pipe(
  Effect.scoped,
  Effect.provide(
    Server.layer({ keys: [apiKey], port: 0, host: "127.0.0.1" }).pipe(
      Layer.provide(SimulatedConverter.layer({ duration: "50 millis" }))
    )
  ),
  Effect.provide(NodeHttpClient.layerUndici),
  Effect.provide(NodeContext.layer),
  Effect.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

// Each part on its own fiber root, as two test files would be: the TestClock stays with the first.
Effect.runPromise(testClientUnderTestClock).then(
  () => NodeRuntime.runMain(batchAgainstReferenceServer),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`)
    process.exitCode = 1
  }
)
