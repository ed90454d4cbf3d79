/**
 * Runs an effect for every element of a stream on a fixed number of worker fibers: each worker
 * takes the next element (in the stream's order, with its index) as soon as it is free.
 *
 * What `Stream.mapEffect(f, { concurrency: n, unordered: true })` does, without a fiber per
 * element in a merge whose bookkeeping grows with `n`. A fork of a stock primitive: it stays while
 * `pnpm --filter @pdf-transform/stream bench:forks` (run by CI) and the batch bench show it paying
 * (figures in the package README). The stream is pulled chunk by chunk, one worker at a time, and
 * the workers live as long as the input lasts.
 *
 * The first failure (of the input or of `f`) interrupts the other workers and is the result.
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Gate from "./gate.js"

export const forEach = <A, E, R, E2, R2>(
  input: Stream.Stream<A, E, R>,
  workers: number,
  f: (element: A, index: number) => Effect.Effect<void, E2, R2>
): Effect.Effect<void, E | E2, R | R2> =>
  Effect.scoped(Effect.gen(function*() {
    const pull = yield* Stream.toPull(input)
    // One refill at a time: a stream is pulled by one fiber at once.
    const refilling = Gate.make(1)
    let buffer: ReadonlyArray<A> = []
    let position = 0
    let index = 0
    let ended = false

    const refill: Effect.Effect<void, E, R> = Effect.suspend(() =>
      // Another worker may have refilled (or seen the end) while this one waited its turn.
      position < buffer.length || ended ? Effect.void : Effect.matchEffect(pull, {
        onFailure: Option.match({ onNone: () => Effect.sync(() => void (ended = true)), onSome: Effect.fail }),
        onSuccess: (chunk) =>
          Effect.sync(() => {
            buffer = Chunk.toReadonlyArray(chunk)
            position = 0
          })
      })
    )

    const worker: Effect.Effect<void, E | E2, R | R2> = Effect.suspend(() => {
      if (position < buffer.length) {
        const element = buffer[position++]!
        return Effect.zipRight(f(element, index++), worker)
      }
      if (ended) return Effect.void
      return Effect.zipRight(refilling.withPermit(refill), worker)
    })

    yield* Effect.all(Array.from({ length: Math.max(1, workers) }, () => worker), {
      concurrency: "unbounded",
      discard: true
    })
  }))
