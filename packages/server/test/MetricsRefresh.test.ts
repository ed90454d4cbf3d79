/**
 * The cluster's figures are read on a period of their own (`metricsRefresh.ts`), on the test clock:
 * at start, then every period; a scrape reads them only when they are older than the period; the
 * background reads stop with the server's scope.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Ref, Scope, TestClock } from "effect"
import * as MetricsRefresh from "../src/internal/metricsRefresh.js"

const period = 15_000

describe("metrics refresh", () => {
  it.effect("reads at start and every period; a scrape reads only stale figures; stops with the scope", () =>
    Effect.gen(function*() {
      const reads = yield* Ref.make(0)
      // Each read takes a second, as a slow query would: a scrape arriving meanwhile waits for it.
      const read = Effect.zipRight(Ref.update(reads, (n) => n + 1), Effect.sleep("1 second"))
      const scope = yield* Scope.make()
      const { fresh } = yield* MetricsRefresh.start(read, period).pipe(Scope.extend(scope))
      yield* TestClock.adjust("500 millis")
      assert.strictEqual(yield* Ref.get(reads), 1)

      // During the first read: the scrape waits for it and serves its figures.
      const scrape = yield* Effect.fork(fresh)
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(scrape)
      assert.strictEqual(yield* Ref.get(reads), 1)

      // t = 15.5 s: the figures read at 0 are stale before the background's next read (at 16 s).
      yield* TestClock.adjust("14 seconds")
      assert.strictEqual(yield* Ref.get(reads), 1)
      const staleScrape = yield* Effect.fork(fresh)
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(staleScrape)
      assert.strictEqual(yield* Ref.get(reads), 2)
      // The background, due at 16 s, found them fresh and waits a period more.
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual(yield* Ref.get(reads), 2)
      yield* TestClock.adjust("6 seconds")
      assert.strictEqual(yield* Ref.get(reads), 3)
      yield* TestClock.adjust(`${period} millis`)
      assert.strictEqual(yield* Ref.get(reads), 4)

      yield* Scope.close(scope, Exit.void)
      yield* TestClock.adjust("1 minute")
      assert.strictEqual(yield* Ref.get(reads), 4)
    }))

  it.effect("a period of 0 reads at each scrape and never in the background", () =>
    Effect.gen(function*() {
      const reads = yield* Ref.make(0)
      const scope = yield* Scope.make()
      const { fresh } = yield* MetricsRefresh.start(Ref.update(reads, (n) => n + 1), 0).pipe(Scope.extend(scope))
      yield* TestClock.adjust("1 minute")
      assert.strictEqual(yield* Ref.get(reads), 0)
      yield* fresh
      yield* fresh
      assert.strictEqual(yield* Ref.get(reads), 2)
      yield* Scope.close(scope, Exit.void)
    }))
})
