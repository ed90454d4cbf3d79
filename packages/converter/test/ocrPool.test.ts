import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import type { Ocr, Word } from "../src/internal/ocr.js"
import * as OcrPool from "../src/internal/ocrPool.js"

/** Workers that count their starts and stops and hold each page until the test releases it (by its first byte). */
const fakeWorkers = Effect.gen(function*() {
  const started: Array<number> = []
  let stopped = 0
  let running = 0
  let mostAtOnce = 0
  const release = new Map<number, Deferred.Deferred<void>>()
  const entered = new Map<number, Deferred.Deferred<number>>()
  for (let page = 1; page <= 4; page++) {
    release.set(page, yield* Deferred.make<void>())
    entered.set(page, yield* Deferred.make<number>())
  }
  const start = Effect.acquireRelease(
    Effect.sync((): Ocr => {
      const worker = started.length + 1
      started.push(worker)
      return {
        recognize: (image) =>
          Effect.gen(function*() {
            const page = image[0]!
            running++
            mostAtOnce = Math.max(mostAtOnce, running)
            yield* Deferred.succeed(entered.get(page)!, worker)
            yield* Deferred.await(release.get(page)!)
            running--
            const word: Word = { text: `page${page}`, x: 0, y: 0, width: 1, size: 1, confidence: 90 }
            return [word]
          })
      }
    }),
    () => Effect.sync(() => stopped++)
  )
  return {
    start,
    started,
    stopped: () => stopped,
    mostAtOnce: () => mostAtOnce,
    release: (page: number) => Deferred.succeed(release.get(page)!, undefined),
    entered: (page: number) => Deferred.await(entered.get(page)!),
    hasEntered: (page: number) => Deferred.isDone(entered.get(page)!)
  }
})

const page = (n: number) => new Uint8Array([n])

describe("OCR workers of a conversion", () => {
  it.effect("one page at a time starts one worker, however many pages", () =>
    Effect.gen(function*() {
      const fake = yield* fakeWorkers
      yield* Effect.scoped(Effect.gen(function*() {
        const ocr = yield* OcrPool.make(fake.start, 2)
        for (const n of [1, 2, 3]) {
          yield* fake.release(n)
          const words = yield* ocr.recognize(page(n))
          assert.deepStrictEqual(words.map((word) => word.text), [`page${n}`])
        }
        assert.deepStrictEqual(fake.started, [1])
      }))
      assert.strictEqual(fake.stopped(), 1)
    }))

  it.effect("a second page waiting while the first is read starts a second worker; a third waits for a free one", () =>
    Effect.gen(function*() {
      const fake = yield* fakeWorkers
      yield* Effect.scoped(Effect.gen(function*() {
        const ocr = yield* OcrPool.make(fake.start, 2)
        const first = yield* Effect.fork(ocr.recognize(page(1)))
        assert.strictEqual(yield* fake.entered(1), 1)
        const second = yield* Effect.fork(ocr.recognize(page(2)))
        assert.strictEqual(yield* fake.entered(2), 2)
        const third = yield* Effect.fork(ocr.recognize(page(3)))
        yield* Effect.yieldNow({ priority: 1 })
        assert.isFalse(yield* fake.hasEntered(3))
        yield* fake.release(2)
        yield* Fiber.join(second)
        // The third page goes to the worker the second page freed: no third worker.
        assert.strictEqual(yield* fake.entered(3), 2)
        yield* fake.release(1)
        yield* fake.release(3)
        assert.deepStrictEqual((yield* Fiber.join(first)).map((word) => word.text), ["page1"])
        assert.deepStrictEqual((yield* Fiber.join(third)).map((word) => word.text), ["page3"])
        assert.deepStrictEqual(fake.started, [1, 2])
        assert.strictEqual(fake.mostAtOnce(), 2)
      }))
      assert.strictEqual(fake.stopped(), 2)
    }))

  it.effect("with one worker allowed, pages are read one after another", () =>
    Effect.gen(function*() {
      const fake = yield* fakeWorkers
      yield* Effect.scoped(Effect.gen(function*() {
        const ocr = yield* OcrPool.make(fake.start, 1)
        const fibers = yield* Effect.forEach([1, 2, 3], (n) => Effect.fork(ocr.recognize(page(n))))
        for (const n of [1, 2, 3]) {
          assert.strictEqual(yield* fake.entered(n), 1)
          yield* fake.release(n)
        }
        yield* Effect.forEach(fibers, Fiber.join)
        assert.deepStrictEqual(fake.started, [1])
        assert.strictEqual(fake.mostAtOnce(), 1)
      }))
    }))

  it.effect("a worker that cannot start is tried once: the next pages fail with its reason at once", () =>
    Effect.gen(function*() {
      let starts = 0
      const start = Effect.suspend(() => {
        starts++
        return Effect.fail("no model")
      })
      const failures = yield* Effect.scoped(Effect.gen(function*() {
        const ocr = yield* OcrPool.make(start, 2)
        return yield* Effect.forEach([1, 2, 3], (n) => Effect.flip(ocr.recognize(page(n))))
      }))
      assert.deepStrictEqual(failures, ["no model", "no model", "no model"])
      assert.strictEqual(starts, 1)
    }))

  it("a conversion gets a worker a core, at least one and at most two", () => {
    assert.deepStrictEqual([0, 1, 1.5, 2, 3, 16].map(OcrPool.workersFor), [1, 1, 1, 2, 2, 2])
  })
})
