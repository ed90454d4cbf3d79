import { assert, describe, it } from "@effect/vitest"
import { Data, Effect, Either, Fiber, Pool, TestClock } from "effect"
import { useReplacingOnTimeout } from "../src/internal/pooled.js"

class Timeout extends Data.TaggedError("Timeout") {}
class Other extends Data.TaggedError("Other") {}

/** A pool of one "worker"; the first one made is stuck forever, as a PDF engine in a synchronous loop. */
const setup = Effect.gen(function*() {
  let made = 0
  const pool = yield* Pool.make({ acquire: Effect.sync(() => ({ id: ++made })), size: 1 })
  const use = (worker: { readonly id: number }) =>
    (worker.id === 1 ? Effect.never : Effect.succeed(worker.id)).pipe(
      Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Timeout() })
    )
  return { pool, use, made: () => made }
})

describe("useReplacingOnTimeout", () => {
  it.scoped("a worker whose call timed out is replaced; the next call gets a fresh one", () =>
    Effect.gen(function*() {
      const { made, pool, use } = yield* setup
      const first = yield* Effect.fork(Effect.either(useReplacingOnTimeout(pool, use, (e) => e._tag === "Timeout")))
      yield* TestClock.adjust("10 seconds")
      const result = yield* Fiber.join(first)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "Timeout")
      // Without the replacement the stuck worker would be handed out again and time out again.
      const second = yield* useReplacingOnTimeout(pool, use, (e) => e._tag === "Timeout")
      assert.strictEqual(second, 2)
      assert.strictEqual(made(), 2)
    }))

  it.scoped("other failures keep the worker", () =>
    Effect.gen(function*() {
      let made = 0
      const pool = yield* Pool.make({ acquire: Effect.sync(() => ({ id: ++made })), size: 1 })
      const isTimeout = (e: Timeout | Other) => e._tag === "Timeout"
      const failing = useReplacingOnTimeout(pool, (): Effect.Effect<never, Timeout | Other> =>
        Effect.fail(new Other()), isTimeout)
      assert.strictEqual((yield* Effect.flip(failing))._tag, "Other")
      const id = yield* useReplacingOnTimeout(pool, (w) =>
        Effect.succeed(w.id), () =>
        false)
      assert.strictEqual(id, 1)
      assert.strictEqual(made, 1)
    }))
})
