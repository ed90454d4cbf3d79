import { assert, describe, it } from "@effect/vitest"
import { PdfTransformClient } from "@pdf-transform/core"
import { FakeServer } from "@pdf-transform/testing"
import { Chunk, Effect, Either, Fiber, Stream, TestClock } from "effect"
import { makeLayer, pdfURL } from "./utils.js"

const Client = PdfTransformClient.PdfTransformClient

const big = new Uint8Array(1_000_000).map((_, i) => i % 251)
const small = new Uint8Array(10_000).map((_, i) => i % 7)

const convertOne = Effect.gen(function*() {
  const client = yield* Client
  return yield* client.convert("epub", { pdfURL })
})

const collect = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Stream.runCollect(stream).pipe(Effect.map((chunks) => Buffer.concat(Chunk.toReadonlyArray(chunks))))

const downloads = Effect.flatMap(
  FakeServer.FakeServer,
  (server) =>
    Effect.map(server.requests, (all) => all.filter((r) => r.method === "GET" && !r.path.includes("/result/")))
)

describe("download", () => {
  it.effect("streams the whole output in several chunks, without the API key", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const done = yield* convertOne
      const chunks = yield* Stream.runCollect(client.download(done))
      assert.isAbove(chunks.length, 1)
      const bytes = Buffer.concat(Chunk.toReadonlyArray(chunks))
      assert.isTrue(bytes.equals(Buffer.from(big)))
      const [request] = yield* downloads
      assert.isUndefined(request?.headers["authorization"])
    }).pipe(Effect.provide(makeLayer({ server: { output: () => big } }))))

  it.effect("a body shorter than Content-Length is DownloadFailed, never a short file", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const server = yield* FakeServer.FakeServer
      const done = yield* convertOne
      yield* server.enqueueDownload(done.sessionId, { _tag: "Truncated" })
      const result = yield* Effect.either(collect(client.download(done)))
      assert.isTrue(Either.isLeft(result))
      if (Either.isLeft(result)) {
        assert.strictEqual(result.left._tag, "DownloadFailed")
        assert.strictEqual(result.left.expectedBytes, big.length)
        assert.isBelow(result.left.receivedBytes ?? big.length, big.length)
      }
    }).pipe(Effect.provide(makeLayer({ server: { output: () => big } }))))

  it.effect("an expired URL (410) is refreshed by polling the result once", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const server = yield* FakeServer.FakeServer
      const done = yield* convertOne
      yield* server.enqueueDownload(done.sessionId, { _tag: "Expired" })
      const bytes = yield* collect(client.download(done))
      assert.strictEqual(bytes.length, big.length)
      assert.lengthOf(yield* downloads, 2)
    }).pipe(Effect.provide(makeLayer({ server: { output: () => big } }))))

  it.effect("expired twice: DownloadFailed (refreshed only once)", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const server = yield* FakeServer.FakeServer
      const done = yield* convertOne
      yield* server.enqueueDownload(done.sessionId, { _tag: "Expired" }, { _tag: "Status", status: 403 })
      const result = yield* Effect.either(collect(client.download(done)))
      assert.isTrue(Either.isLeft(result) && result.left.status === 403)
      assert.lengthOf(yield* downloads, 2)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("a server error on the download is DownloadFailed with its status", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const server = yield* FakeServer.FakeServer
      const done = yield* convertOne
      yield* server.enqueueDownload(done.sessionId, { _tag: "Status", status: 500 })
      const result = yield* Effect.either(collect(client.download(done)))
      assert.isTrue(Either.isLeft(result) && result.left.status === 500)
    }).pipe(Effect.provide(makeLayer())))

  it.effect("a stalled download ends after the idle timeout", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const server = yield* FakeServer.FakeServer
      const done = yield* convertOne
      yield* server.enqueueDownload(done.sessionId, { _tag: "Fault", fault: { _tag: "SlowBody", delay: "1 hours" } })
      const fiber = yield* Effect.fork(Effect.either(collect(client.download(done))))
      yield* TestClock.adjust("61 seconds")
      const result = yield* Fiber.join(fiber)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "DownloadFailed")
    }).pipe(Effect.provide(makeLayer())))
})

describe("downloadBytes", () => {
  it.effect("reads a small output whole, without the API key", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const done = yield* convertOne
      const bytes = yield* client.downloadBytes(done)
      assert.isTrue(Buffer.from(bytes).equals(Buffer.from(small)))
      const [request] = yield* downloads
      assert.isUndefined(request?.headers["authorization"])
    }).pipe(Effect.provide(makeLayer({ server: { output: () => small } }))))

  it.effect("a large output (beyond the one-read size) is read as a stream, whole", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const done = yield* convertOne
      const bytes = yield* client.downloadBytes(done)
      assert.isTrue(Buffer.from(bytes).equals(Buffer.from(big)))
    }).pipe(Effect.provide(makeLayer({ server: { output: () => big } }))))

  it.effect("an output announced larger than maxBytes is DownloadFailed; a large body cut short fails whole", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const done = yield* convertOne
      const announced = yield* Effect.flip(client.downloadBytes(done, { maxBytes: 1000 }))
      assert.strictEqual(announced.expectedBytes, big.length)
      assert.include(announced.reason, "maxBytes (1000)")
      const server = yield* FakeServer.FakeServer
      yield* server.enqueueDownload(done.sessionId, { _tag: "Truncated" })
      const cut = yield* Effect.flip(client.downloadBytes(done))
      assert.strictEqual(cut.expectedBytes, big.length)
      assert.isBelow(cut.receivedBytes ?? big.length, big.length)
    }).pipe(Effect.provide(makeLayer({ server: { output: () => big } }))))

  it.effect("a short small body is DownloadFailed; an expired URL is refreshed once", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const server = yield* FakeServer.FakeServer
      const done = yield* convertOne
      yield* server.enqueueDownload(done.sessionId, { _tag: "Truncated" })
      const short = yield* Effect.flip(client.downloadBytes(done))
      assert.strictEqual(short.expectedBytes, small.length)
      assert.isBelow(short.receivedBytes ?? small.length, small.length)
      yield* server.enqueueDownload(done.sessionId, { _tag: "Expired" })
      const bytes = yield* client.downloadBytes(done)
      assert.strictEqual(bytes.length, small.length)
      assert.lengthOf(yield* downloads, 3)
    }).pipe(Effect.provide(makeLayer({ server: { output: () => small } }))))

  it.effect("a stalled small output ends after the idle timeout", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const server = yield* FakeServer.FakeServer
      const done = yield* convertOne
      yield* server.enqueueDownload(done.sessionId, { _tag: "Fault", fault: { _tag: "SlowBody", delay: "1 hours" } })
      const fiber = yield* Effect.fork(Effect.either(client.downloadBytes(done)))
      yield* TestClock.adjust("61 seconds")
      const result = yield* Fiber.join(fiber)
      assert.isTrue(Either.isLeft(result) && result.left.reason.startsWith("no data for"))
    }).pipe(Effect.provide(makeLayer({ server: { output: () => small } }))))
})
