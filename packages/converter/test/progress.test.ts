import { assert, describe, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import type { Converter } from "../src/index.js"
import { coalesce } from "../src/internal/progress.js"

/** Feeds `pagesDone` 0..total, moving the clock by `stepMs` after each, and returns what passed. */
const feed = (total: number, stepMs: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    const passed: Array<number> = []
    const report = coalesce(
      (progress: Converter.Progress) => Effect.sync(() => passed.push(progress.pagesDone)),
      "100 millis"
    )
    for (let done = 0; done <= total; done++) {
      yield* report({ pagesDone: done, pagesTotal: total })
      yield* TestClock.adjust(`${stepMs[done] ?? 0} millis`)
    }
    return passed
  })

describe("coalesced progress", () => {
  it.effect("fast pages: the first, one per interval, and the last", () =>
    Effect.gen(function*() {
      // 30 ms a page: 0 at 0 ms; then the first page at or past 100 ms after the last report.
      const passed = yield* feed(10, Array.from({ length: 11 }, () => 30))
      assert.deepStrictEqual(passed, [0, 4, 8, 10])
    }))

  it.effect("a slow page is reported as soon as it is done", () =>
    Effect.gen(function*() {
      // Pages 1-2 take 10 ms, page 3 takes 5 s (OCR), then 10 ms again.
      const passed = yield* feed(6, [10, 10, 5_000, 10, 10, 10, 10])
      assert.deepStrictEqual(passed, [0, 3, 6])
    }))

  it.effect("the last page always passes, even right after a report", () =>
    Effect.gen(function*() {
      const passed = yield* feed(1, [0, 0])
      assert.deepStrictEqual(passed, [0, 1])
    }))
})
