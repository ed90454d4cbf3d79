/**
 * Core's ChunkedUploader through FakeServer's chunked upload protocol, files in memory, under
 * TestClock: one part, several parts with faults, resume, persistent failure, limits.
 */
import { HttpClient } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { ChunkedUploader, PdfTransformClient, Uploader } from "@pdf-transform/core"
import { FakeServer, MemoryFileSystem } from "@pdf-transform/testing"
import { Chunk, Effect, Fiber, Layer, Redacted, Stream, TestClock, Tracer } from "effect"
import { pdfOf } from "./support/pdfOf.js"

const MiB = 1024 * 1024
const apiKey = Redacted.make(FakeServer.defaultApiKey)
const uploadBaseUrl = `${FakeServer.defaultBaseUrl}/uploads`
const storage = "https://storage.fake.pdf-transform.test"

/** The uploader (no jitter: exact retry times), the client and the fake, over `files`. */
const stack = (
  files: MemoryFileSystem.MemoryFileSystem,
  server: FakeServer.Options = {},
  options: Partial<ChunkedUploader.Options> = {}
) =>
  Layer.mergeAll(
    ChunkedUploader.layer({ apiKey, uploadBaseUrl, retry: { jitter: false }, ...options }),
    PdfTransformClient.layer({ apiKey, baseUrl: FakeServer.defaultBaseUrl })
  ).pipe(Layer.provideMerge(Layer.merge(FakeServer.layer(server), files.layer)))

const withFile = (path: string, bytes: Uint8Array) => {
  const files = MemoryFileSystem.make()
  files.files.set(path, bytes)
  return files
}

/** The requests to presigned part URLs, and to the upload API. */
const traffic = Effect.map(Effect.flatMap(FakeServer.FakeServer, (server) => server.requests), (requests) => ({
  parts: requests.filter((r) => r.url.startsWith(storage)),
  api: requests.filter((r) => r.url.startsWith(uploadBaseUrl))
}))

const partOf = (url: string): number => Number(new URL(url).pathname.split("/").pop())

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Effect.map(Stream.runCollect(stream), Chunk.toArray)

interface RecordedSpan {
  readonly name: string
  readonly attributes: Map<string, unknown>
}

/** A tracer that keeps every span with its attributes. */
const recordingTracer = (spans: Array<RecordedSpan>) =>
  Tracer.make({
    span: (name, parent, context, links, startTime, kind) => {
      const attributes = new Map<string, unknown>()
      spans.push({ name, attributes })
      return {
        _tag: "Span",
        name,
        spanId: `span-${spans.length}`,
        traceId: "trace",
        parent,
        context,
        status: { _tag: "Started", startTime },
        attributes,
        links,
        sampled: true,
        kind,
        end: () => {},
        attribute: (key, value) => void attributes.set(key, value),
        event: () => {},
        addLinks: () => {}
      }
    },
    context: (f) => f()
  })

describe("ChunkedUploader through FakeServer", () => {
  it.effect("a span per upload and per part; no span holds a presigned URL or the key", () => {
    const files = withFile("/docs/big.pdf", pdfOf(12 * MiB))
    const spans: Array<RecordedSpan> = []
    // The fake behind `HttpClient.make`, as real platform clients are, so the platform's request spans are recorded.
    const platformLike = Layer.effect(
      HttpClient.HttpClient,
      Effect.map(FakeServer.FakeServer, (server) => HttpClient.make((request) => server.httpClient.execute(request)))
    )
    const uploader = ChunkedUploader.layer({ apiKey, uploadBaseUrl, retry: { jitter: false } }).pipe(
      Layer.provide(Layer.merge(platformLike, files.layer)),
      Layer.provideMerge(FakeServer.layer())
    )
    return Effect.gen(function*() {
      const url = yield* Effect.flatMap(Uploader.Uploader, (u) => u.upload({ path: "/docs/big.pdf" }))
      assert.strictEqual(url, "cache://upload-1.pdf")
      const upload = spans.filter((span) => span.name === "ChunkedUploader.upload")
      assert.lengthOf(upload, 1)
      assert.deepStrictEqual(Object.fromEntries(upload[0]!.attributes), {
        name: "big.pdf",
        bytes: 12 * MiB,
        uploadId: "upload-1",
        parts: 3
      })
      const parts = spans.filter((span) => span.name === "ChunkedUploader.part")
      assert.sameMembers(parts.map((span) => span.attributes.get("part")), [1, 2, 3])
      const http = spans.filter((span) => span.attributes.has("url.full"))
      assert.sameMembers(http.map((span) => span.attributes.get("http.request.method")), ["POST", "GET"])
      const everything = JSON.stringify(spans.map((span) => [span.name, [...span.attributes]]))
      assert.notInclude(everything, storage)
      assert.notInclude(everything, FakeServer.defaultApiKey)
    }).pipe(Effect.provide(uploader), Effect.withTracer(recordingTracer(spans)))
  })

  it.effect("a 1 KB file: one part, the key on init and url only, progress to the end, a cache:// URL that submits", () => {
    const file = pdfOf(1024)
    const files = withFile("/docs/paper.pdf", file)
    return Effect.gen(function*() {
      const uploader = yield* Uploader.Uploader
      const events = yield* collect(uploader.uploadWithProgress({ path: "/docs/paper.pdf" }))
      assert.deepStrictEqual(events, [
        { _tag: "Progress", sent: 0, total: 1024 },
        { _tag: "Progress", sent: 1024, total: 1024 },
        { _tag: "Uploaded", url: "cache://upload-1.pdf", bytes: 1024 }
      ])
      const [upload] = yield* Effect.flatMap(FakeServer.FakeServer, (server) => server.uploads)
      assert.deepStrictEqual(upload?.received, [1])
      assert.isTrue(upload?.completed)
      assert.deepStrictEqual(upload?.bytes, file)
      const { api, parts } = yield* traffic
      assert.deepStrictEqual(api.map((r) => `${r.method} ${r.path}`), [
        "POST /v1/uploads/init",
        "GET /v1/uploads/upload-1/url"
      ])
      assert.deepStrictEqual(api[0]?.body, { file_extension: ".pdf", size: 1024 })
      for (const request of api) {
        assert.strictEqual(request.headers["authorization"], `Bearer ${FakeServer.defaultApiKey}`)
      }
      assert.lengthOf(parts, 1)
      assert.strictEqual(parts[0]?.method, "PUT")
      assert.strictEqual(parts[0]?.headers["content-type"], "application/octet-stream")
      assert.isUndefined(parts[0]?.headers["authorization"])
      // The file was read as one range, never whole through readFile.
      assert.deepStrictEqual(files.reads.filter((read) => read.bytes > 8), [{
        path: "/docs/paper.pdf",
        offset: 0,
        bytes: 1024
      }])
      const client = yield* PdfTransformClient.PdfTransformClient
      const task = yield* client.submit("markdown", { pdfURL: "cache://upload-1.pdf" })
      const [created] = yield* Effect.flatMap(FakeServer.FakeServer, (server) => server.tasks)
      assert.strictEqual((created?.request as { pdfURL: string }).pdfURL, "cache://upload-1.pdf")
      assert.strictEqual(task.format, "markdown")
    }).pipe(Effect.provide(stack(files)))
  })

  it.effect("23 MiB: five parts from disk, part 2 fails twice (503, reset mid-part) then passes, part 1 answers last", () => {
    const file = pdfOf(23 * MiB)
    const files = withFile("/docs/big.pdf", file)
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const uploader = yield* Uploader.Uploader
      yield* server.enqueuePart(1, { _tag: "Fault", fault: { _tag: "SlowBody", delay: "10 seconds" } })
      yield* server.enqueuePart(2, { _tag: "Fault", fault: { _tag: "ServerError", status: 503 } }, {
        _tag: "ResetMidPart"
      })
      const fiber = yield* Effect.fork(collect(uploader.uploadWithProgress({ path: "/docs/big.pdf" })))
      yield* TestClock.adjust("1 minute")
      const events = yield* Fiber.join(fiber)
      assert.deepStrictEqual(events[events.length - 1], {
        _tag: "Uploaded",
        url: "cache://upload-1.pdf",
        bytes: 23 * MiB
      })
      const sent = events.flatMap((event) => event._tag === "Progress" ? [event.sent] : [])
      assert.strictEqual(sent[sent.length - 1], 23 * MiB)
      assert.isTrue(sent.some((value, i) => i > 0 && value < sent[i - 1]!), "a retried part is counted again")

      const [upload] = yield* server.uploads
      assert.deepStrictEqual(upload?.received, [1, 2, 3, 4, 5])
      assert.isTrue(upload?.bytes.every((byte, i) => byte === file[i]))
      const { api, parts } = yield* traffic
      assert.isTrue(parts.every((request) => request.headers["authorization"] === undefined))
      // Part 2: the first attempt at once, the others after 1 s and 2 s of backoff.
      assert.deepStrictEqual(parts.filter((r) => partOf(r.url) === 2).map((r) => r.at), [0, 1000, 3000])
      // Parts 4 and 5 took the slots of parts that ended before part 1's answer (10 s): out of order.
      for (const part of [4, 5]) {
        const sentAt = parts.find((r) => partOf(r.url) === part)?.at
        assert.isBelow(sentAt ?? Infinity, 10_000, `part ${part}`)
      }
      const url = api.find((r) => r.path.endsWith("/url"))
      assert.strictEqual(url?.at, 10_000)
      // Read in ranges of at most one part, never the whole file.
      assert.isTrue(files.reads.every((read) => read.bytes <= 5 * MiB))
    }).pipe(Effect.provide(stack(files)))
  })

  it.effect("a part that keeps failing ends as UploadFailed naming the part, its status and the upload to resume", () => {
    const files = withFile("/docs/big.pdf", pdfOf(12 * MiB))
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const uploader = yield* Uploader.Uploader
      const failure = { _tag: "Fault", fault: { _tag: "ServerError", status: 502 } } as const
      yield* server.enqueuePart(3, failure, failure, failure, failure, failure, failure)
      const fiber = yield* Effect.fork(Effect.flip(uploader.upload({ path: "/docs/big.pdf" })))
      yield* TestClock.adjust("1 minute")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "UploadFailed")
      if (error._tag !== "UploadFailed") return
      assert.strictEqual(error.step, "part")
      assert.strictEqual(error.part, 3)
      assert.strictEqual(error.status, 502)
      assert.strictEqual(error.attempts, 5)
      assert.strictEqual(error.uploadId, "upload-1")
      assert.include(error.bodyExcerpt ?? "", "Service Unavailable")
      assert.include(error.message, "part 3 (HTTP 502) after 5 attempt(s)")
      const { api, parts } = yield* traffic
      assert.strictEqual(parts.filter((r) => partOf(r.url) === 3).length, 5)
      assert.isFalse(api.some((r) => r.path.endsWith("/url")), "no url request after a failed part")
    }).pipe(Effect.provide(stack(files)))
  })

  it.effect("resume: init reports the parts already uploaded and only the others are sent", () => {
    const file = pdfOf(12 * MiB)
    const files = withFile("/docs/big.pdf", file)
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      const uploader = yield* Uploader.Uploader
      const refused = { _tag: "Fault", fault: { _tag: "ResetBeforeSend" } } as const
      yield* server.enqueuePart(2, refused, refused)
      const first = yield* Effect.flip(uploader.upload({ path: "/docs/big.pdf" }))
      assert.strictEqual(first._tag, "UploadFailed")
      const uploadId = first._tag === "UploadFailed" ? first.uploadId : undefined
      assert.strictEqual(uploadId, "upload-1")
      const before = (yield* traffic).parts.length
      assert.deepStrictEqual((yield* server.uploads)[0]?.received, [1, 3])

      const url = yield* uploader.upload({ path: "/docs/big.pdf", resume: uploadId })
      assert.strictEqual(url, "cache://upload-1.pdf")
      const { api, parts } = yield* traffic
      assert.deepStrictEqual(parts.slice(before).map((r) => partOf(r.url)), [2])
      assert.deepStrictEqual(api.filter((r) => r.path.endsWith("/init")).map((r) => r.body), [
        { file_extension: ".pdf", size: 12 * MiB },
        { file_extension: ".pdf", size: 12 * MiB, upload_id: "upload-1" }
      ])
      const [upload] = yield* server.uploads
      assert.lengthOf(yield* server.uploads, 1)
      assert.deepStrictEqual(upload?.bytes, file)
    }).pipe(Effect.provide(stack(files, {}, { retry: { attempts: 2, jitter: false, initialDelay: 0 } })))
  })

  it.effect("a file that shrinks during the upload fails at step read, without retries", () => {
    const files = withFile("/docs/big.pdf", pdfOf(8 * MiB))
    files.statSizes.set("/docs/big.pdf", 12 * MiB)
    return Effect.gen(function*() {
      const uploader = yield* Uploader.Uploader
      const error = yield* Effect.flip(uploader.upload({ path: "/docs/big.pdf" }))
      assert.deepInclude(error, { _tag: "UploadFailed", step: "read", part: 2, attempts: 1, uploadId: "upload-1" })
      assert.include(error.message, "changed while it was uploaded")
      const [upload] = yield* Effect.flatMap(FakeServer.FakeServer, (server) => server.uploads)
      assert.isFalse(upload?.received.includes(2))
    }).pipe(Effect.provide(stack(files)))
  })

  it.effect("too large: a known limit fails before any request; a 413's max_bytes is remembered", () => {
    const files = MemoryFileSystem.make()
    files.files.set("/a.pdf", pdfOf(3000))
    files.files.set("/b.pdf", pdfOf(2500))
    return Effect.gen(function*() {
      const uploader = yield* Uploader.Uploader
      const first = yield* Effect.flip(uploader.upload({ path: "/a.pdf" }))
      assert.deepInclude(first, { _tag: "UploadTooLarge", name: "a.pdf", bytes: 3000, maxBytes: 2000 })
      assert.lengthOf((yield* traffic).api, 1)
      const second = yield* Effect.flip(uploader.upload({ path: "/b.pdf" }))
      assert.deepInclude(second, { _tag: "UploadTooLarge", bytes: 2500, maxBytes: 2000 })
      assert.lengthOf((yield* traffic).api, 1, "the second was refused before any request")
    }).pipe(Effect.provide(stack(files, { uploads: { maxBytes: 2000 } })))
  })

  it.effect("bytes in memory, answers without the data envelope, a small part size: the same upload", () => {
    const file = pdfOf(10_000)
    return Effect.gen(function*() {
      const uploader = yield* Uploader.Uploader
      const url = yield* uploader.upload({ name: "mem.pdf", bytes: file })
      assert.strictEqual(url, "cache://upload-1.pdf")
      const [upload] = yield* Effect.flatMap(FakeServer.FakeServer, (server) => server.uploads)
      assert.deepStrictEqual(upload?.received, [1, 2, 3])
      assert.deepStrictEqual(upload?.bytes, file)
    }).pipe(Effect.provide(stack(MemoryFileSystem.make(), { uploads: { envelope: false, partSize: 4096 } })))
  })

  it.effect("refusals: a wrong key is Unauthenticated; a missing file, an empty one or not a PDF send nothing", () => {
    const files = MemoryFileSystem.make()
    files.files.set("/empty.pdf", new Uint8Array(0))
    files.files.set("/notes.pdf", new TextEncoder().encode("Dear diary"))
    files.files.set("/ok.pdf", pdfOf(100))
    return Effect.gen(function*() {
      const uploader = yield* Uploader.Uploader
      for (
        const [path, problem] of [["/missing.pdf", "cannot read"], ["/empty.pdf", "empty"], ["/notes.pdf", "not a PDF"]]
      ) {
        const error = yield* Effect.flip(uploader.upload({ path: path! }))
        assert.strictEqual(error._tag, "InvalidRequest", path)
        assert.include(error.message, problem!)
      }
      assert.lengthOf((yield* traffic).api, 0)
      const refused = yield* Effect.flip(uploader.upload({ path: "/ok.pdf" }))
      assert.strictEqual(refused._tag, "Unauthenticated")
      assert.lengthOf((yield* traffic).parts, 0)
    }).pipe(Effect.provide(stack(files, {}, { apiKey: Redacted.make("wrong-key") })))
  })
})
