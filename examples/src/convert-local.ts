/**
 * The whole stack on one machine, no account needed: starts the reference server in-process on a
 * free 127.0.0.1 port with the live converter (worker threads), uploads PDFs from disk with core's
 * ChunkedUploader (the hosted service's protocol, which the server speaks under /v1/uploads; upload
 * progress shown), converts them with the real PdfTransformClient (progress shown), and writes the
 * outputs.
 *
 *   tsx src/convert-local.ts [--to markdown|epub] [--out DIR] [file.pdf ...]
 *
 * With no file it converts the repository corpus' tracemonkey.pdf. (The CLI package will replace this
 * with `pdf-transform convert`.)
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import { ChunkedUploader, Contract, PdfTransformClient, Uploader } from "@pdf-transform/core"
import * as Server from "@pdf-transform/server/Server"
import { Console, Effect, Layer, Logger, LogLevel, Option, Redacted, Stream } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const args = process.argv.slice(2)
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const format = Contract.Format.literals.find((f) => f === (flag("--to") ?? "markdown"))
const outDir = Path.resolve(flag("--out") ?? "out")
const files = args.filter((arg, i) => !arg.startsWith("--") && !args[i - 1]?.startsWith("--"))
const corpusDefault = fileURLToPath(new URL("../../corpus/text/tracemonkey.pdf", import.meta.url))

const inputs = (): ReadonlyArray<Uploader.UploadPath> =>
  files.length > 0 ? files.map((path) => ({ path })) : [{
    path: corpusDefault
  }]

/** Written to a temporary name, then renamed: an output is whole or absent. */
const writeAtomically = <E>(target: string, chunks: Stream.Stream<Uint8Array, E>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const temp = `${target}.${Crypto.randomUUID()}.part`
      return { temp, fd: Fs.openSync(temp, "wx") }
    }),
    ({ fd, temp }) =>
      Stream.runForEach(chunks, (chunk) => Effect.sync(() => Fs.writeSync(fd, chunk))).pipe(
        Effect.zipRight(Effect.sync(() => {
          Fs.fsyncSync(fd)
          Fs.renameSync(temp, target)
        }))
      ),
    ({ fd, temp }, exit) =>
      Effect.sync(() => {
        Fs.closeSync(fd)
        if (exit._tag === "Failure") Fs.rmSync(temp, { force: true })
      })
  )

/** Uploads the file streamed from disk, printing the bytes sent; answers the URL to submit. */
const upload = (file: Uploader.UploadPath) =>
  Effect.gen(function*() {
    const uploader = yield* Uploader.Uploader
    let pdfURL = ""
    yield* Stream.runForEach(uploader.uploadWithProgress(file), (event) => {
      if (event._tag === "Uploaded") {
        pdfURL = event.url
        return Console.log(`${Uploader.nameOf(file)}: uploaded ${event.bytes} bytes as ${event.url}`)
      }
      return Console.log(`${Uploader.nameOf(file)}: sent ${event.sent} of ${event.total} bytes`)
    })
    return pdfURL
  })

const convertOne = (file: Uploader.UploadPath, to: Contract.Format) =>
  Effect.gen(function*() {
    const client = yield* PdfTransformClient.PdfTransformClient
    const fileName = Uploader.nameOf(file)
    const name = fileName.replace(/\.pdf$/i, "")
    const pdfURL = yield* upload(file)
    const task = yield* client.submit(to, { pdfURL, filename: name })
    const percent = (status: PdfTransformClient.Status) =>
      status.progress === undefined ? "" : ` ${Math.round(status.progress)}%`
    const last = yield* client.watch(task, { initialInterval: "200 millis", maxInterval: "1 seconds" }).pipe(
      // One line per change: a poll that finds the task where the previous one did says nothing new.
      Stream.changesWith((a, b) => a.state === b.state && percent(a) === percent(b)),
      Stream.tap((status) => Console.log(`${fileName}: ${status.state}${percent(status)}`)),
      Stream.runLast
    )
    // `watch` ends at a terminal status, or fails (PollTimeout and the like).
    if (Option.isNone(last) || !PdfTransformClient.isTerminal(last.value)) {
      return yield* Effect.dieMessage(`${fileName}: the wait ended without a final status`)
    }
    const completed = yield* PdfTransformClient.completion(task, last.value)
    const target = Path.join(outDir, `${name}${to === "markdown" ? ".md" : ".epub"}`)
    yield* writeAtomically(target, client.download(completed))
    yield* Console.log(`${fileName} -> ${target} (${Fs.statSync(target).size} bytes)`)
  })

const program = Effect.gen(function*() {
  if (format === undefined) return yield* Effect.dieMessage("--to must be markdown or epub")
  Fs.mkdirSync(outDir, { recursive: true })
  for (const file of inputs()) yield* convertOne(file, format)
})

// A key made for this run only: the server is reachable on 127.0.0.1 while the program runs.
const apiKey = Redacted.make(Crypto.randomBytes(24).toString("base64url"))

const ServerLive = Server.layer({ keys: [apiKey], port: 0, host: "127.0.0.1" }).pipe(
  Layer.provide(ConverterLive.layer())
)

const ClientsLive = Layer.unwrapEffect(Effect.map(Server.Server, ({ baseUrl }) =>
  Layer.merge(
    PdfTransformClient.layer({ baseUrl, apiKey }),
    ChunkedUploader.layer({ uploadBaseUrl: `${baseUrl}/uploads`, apiKey })
  ))).pipe(
    Layer.provideMerge(ServerLive),
    Layer.provide(Layer.merge(NodeHttpClient.layerUndici, NodeFileSystem.layer))
  )

NodeRuntime.runMain(
  program.pipe(Effect.provide(ClientsLive), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))
)
