import { assert, describe, layer } from "@effect/vitest"
import { Effect, Fiber, Queue } from "effect"
import { monitorEventLoopDelay, performance } from "node:perf_hooks"
import type { Converter as ConverterTypes } from "../src/index.js"
import { Converter, ConverterLive } from "../src/index.js"
import { readCorpus } from "./support/corpus.js"

describe("worker pool", () => {
  // Real time: the workers are threads of their own, outside any TestClock.
  layer(ConverterLive.layer({ size: 2 }), { timeout: 30_000, excludeTestServices: true })("pool", (it) => {
    it.effect(
      "progress (pages done / total) flows from the worker to the caller, coalesced",
      () =>
        Effect.gen(function*() {
          const converter = yield* Converter.Converter
          const seen: Array<ConverterTypes.Progress> = []
          const result = yield* converter.toMarkdown(readCorpus("text/tracemonkey.pdf"), {
            onProgress: (progress) => Effect.sync(() => seen.push(progress))
          })
          assert.strictEqual(result.pages, 14)
          assert.deepStrictEqual(seen[0], { pagesDone: 0, pagesTotal: 14 })
          assert.deepStrictEqual(seen[seen.length - 1], { pagesDone: 14, pagesTotal: 14 })
          // Coalesced in between (see internal/progress.ts, tested on its own), and in order.
          seen.slice(1).forEach((progress, i) => assert.isAbove(progress.pagesDone, seen[i]!.pagesDone))
        }),
      30_000
    )

    it.effect(
      "a document over its time limit fails with ConversionTimeout, and the pool goes on",
      () =>
        Effect.gen(function*() {
          const converter = yield* Converter.Converter
          const error = yield* Effect.flip(
            converter.toMarkdown(readCorpus("text/pdkids.pdf"), { timeout: "50 millis" })
          )
          assert.strictEqual(error._tag, "ConversionTimeout")
          const after = yield* converter.toMarkdown(readCorpus("text/shared-mime-info-spec.pdf"))
          assert.strictEqual(after.pages, 17)
        }),
      30_000
    )

    it.effect(
      "the caller's bytes stay intact (the worker is given a copy of its own; PDFium only reads it)",
      () =>
        Effect.gen(function*() {
          const converter = yield* Converter.Converter
          const pdf = readCorpus("text/tracemonkey.pdf")
          const original = Uint8Array.from(pdf)
          const first = yield* converter.toMarkdown(pdf)
          assert.deepStrictEqual(pdf, original)
          const second = yield* converter.toEpub(pdf)
          assert.strictEqual(second.pages, first.pages)
          // A Buffer that is a view into a larger memory (as Node's pooled Buffers are): moving
          // its memory to the worker would empty the caller's whole buffer, not only the view.
          const shared = new Uint8Array(pdf.byteLength + 64)
          shared.set(pdf, 32)
          const view = Buffer.from(shared.buffer, 32, pdf.byteLength)
          const third = yield* converter.toMarkdown(view)
          assert.strictEqual(third.output, first.output)
          assert.strictEqual(shared.buffer.byteLength, pdf.byteLength + 64)
          assert.deepStrictEqual(shared.subarray(32, 32 + pdf.byteLength), original)
        }),
      30_000
    )
  })

  // What is measured is whether the conversion ever runs on the caller's thread.
  layer(ConverterLive.layer({ size: 1 }), { timeout: 30_000, excludeTestServices: true })("one worker", (it) => {
    it.effect(
      "the caller's event loop stays idle while a worker converts",
      () =>
        Effect.gen(function*() {
          const converter = yield* Converter.Converter
          const tracemonkey = readCorpus("text/tracemonkey.pdf")
          const pdkids = readCorpus("text/pdkids.pdf")
          // Warm the worker first: its module loading is not the point.
          yield* converter.toMarkdown(readCorpus("broken/xref_command_missing.pdf"))
          const busy = monitorEventLoopDelay({ resolution: 5 })
          busy.enable()
          const before = performance.eventLoopUtilization()
          const a = yield* converter.toMarkdown(tracemonkey)
          const b = yield* converter.toEpub(pdkids)
          const utilization = performance.eventLoopUtilization(before).utilization
          busy.disable()
          assert.strictEqual(a.pages, 14)
          assert.strictEqual(b.pages, 55)
          const ms = (nanoseconds: number) => nanoseconds / 1e6
          const report = `event-loop delay while converting: p99 ${ms(busy.percentile(99)).toFixed(1)} ms, ` +
            `max ${ms(busy.max).toFixed(1)} ms; utilisation ${(utilization * 100).toFixed(1)}%`
          // Utilisation, not delay: a loaded machine preempts an idle thread too, but the time it
          // spends running JavaScript is the conversion's only if the conversion runs on it.
          assert.isBelow(utilization, 0.2, report)
        }),
      60_000
    )
  })

  layer(ConverterLive.layerInProcess(), { excludeTestServices: true })("in process", (it) => {
    it.effect("the in-process layer runs the same engine", () =>
      Effect.gen(function*() {
        const converter = yield* Converter.Converter
        const seen: Array<number> = []
        const result = yield* converter.toMarkdown(readCorpus("text/shared-mime-info-spec.pdf"), {
          onProgress: (progress) => Effect.sync(() => seen.push(progress.pagesDone))
        })
        assert.strictEqual(result.pages, 17)
        assert.include(result.output, "# 1\\. Introduction")
        assert.strictEqual(seen[seen.length - 1], 17)
      }), 30_000)

    it.effect(
      "the conversion lets other fibers run between pages (a worker posts progress as it comes)",
      () =>
        Effect.gen(function*() {
          const converter = yield* Converter.Converter
          // In a worker, progress goes through a queue to a fiber that posts it to the caller: this
          // one records, for each event it takes, how many pages the conversion had done by then.
          const queue = yield* Queue.unbounded<number>()
          let pagesDone = 0
          const lag: Array<number> = []
          const consumer = yield* Effect.fork(
            Effect.forever(Effect.flatMap(Queue.take(queue), (taken) => Effect.sync(() => lag.push(pagesDone - taken))))
          )
          yield* converter.toMarkdown(readCorpus("text/tracemonkey.pdf"), {
            onProgress: (progress) =>
              Effect.zipRight(
                Effect.sync(() => (pagesDone = progress.pagesDone)),
                Queue.offer(queue, progress.pagesDone)
              )
          })
          yield* Effect.yieldNow()
          yield* Fiber.interrupt(consumer)
          assert.lengthOf(lag, 15)
          // Each event was taken within a page of being offered, not all at the end (a lag of 14).
          assert.isTrue(lag.every((pages) => pages <= 1), lag.join(","))
        }),
      30_000
    )

    it.effect("the caller's bytes stay intact (in process too)", () =>
      Effect.gen(function*() {
        const converter = yield* Converter.Converter
        const pdf = readCorpus("text/shared-mime-info-spec.pdf")
        const original = Uint8Array.from(pdf)
        yield* converter.toMarkdown(pdf)
        assert.strictEqual(pdf.byteLength, original.byteLength)
        assert.deepStrictEqual(pdf, original)
        const again = yield* converter.toMarkdown(pdf)
        assert.strictEqual(again.pages, 17)
      }), 30_000)
  })
})
