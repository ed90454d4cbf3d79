/**
 * Outputs are whole or absent, on a real disk: a stream that fails half-way, or is interrupted,
 * leaves the target as it was and no temporary file; a download goes straight to its path.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { assert, describe, it } from "@effect/vitest"
import { PdfTransformClient } from "@pdf-transform/core"
import { FakeServer } from "@pdf-transform/testing"
import { Deferred, Effect, Either, Fiber, Layer, Redacted, Stream } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Output } from "../src/index.js"

const NodeFs = Layer.merge(NodeFileSystem.layer, NodePath.layer)

const tempDir = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "output-"))

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)

describe("Output.writeAtomically", () => {
  it.effect("writes the chunks and answers their size", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const target = Path.join(dir, "a.md")
      const written = yield* Output.writeAtomically(target, Stream.make(bytes("# Title\n"), bytes("body\n")))
      assert.strictEqual(written, 13)
      assert.strictEqual(Fs.readFileSync(target, "utf8"), "# Title\nbody\n")
      assert.deepStrictEqual(Fs.readdirSync(dir), ["a.md"])
    }).pipe(Effect.provide(NodeFs)))

  it.effect("a stream failing half-way leaves the old file as it was and no temporary file", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const target = Path.join(dir, "a.md")
      Fs.writeFileSync(target, "previous")
      const result = yield* Effect.either(
        Output.writeAtomically(target, Stream.concat(Stream.make(bytes("half")), Stream.fail("connection reset")))
      )
      assert.deepStrictEqual(result, Either.left("connection reset"))
      assert.strictEqual(Fs.readFileSync(target, "utf8"), "previous")
      assert.deepStrictEqual(Fs.readdirSync(dir), ["a.md"])
    }).pipe(Effect.provide(NodeFs)))

  it.effect("an interrupted write leaves nothing behind", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const target = Path.join(dir, "b.md")
      const started = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(
        Output.writeAtomically(
          target,
          Stream.concat(
            Stream.make<Array<Uint8Array>>(bytes("start")),
            Stream.drain(Stream.fromEffect(Deferred.succeed(started, undefined)))
          ).pipe(Stream.concat(Stream.never))
        )
      )
      yield* Deferred.await(started)
      assert.strictEqual(Fs.readdirSync(dir).length, 1)
      yield* Fiber.interrupt(fiber)
      assert.deepStrictEqual(Fs.readdirSync(dir), [])
    }).pipe(Effect.provide(NodeFs)))

  it.effect("removeStale deletes only the writer's temporary files", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      Fs.writeFileSync(Path.join(dir, `.a.md.1f2e${Output.temporarySuffix}`), "partial")
      Fs.writeFileSync(Path.join(dir, "keep.md"), "whole")
      Fs.writeFileSync(Path.join(dir, "notes.part"), "someone else's")
      assert.strictEqual(yield* Output.removeStale(dir), 1)
      assert.sameMembers(Fs.readdirSync(dir), ["keep.md", "notes.part"])
      assert.strictEqual(yield* Output.removeStale(Path.join(dir, "missing")), 0)
    }).pipe(Effect.provide(NodeFs)))
})

describe("Output.download", () => {
  it.effect("downloads a completed task to its path; a truncated body leaves nothing", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const client = yield* PdfTransformClient.PdfTransformClient
      const server = yield* FakeServer.FakeServer
      const done = yield* client.convert("markdown", { pdfURL: "https://example.com/a.pdf" })
      const target = Path.join(dir, "a.md")
      assert.strictEqual(yield* Output.download(done, target), Fs.statSync(target).size)
      assert.strictEqual(Fs.readFileSync(target, "utf8"), `# ${done.sessionId}\n`)
      const second = yield* client.convert("markdown", { pdfURL: "https://example.com/b.pdf" })
      yield* server.enqueueDownload(second.sessionId, { _tag: "Truncated" })
      const other = Path.join(dir, "b.md")
      const failed = yield* Effect.either(Output.download(second, other))
      assert.isTrue(Either.isLeft(failed) && failed.left._tag === "DownloadFailed")
      assert.deepStrictEqual(Fs.readdirSync(dir), ["a.md"])
    }).pipe(
      Effect.provide(
        PdfTransformClient.layer({
          apiKey: Redacted.make(FakeServer.defaultApiKey),
          baseUrl: FakeServer.defaultBaseUrl
        })
          .pipe(Layer.provideMerge(FakeServer.layer()))
      ),
      Effect.provide(NodeFs)
    ))
})
