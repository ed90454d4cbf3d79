/**
 * End to end over real sockets: core's PdfTransformClient and its uploaders (ServerUploader's
 * `POST /v1/files`, ChunkedUploader's `/v1/uploads`) against Server.layer on 127.0.0.1 (a free
 * port), converting corpus PDFs with the live converter (worker threads) unless
 * PDF_TRANSFORM_E2E_CONVERTER=simulated.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { assert, describe, it } from "@effect/vitest"
import { Converter } from "@pdf-transform/converter/Converter"
import * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import * as ChunkedUploader from "@pdf-transform/core/ChunkedUploader"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import * as ServerUploader from "@pdf-transform/core/ServerUploader"
import * as Uploader from "@pdf-transform/core/Uploader"
import { Chunk, Effect, Either, Layer, Logger, LogLevel, Redacted, Stream } from "effect"
import { strFromU8, unzipSync } from "fflate"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import * as Server from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import { corpusUrl, digestConverter, digestOf, fakePdf } from "./utils.js"

const apiKey = "e2e-key"
const useLive = process.env["PDF_TRANSFORM_E2E_CONVERTER"] !== "simulated"
console.info(`E2E converter: ${useLive ? "live (ConverterLive.layer, worker threads)" : "simulated"}`)

const liveConverter: Layer.Layer<Converter> = ConverterLive.layer({ size: 2 }).pipe(Layer.orDie)

const poll: PdfTransformClient.PollOptions = {
  initialInterval: "100 millis",
  maxInterval: "500 millis",
  factor: 1.5,
  jitter: false,
  deadline: "120 seconds"
}

/** The server, the client and the uploader, all over 127.0.0.1. */
const stack = (
  serverOptions: Partial<Server.Options> = {},
  converter: Layer.Layer<Converter> = useLive ? liveConverter : SimulatedConverter.layer({ duration: "200 millis" }),
  clientKey = apiKey
) => {
  // The converter is provided to the test as well, for conversions without the server. A test's
  // end stops conversions still running at once (no drain), as the tests of 429s leave one running.
  const server = Server.layer({
    keys: [Redacted.make(apiKey)],
    port: 0,
    host: "127.0.0.1",
    drainTimeout: 0,
    ...serverOptions
  }).pipe(
    Layer.provideMerge(converter)
  )
  const clients = Layer.unwrapEffect(Effect.map(Server.Server, ({ baseUrl }) =>
    Layer.merge(
      PdfTransformClient.layer({
        baseUrl,
        apiKey: Redacted.make(clientKey),
        poll,
        submitRetry: { maxAttempts: 1 }
      }),
      ServerUploader.layer({ baseUrl, apiKey: Redacted.make(clientKey) })
    )))
  return clients.pipe(
    Layer.provideMerge(server),
    Layer.provideMerge(Layer.merge(NodeHttpClient.layerUndici, NodeFileSystem.layer)),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)),
    Layer.orDie
  )
}

const corpusFile = (path: string) => {
  const url = new URL(path, corpusUrl)
  return { name: path.split("/").pop()!, bytes: new Uint8Array(Fs.readFileSync(url)) }
}

const collect = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Effect.map(Stream.runCollect(stream), (chunks) => Buffer.concat(Chunk.toReadonlyArray(chunks)))

const convertFile = (path: string, format: "markdown" | "epub") =>
  Effect.gen(function*() {
    const uploader = yield* Uploader.Uploader
    const client = yield* PdfTransformClient.PdfTransformClient
    const pdfURL = yield* uploader.upload(corpusFile(path))
    const completed = yield* client.convert(
      format,
      { pdfURL, filename: path.split("/").pop()!.replace(/\.pdf$/, "") },
      poll
    )
    return yield* collect(client.download(completed))
  }).pipe(Effect.catchTag("DownloadFailed", Effect.die))

describe("e2e: corpus conversions", () => {
  it.live(
    "tracemonkey.pdf to Markdown and shared-mime-info-spec.pdf to EPUB, downloaded",
    () =>
      Effect.gen(function*() {
        const markdown = (yield* convertFile("text/tracemonkey.pdf", "markdown")).toString("utf8")
        if (useLive) assert.match(markdown, /Trace-based Just-in-Time/i)
        assert.isAbove(markdown.length, useLive ? 10_000 : 10)
        const epub = yield* convertFile("text/shared-mime-info-spec.pdf", "epub")
        const entries = unzipSync(new Uint8Array(epub))
        assert.strictEqual(Object.keys(entries)[0], "mimetype")
        assert.strictEqual(strFromU8(entries["mimetype"]!), "application/epub+zip")
        assert.isDefined(entries["META-INF/container.xml"])
      }).pipe(Effect.provide(stack())),
    { timeout: 180_000 }
  )

  it.live.skipIf(!useLive)(
    "corrupt and encrypted files end as failed with a clear reason",
    () =>
      Effect.gen(function*() {
        const outcomes: Array<string> = []
        for (
          const [path, expected] of [
            ["broken/ocrmypdf-invalid.pdf", /readable|invalid|PDF/i],
            ["broken/REDHAT-1531897-0.pdf", /readable|invalid|PDF/i],
            ["encrypted/issue6010_1.pdf", /password|encrypted/i],
            ["encrypted/pr6531_1.pdf", /password|encrypted/i]
          ] as const
        ) {
          const result = yield* Effect.either(convertFile(path, "markdown"))
          if (Either.isRight(result)) {
            outcomes.push(`${path}: converted`)
          } else if (result.left._tag !== "ConversionFailed") {
            outcomes.push(`${path}: ${result.left._tag} ${result.left.message}`)
          } else if (!expected.test(result.left.reason)) {
            outcomes.push(`${path}: unclear reason "${result.left.reason}"`)
          }
        }
        assert.deepStrictEqual(outcomes, [])
      }).pipe(Effect.provide(stack())),
    { timeout: 180_000 }
  )
})

/** The entries of an EPUB, its `dcterms:modified` (the time of the build) blanked out. */
const epubEntries = (epub: Uint8Array): Record<string, string> =>
  Object.fromEntries(
    Object.entries(unzipSync(epub)).map(([name, bytes]) => [
      name,
      strFromU8(bytes).replace(/(<meta property="dcterms:modified">)[^<]*(<\/meta>)/, "$1$2")
    ])
  )

/** Core's ChunkedUploader pointed at the server's `/v1/uploads`. */
const chunkedUploader = Effect.flatMap(
  Server.Server,
  ({ baseUrl }) => ChunkedUploader.make({ uploadBaseUrl: `${baseUrl}/uploads`, apiKey: Redacted.make(apiKey) })
)

describe("e2e: chunked upload with core's ChunkedUploader", () => {
  it.live(
    "tracemonkey.pdf uploaded from disk and converted from its cache:// URL: Markdown and EPUB equal to a direct conversion",
    () =>
      Effect.gen(function*() {
        const uploader = yield* chunkedUploader
        const client = yield* PdfTransformClient.PdfTransformClient
        const converter = yield* Converter
        const path = fileURLToPath(new URL("text/tracemonkey.pdf", corpusUrl))
        const pdfURL = yield* uploader.upload({ path })
        assert.match(pdfURL, /^cache:\/\/[0-9a-f-]{36}\.pdf$/)
        const request = { pdfURL, filename: "tracemonkey" }
        const markdown = yield* collect(client.download(yield* client.convert("markdown", request, poll)))
        const epub = yield* collect(client.download(yield* client.convert("epub", request, poll)))

        const pdf = new Uint8Array(Fs.readFileSync(path))
        const options = { filename: "tracemonkey", ignorePdfErrors: true, ignoreOcrErrors: true }
        const direct = yield* converter.toMarkdown(pdf, options)
        assert.isAbove(markdown.byteLength, 0)
        assert.strictEqual(markdown.toString("utf8"), direct.output)
        const directEpub = yield* converter.toEpub(pdf, options)
        assert.deepStrictEqual(epubEntries(new Uint8Array(epub)), epubEntries(directEpub.output))
      }).pipe(Effect.provide(stack())),
    { timeout: 180_000 }
  )

  it.live("a 12 MiB file goes in three parts over 127.0.0.1 and arrives byte for byte", () =>
    Effect.gen(function*() {
      const uploader = yield* chunkedUploader
      const client = yield* PdfTransformClient.PdfTransformClient
      const file = fakePdf(12 * 1024 * 1024)
      for (let offset = 4096; offset < file.byteLength; offset += 4096) file[offset] = (offset / 4096) % 251
      const path = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "e2e-upload-")), "big.pdf")
      Fs.writeFileSync(path, file)
      const events = yield* Stream.runCollect(uploader.uploadWithProgress({ path })).pipe(
        Effect.map(Chunk.toReadonlyArray),
        Effect.ensuring(Effect.sync(() => Fs.rmSync(Path.dirname(path), { recursive: true, force: true })))
      )
      const last = events[events.length - 1]
      assert.strictEqual(last?._tag, "Uploaded")
      const sent = events.flatMap((event) => event._tag === "Progress" ? [event.sent] : [])
      assert.strictEqual(sent[sent.length - 1], file.byteLength)
      const pdfURL = last?._tag === "Uploaded" ? last.url : ""
      const output = yield* collect(client.download(yield* client.convert("markdown", { pdfURL }, poll)))
      assert.strictEqual(output.toString("utf8"), digestOf(file))
    }).pipe(Effect.provide(stack({}, Layer.succeed(Converter, digestConverter)))), { timeout: 60_000 })
})

describe("e2e: typed errors seen by the real client", () => {
  const tinyPdf = { name: "tiny.pdf", bytes: new TextEncoder().encode("%PDF-1.4\n%%EOF\n") }
  const slow = SimulatedConverter.layer({ duration: "60 seconds" })

  const submitTwice = Effect.gen(function*() {
    const uploader = yield* Uploader.Uploader
    const client = yield* PdfTransformClient.PdfTransformClient
    const pdfURL = yield* uploader.upload(tinyPdf)
    const first = yield* client.submit("markdown", { pdfURL })
    assert.isAbove(first.rateLimit.policies.length, 0)
    return yield* Effect.flip(client.submit("markdown", { pdfURL }))
  })

  for (
    const [reason, limits] of [
      ["rate_exceeded", { rate: { limit: 1, window: "1 hour" }, quota: false, concurrency: false }],
      ["quota_exceeded", { rate: false, quota: { limit: 1, window: "1 hour" }, concurrency: false }],
      ["concurrency_exceeded", { rate: false, quota: false, concurrency: 1 }]
    ] as const
  ) {
    it.live(`429 ${reason} is RateLimited with its reason`, () =>
      Effect.gen(function*() {
        const error = yield* submitTwice
        assert.strictEqual(error._tag, "RateLimited")
        if (error._tag === "RateLimited") {
          assert.strictEqual(error.reason, reason)
          assert.isAbove(error.retryAfterMs ?? 0, 0)
          assert.isAbove(error.rateLimit.policies.length, 0)
        }
      }).pipe(Effect.provide(stack({ limits }, slow))), { timeout: 30_000 })
  }

  it.live("401 is Unauthenticated for the client and the uploader", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const uploader = yield* Uploader.Uploader
      const submitError = yield* Effect.flip(client.submit("markdown", { pdfURL: "http://127.0.0.1/v1/files/x" }))
      assert.strictEqual(submitError._tag, "Unauthenticated")
      if (submitError._tag === "Unauthenticated") {
        assert.match(submitError.challenge ?? "", /^Bearer realm="pdf-transform"/)
        assert.match(submitError.resolution, /Authorization: Bearer/)
      }
      const uploadError = yield* Effect.flip(uploader.upload(tinyPdf))
      assert.strictEqual(uploadError._tag, "Unauthenticated")
    }).pipe(Effect.provide(stack({}, slow, "not-the-key"))), { timeout: 30_000 })

  it.live(
    "the uploader refuses a non-PDF before sending, and reports an unreachable server",
    () =>
      Effect.gen(function*() {
        const uploader = yield* Uploader.Uploader
        const invalid = yield* Effect.flip(uploader.upload({ name: "a.txt", bytes: new TextEncoder().encode("hello") }))
        assert.strictEqual(invalid._tag, "InvalidRequest")
        const unreachable = yield* Effect.flip(
          Effect.flatMap(
            ServerUploader.make({ baseUrl: "http://127.0.0.1:1/v1", apiKey: Redacted.make(apiKey) }),
            (u) => u.upload(tinyPdf)
          )
        )
        assert.strictEqual(unreachable._tag, "TransportError")
        if (unreachable._tag === "TransportError") assert.isFalse(unreachable.sent)
      }).pipe(Effect.provide(stack({}, slow))),
    { timeout: 30_000 }
  )

  it.live(
    "a file over the server's upload limit is UploadTooLarge for both uploaders; a known limit sends nothing",
    () =>
      Effect.gen(function*() {
        const { baseUrl } = yield* Server.Server
        const big = { name: "big.pdf", bytes: fakePdf(2 * 1024 * 1024) }
        const uploader = yield* Uploader.Uploader
        const direct = yield* Effect.flip(uploader.upload(big))
        assert.deepInclude(direct, { _tag: "UploadTooLarge", name: "big.pdf", bytes: 2 * 1024 * 1024 })
        const chunked = yield* chunkedUploader
        const refused = yield* Effect.flip(chunked.upload(big))
        assert.deepInclude(refused, { _tag: "UploadTooLarge", bytes: 2 * 1024 * 1024, maxBytes: 1024 * 1024 })
        const unreachable = yield* ServerUploader.make({
          baseUrl: "http://127.0.0.1:1/v1",
          apiKey: Redacted.make(apiKey),
          maxBytes: 1024 * 1024
        })
        // Refused before any connection: port 1 would have answered with a TransportError.
        assert.strictEqual((yield* Effect.flip(unreachable.upload(big)))._tag, "UploadTooLarge")
        assert.isString(baseUrl)
      }).pipe(Effect.provide(stack({ uploads: { maxBytes: 1024 * 1024 } }, slow))),
    { timeout: 30_000 }
  )

  it.live("a completed task downloads through the client with the simulated converter", () =>
    Effect.gen(function*() {
      const uploader = yield* Uploader.Uploader
      const client = yield* PdfTransformClient.PdfTransformClient
      const pdfURL = yield* uploader.upload(tinyPdf)
      const completed = yield* client.convert("markdown", { pdfURL, filename: "tiny" }, poll)
      const text = (yield* collect(client.download(completed))).toString("utf8")
      assert.match(text, /^# tiny\n/)
      const missing = yield* Effect.flip(client.status(PdfTransformClient.task("epub", completed.sessionId)))
      assert.strictEqual(missing._tag, "TaskNotFound")
    }).pipe(Effect.provide(stack({}, SimulatedConverter.layer({ duration: "300 millis" })))), { timeout: 30_000 })
})
