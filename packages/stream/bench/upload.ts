/**
 * One measured upload, in its own process: core's ChunkedUploader sends a file to the bench server
 * and this prints one JSON line with the RSS baseline (after a warm-up upload and a full GC), the
 * peak RSS during the upload and its duration.
 *
 *   node --expose-gc upload.mjs <path|bytes> <baseUrl> <apiKey> <file>
 *
 * `path`: the file handed over by its path (streamed from disk in parts, as the batch does now);
 * `bytes`: the reference, the file read whole first and handed over as bytes (as the batch did).
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as FileSystem from "@effect/platform/FileSystem"
import { ChunkedUploader, Uploader } from "@pdf-transform/core"
import { Effect, Layer, Redacted } from "effect"
import * as Path from "node:path"

const [mode, baseUrl, key, file] = process.argv.slice(2) as [string, string, string, string]

const rss = () => process.memoryUsage.rss()
/** The process's peak RSS so far, in bytes (getrusage). */
const maxRss = () => process.resourceUsage().maxRSS * 1024

const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc
  if (collect === undefined) throw new Error("run with --expose-gc")
  collect()
}

const warmUp = new TextEncoder().encode(`%PDF-1.7\n${"x".repeat(1000)}\n%%EOF\n`)

const program = Effect.gen(function*() {
  const uploader = yield* Uploader.Uploader
  const fs = yield* FileSystem.FileSystem
  // The HTTP client, the file system and the uploader's code paths all loaded before the baseline.
  yield* uploader.upload({ name: "warm-up.pdf", bytes: warmUp })
  gc()
  yield* Effect.sleep("200 millis")
  const baseline = rss()
  const peakBefore = maxRss()
  let peak = baseline
  const sampler = setInterval(() => void (peak = Math.max(peak, rss())), 5)
  const started = performance.now()
  const url = mode === "path"
    ? yield* uploader.upload({ path: file })
    : yield* uploader.upload({ name: Path.basename(file), bytes: yield* fs.readFile(file) })
  const ms = performance.now() - started
  clearInterval(sampler)
  // getrusage catches a peak between two samples, when it is above any earlier one.
  const peakAfter = maxRss()
  if (peakAfter > peakBefore) peak = Math.max(peak, peakAfter)
  const size = Number((yield* fs.stat(file)).size)
  process.stdout.write(`${JSON.stringify({ mode, url, bytes: size, ms, baseline, peak })}\n`)
})

program.pipe(
  Effect.provide(
    ChunkedUploader.layer({ apiKey: Redacted.make(key), uploadBaseUrl: `${baseUrl}/uploads` }).pipe(
      Layer.provideMerge(Layer.merge(NodeHttpClient.layerUndici, NodeFileSystem.layer))
    )
  ),
  Effect.runPromise
).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
