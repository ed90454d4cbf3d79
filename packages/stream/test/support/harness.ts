/**
 * The batch over the real client and FakeServer, with an in-memory file system and a recording
 * Uploader, driven under TestClock.
 */
import { ChunkedUploader, PdfTransformClient, ServerUploader } from "@pdf-transform/core"
import * as Uploader from "@pdf-transform/core/Uploader"
import { FakeServer, MemoryFileSystem, TestClockDriver } from "@pdf-transform/testing"
import { Chunk, Duration, Effect, type Fiber, Layer, Redacted, Stream } from "effect"
import type { BatchEvent, Job } from "../../src/index.js"
import { Batch, Journal } from "../../src/index.js"

export const baseUrl = "https://fake.pdf-transform.test/v1"
export const outDir = "/out"

/** A timeline of `seconds`, with linear progress each second. */
export const linear = (seconds: number): FakeServer.Timeline => [
  ...Array.from({ length: seconds - 1 }, (_, i) => ({
    after: Duration.seconds(i + 1),
    status: { state: "processing" as const, progress: Math.round(((i + 1) / seconds) * 100) }
  })),
  { after: Duration.seconds(seconds), status: { state: "completed" as const } }
]

export interface Uploads {
  readonly names: Array<string>
  readonly sources: Array<"path" | "bytes">
}

/** An Uploader that answers a URL per file and records the names (and whether it was given a path). */
export const recordingUploader = (uploads: Uploads) =>
  Layer.succeed(
    Uploader.Uploader,
    Uploader.make((source) =>
      Effect.sync(() => {
        const name = Uploader.nameOf(source)
        uploads.names.push(name)
        uploads.sources.push("path" in source ? "path" : "bytes")
        const url = `https://files.example.test/${uploads.names.length}/${encodeURIComponent(name)}`
        return { _tag: "Uploaded", url, bytes: "bytes" in source ? source.bytes.byteLength : 0 }
      })
    )
  )

export interface Harness {
  readonly memory: MemoryFileSystem.MemoryFileSystem
  readonly uploads: Uploads
  readonly layer: Layer.Layer<
    Batch.Requirements | FakeServer.FakeServer | Uploader.Uploader
  >
}

export const make = (options: {
  readonly server?: FakeServer.Options
  readonly client?: Partial<PdfTransformClient.Options>
  readonly journal?: Layer.Layer<Journal.Journal, never, never> | "file"
  readonly memory?: MemoryFileSystem.MemoryFileSystem
  /**
   * The recording Uploader (default), core's ChunkedUploader through the fake's upload protocol, or
   * core's ServerUploader (the reference server's `POST /v1/files`, which the fake does not serve:
   * for connection failures only).
   */
  readonly uploader?: "recording" | "chunked" | "server"
} = {}): Harness => {
  const memory = options.memory ?? MemoryFileSystem.make()
  const uploads: Uploads = { names: [], sources: [] }
  const journal = options.journal === "file" ?
    Layer.orDie(Journal.layerFile("/state/journal.jsonl")).pipe(Layer.provide(memory.layer)) :
    options.journal ?? Journal.layerMemory
  const apiKey = Redacted.make(FakeServer.defaultApiKey)
  const uploader = options.uploader === "chunked"
    ? ChunkedUploader.layer({ apiKey, uploadBaseUrl: `${baseUrl}/uploads`, retry: { jitter: false } }).pipe(
      Layer.provide(memory.layer)
    )
    : options.uploader === "server"
    ? ServerUploader.layer({ apiKey, baseUrl }).pipe(Layer.provide(memory.layer))
    : recordingUploader(uploads)
  const clients = Layer.merge(
    PdfTransformClient.layer({
      apiKey,
      baseUrl,
      ...options.client,
      poll: { jitter: false, initialInterval: "500 millis", maxInterval: "2 seconds", ...options.client?.poll }
    }),
    uploader
  ).pipe(Layer.provideMerge(FakeServer.layer({ baseUrl, ...options.server })))
  return {
    memory,
    uploads,
    layer: Layer.mergeAll(clients, journal, memory.layer)
  }
}

/** Moves the TestClock to `target` (Clock time), stopping at each wake-up on the way. */
export const advanceTo = TestClockDriver.advanceTo

/** Moves the TestClock forward by `ms`, wake-up by wake-up. */
export const advance = (ms: number) => TestClockDriver.advance(ms)

/**
 * Runs the fiber to its end, moving the TestClock from wake-up to wake-up; dies when nothing is
 * left to wake and the fiber still waits (a deadlock), or after `limit` ms of Clock time.
 */
export const drive = <A, E>(fiber: Fiber.Fiber<A, E>, limit = 3_600_000) =>
  TestClockDriver.runUntilDone(fiber, { limit })

/** Runs a batch to its end under TestClock and answers every event. */
export const events = <R>(run: Stream.Stream<BatchEvent.BatchEvent, unknown, R>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(Stream.runCollect(run))
    return Chunk.toReadonlyArray(yield* drive(fiber))
  })

/** Runs a batch to its end under TestClock and answers its summary. */
export const run = (jobs: ReadonlyArray<Job.Job>, options: Partial<Batch.Options> = {}) =>
  Effect.flatMap(
    Effect.fork(Batch.run(jobs, { outputDirectory: outDir, ...options })),
    (fiber) => drive(fiber)
  )

/** The events of one kind. */
export const ofTag = <T extends BatchEvent.BatchEvent["_tag"]>(
  all: ReadonlyArray<BatchEvent.BatchEvent>,
  tag: T
): ReadonlyArray<Extract<BatchEvent.BatchEvent, { readonly _tag: T }>> =>
  all.filter((event): event is Extract<BatchEvent.BatchEvent, { readonly _tag: T }> => event._tag === tag)

/** Submit requests the fake received, with their Clock times. */
export const submits = Effect.flatMap(
  FakeServer.FakeServer,
  (server) => Effect.map(server.requests, (all) => all.filter((r) => r.method === "POST" && r.path.endsWith("/submit")))
)

/** `count` PDFs in the memory file system under /in, named `doc-<i>.pdf`, each distinct. */
export const pdfs = (memory: MemoryFileSystem.MemoryFileSystem, count: number, folder = "/in") =>
  Array.from({ length: count }, (_, i) => {
    const path = `${folder}/doc-${i}.pdf`
    memory.files.set(path, new TextEncoder().encode(`%PDF-1.4\n% document ${folder} ${i}\n%%EOF\n`))
    return path
  })

export { outDir as defaultOutDir }
