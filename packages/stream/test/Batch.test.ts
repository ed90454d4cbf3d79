/**
 * The pipeline end to end over the real client and FakeServer, under TestClock: events, outputs
 * on disk, names, and one job's failure leaving the others alone.
 */
import { assert, describe, it } from "@effect/vitest"
import { PdfTransformClient } from "@pdf-transform/core"
import { FakeServer } from "@pdf-transform/testing"
import { Effect, Layer, Metric, Redacted } from "effect"
import { Batch, Job, Journal } from "../src/index.js"
import * as metrics from "../src/internal/metrics.js"
import * as H from "./support/harness.js"

describe("Batch.convert", () => {
  it.effect("uploads local files, submits, reports rising progress, and writes each output whole", () => {
    const h = H.make({ server: { defaultTimeline: H.linear(4) } })
    return Effect.gen(function*() {
      const [a, b] = H.pdfs(h.memory, 2)
      const all = yield* H.events(
        Batch.convert([Job.file(a!, "markdown"), Job.url("https://example.com/papers/c.pdf", "epub")], {
          outputDirectory: H.outDir
        })
      )
      // Each job's events in order.
      const first = all.filter((e) => "job" in e && e.job.index === 0).map((e) => e._tag).join(" ")
      assert.match(first, /^Queued Uploaded Submitted (Progress )+Completed$/)
      // Progress as the polls saw it: only rising values of the timeline (polling may skip some).
      const progress = H.ofTag(all, "Progress").filter((e) => e.job.index === 0).map((e) => e.progress)
      assert.isTrue(progress.every((p, i) => [25, 50, 75].includes(p) && (i === 0 || p > progress[i - 1]!)))
      const second = all.filter((e) => "job" in e && e.job.index === 1).map((e) => e._tag)
      assert.strictEqual(second[0], "Queued")
      assert.notInclude(second, "Uploaded")
      const completed = H.ofTag(all, "Completed")
      assert.sameMembers(completed.map((e) => e.output), ["/out/doc-0.md", "/out/c.epub"])
      const markdown = completed.find((e) => e.output === "/out/doc-0.md")!
      assert.strictEqual(h.memory.text("/out/doc-0.md"), `# ${markdown.sessionId}\n`)
      assert.strictEqual(markdown.bytes, h.memory.files.get("/out/doc-0.md")!.length)
      assert.deepStrictEqual(h.uploads.names, ["doc-0.pdf"])
      // The URL went to the service as is; the upload's URL for the file.
      const sent = (yield* H.submits).map((r) => (r.body as { pdfURL: string }).pdfURL)
      assert.sameMembers(sent, ["https://files.example.test/1/doc-0.pdf", "https://example.com/papers/c.pdf"])
      assert.isUndefined(b === undefined ? undefined : h.memory.files.get(`/out/doc-1.md`))
      // No temporary file left behind.
      assert.deepStrictEqual([...h.memory.files.keys()].filter((p) => p.startsWith("/out/")).sort(), [
        "/out/c.epub",
        "/out/doc-0.md"
      ])
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a Summarizer files each final event by kind and leaves the others out; Batch.run's summary is one", () => {
    const h = H.make({ server: { defaultTimeline: H.linear(2) } })
    return Effect.gen(function*() {
      const [a] = H.pdfs(h.memory, 1)
      const jobs = [
        Job.file(a!, "markdown"),
        Job.file("/in/missing.pdf", "markdown"),
        Job.url("ftp://example.com/b.pdf", "markdown"),
        Job.url("https://example.com/ok.pdf", "epub")
      ]
      const all = yield* H.events(Batch.convert(jobs, { outputDirectory: H.outDir }))
      const summarizer = Batch.makeSummarizer()
      for (const event of all) summarizer.add(event)
      const { summary } = summarizer
      assert.deepStrictEqual(summary.completed.map((e) => e.job.index).sort(), [0, 3])
      assert.deepStrictEqual(summary.failed.map((e) => e.job.index).sort(), [1, 2])
      assert.deepStrictEqual([summary.skipped, summary.ambiguous, summary.notAttempted], [[], [], []])
      assert.strictEqual(summary.stopped, undefined)
      const ran = yield* H.run(jobs.slice(2))
      assert.deepStrictEqual(ran.failed.map((e) => e.job.index), [0])
      assert.strictEqual(ran.skipped.length, 1)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("local files go to the Uploader by path: ChunkedUploader streams them in parts, Uploading is reported, no file is read whole", () => {
    const h = H.make({ uploader: "chunked" })
    return Effect.gen(function*() {
      const MiB = 1024 * 1024
      const big = new Uint8Array(12 * MiB).fill(0x41)
      big.set(new TextEncoder().encode("%PDF-1.7\n"))
      h.memory.files.set("/in/big.pdf", big)
      const [small] = H.pdfs(h.memory, 1)
      const all = yield* H.events(
        Batch.convert([Job.file("/in/big.pdf", "markdown"), Job.file(small!, "epub")], { outputDirectory: H.outDir })
      )
      assert.strictEqual(H.ofTag(all, "Completed").length, 2)
      const uploading = H.ofTag(all, "Uploading").filter((e) => e.job.index === 0)
      assert.isAbove(uploading.length, 3)
      assert.deepInclude(uploading[uploading.length - 1], { sent: 12 * MiB, total: 12 * MiB })
      const uploaded = H.ofTag(all, "Uploaded").find((e) => e.job.index === 0)
      assert.deepInclude(uploaded, { pdfURL: "cache://upload-1.pdf", bytes: 12 * MiB })
      const server = yield* FakeServer.FakeServer
      const uploads = yield* server.uploads
      assert.deepStrictEqual(uploads.map((u) => u.received), [[1, 2, 3], [1]])
      assert.deepStrictEqual(uploads[0]?.bytes, big)
      const sent = (yield* H.submits).map((r) => (r.body as { pdfURL: string }).pdfURL)
      assert.sameMembers(sent, ["cache://upload-1.pdf", "cache://upload-2.pdf"])
      assert.deepStrictEqual(h.memory.wholeReads.filter((path) => path.startsWith("/in/")), [])
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("one failed document does not stop the others", () => {
    const h = H.make({ server: { defaultTimeline: H.linear(2) } })
    return Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      yield* server.enqueueSubmit(
        { _tag: "Accept" },
        { _tag: "Accept", timeline: [{ after: "1 second", status: { state: "failed", error: "corrupt PDF" } }] }
      )
      const files = H.pdfs(h.memory, 5)
      const summary = yield* H.run(files.map((f) => Job.file(f, "markdown")), { concurrency: 1 })
      assert.strictEqual(summary.completed.length, 4)
      assert.strictEqual(summary.failed.length, 1)
      const failure = summary.failed[0]!
      assert.strictEqual(failure.job.name, files[1])
      assert.strictEqual(failure.error._tag, "ConversionFailed")
      assert.include(failure.error.message, "corrupt PDF")
      assert.isFalse(h.memory.files.has("/out/doc-1.md"))
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("metrics: the batch's tasks in flight and jobs waiting for a slot while it runs, none after", () => {
    const h = H.make({ server: { defaultTimeline: H.linear(4) } })
    const gauge = (metric: Metric.Metric.Gauge<number>) => Effect.map(Metric.value(metric), (state) => state.value)
    return Effect.gen(function*() {
      const urls = Array.from({ length: 6 }, (_, i) => Job.url(`https://example.com/${i}.pdf`, "markdown"))
      const fiber = yield* Effect.fork(Batch.run(urls, { outputDirectory: H.outDir, concurrency: 2 }))
      yield* H.advance(2_000)
      assert.strictEqual(yield* gauge(metrics.inFlightGauge), 2)
      assert.strictEqual(yield* gauge(metrics.waitingGauge), 4)
      assert.strictEqual(yield* gauge(metrics.concurrencyLimitGauge), 2)
      const summary = yield* H.drive(fiber)
      assert.strictEqual(summary.completed.length, 6)
      assert.strictEqual(yield* gauge(metrics.inFlightGauge), 0)
      assert.strictEqual(yield* gauge(metrics.waitingGauge), 0)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("names: from the source, collisions resolved, never outside the output folder", () => {
    const h = H.make()
    return Effect.gen(function*() {
      const [a] = H.pdfs(h.memory, 1, "/in/a")
      const [b] = H.pdfs(h.memory, 1, "/in/b")
      h.memory.files.set("/out/existing.md", new TextEncoder().encode("mine"))
      const summary = yield* H.run([
        Job.file(a!, "markdown"),
        Job.file(b!, "markdown"),
        Job.url("https://example.com/x.pdf", "markdown", { outputName: "../../etc/passwd" }),
        Job.url("https://example.com/y.pdf", "markdown", { outputName: "existing" }),
        Job.url("https://example.com/", "markdown"),
        Job.url("https://example.com/z.pdf", "markdown", { outputName: "..\u0000.md" })
      ])
      const outputs = summary.completed.map((e) => [e.job.index, e.output] as const).sort((x, y) => x[0] - y[0])
      assert.deepStrictEqual(outputs.map(([, output]) => output), [
        "/out/doc-0.md",
        "/out/doc-0-2.md",
        "/out/_.._etc_passwd.md",
        "/out/existing-2.md",
        "/out/example.com.md",
        "/out/_.md"
      ])
      assert.strictEqual(h.memory.text("/out/existing.md"), "mine")
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("the same document twice in one batch is converted once", () => {
    const h = H.make()
    return Effect.gen(function*() {
      const [a] = H.pdfs(h.memory, 1)
      h.memory.files.set("/in/copy.pdf", h.memory.files.get(a!)!)
      const all = yield* H.events(
        Batch.convert([Job.file(a!, "markdown"), Job.file("/in/copy.pdf", "markdown"), Job.file(a!, "epub")], {
          outputDirectory: H.outDir
        })
      )
      assert.strictEqual(H.ofTag(all, "Completed").length, 2)
      const skipped = H.ofTag(all, "Skipped")
      assert.strictEqual(skipped.length, 1)
      assert.strictEqual(skipped[0]!.previous, "duplicate")
      assert.strictEqual(skipped[0]!.job.name, "/in/copy.pdf")
      assert.strictEqual(skipped[0]!.reason, "same document, format and options as job 1 of this batch")
      assert.strictEqual((yield* H.submits).length, 2)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("one name for many documents, one after another: each output gets its own file", () => {
    // A written output's name is no longer held in memory; the file on disk keeps it taken.
    const h = H.make()
    return Effect.gen(function*() {
      const summary = yield* H.run(
        ["a", "b", "c", "d"].map((x) => Job.url(`https://example.com/${x}.pdf`, "markdown", { outputName: "same" })),
        { concurrency: 1 }
      )
      const outputs = summary.completed.map((e) => [e.job.index, e.output] as const).sort((x, y) => x[0] - y[0])
      assert.deepStrictEqual(outputs.map(([, output]) => output), [
        "/out/same.md",
        "/out/same-2.md",
        "/out/same-3.md",
        "/out/same-4.md"
      ])
      assert.strictEqual(new Set(outputs.map(([, output]) => h.memory.text(output))).size, 4)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("a local file that is not a PDF fails before its upload", () => {
    const h = H.make()
    return Effect.gen(function*() {
      h.memory.files.set("/in/notes.pdf", new TextEncoder().encode("Dear diary"))
      const [pdf] = H.pdfs(h.memory, 1)
      const summary = yield* H.run([Job.file("/in/notes.pdf", "markdown"), Job.file(pdf!, "markdown")])
      assert.strictEqual(summary.failed.length, 1)
      const failure = summary.failed[0]!.error
      assert.strictEqual(failure._tag, "SourceUnreadable")
      assert.include(failure.message, "not a PDF")
      assert.deepStrictEqual(h.uploads.names, ["doc-0.pdf"])
      assert.strictEqual(summary.completed.length, 1)
    }).pipe(Effect.provide(h.layer))
  })

  it.effect("bad input: a missing file, invalid options, no Uploader: typed failures, nothing sent for them", () => {
    const h = H.make()
    const withoutUploader = Layer.mergeAll(
      PdfTransformClient.layer({
        apiKey: Redacted.make(FakeServer.defaultApiKey),
        baseUrl: H.baseUrl,
        poll: { jitter: false }
      }).pipe(Layer.provideMerge(FakeServer.layer({ baseUrl: H.baseUrl }))),
      Journal.layerMemory,
      h.memory.layer
    )
    return Effect.gen(function*() {
      const [a] = H.pdfs(h.memory, 1)
      const summary = yield* H.run([
        Job.file("/in/missing.pdf", "markdown"),
        Job.url("https://example.com/a.pdf", "markdown", { request: { model: "other" as "gundam" } }),
        Job.file(a!, "markdown"),
        Job.url("ftp://example.com/b.pdf", "markdown"),
        Job.url("https://example.com/ok.pdf", "markdown")
      ])
      const byIndex = new Map(summary.failed.map((e) => [e.job.index, e.error._tag]))
      assert.deepStrictEqual(
        [...byIndex.entries()].sort((x, y) => x[0] - y[0]),
        [[0, "SourceUnreadable"], [1, "InvalidRequest"], [2, "UploaderMissing"], [3, "InvalidRequest"]]
      )
      assert.deepStrictEqual(summary.completed.map((e) => e.job.index), [4])
      const sent = (yield* H.submits).map((r) => (r.body as { pdfURL: string }).pdfURL)
      assert.deepStrictEqual(sent, ["https://example.com/ok.pdf"])
    }).pipe(Effect.provide(withoutUploader))
  })
})
