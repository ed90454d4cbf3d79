/** Runs an effect for each element of a stream on a fixed number of workers, each taking the next when free. */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import * as Gate from "./gate.js"

/** The chunk being handed out, where the next element is, and its index in the whole stream. */
interface State<A> {
  readonly chunk: ReadonlyArray<A>
  readonly position: number
  readonly index: number
  readonly ended: boolean
}

type Next<A> = readonly [A, number] | "empty" | "ended"

export const forEach = <A, E, R, E2, R2>(
  input: Stream.Stream<A, E, R>,
  workers: number,
  f: (element: A, index: number) => Effect.Effect<void, E2, R2>
): Effect.Effect<void, E | E2, R | R2> =>
  Effect.scoped(Effect.gen(function*() {
    const pull = yield* Stream.toPull(input)
    // One refill at a time: a stream is pulled by one fiber at once.
    const refilling = Gate.make(1)
    const state = yield* Ref.make<State<A>>({ chunk: [], position: 0, index: 0, ended: false })

    const take: Effect.Effect<Next<A>> = Ref.modify(state, (s): [Next<A>, State<A>] => {
      if (s.position < s.chunk.length) {
        return [[s.chunk[s.position]!, s.index], { ...s, position: s.position + 1, index: s.index + 1 }]
      }
      return [s.ended ? "ended" : "empty", s]
    })

    const refill: Effect.Effect<void, E, R> = Effect.flatMap(Ref.get(state), (s) =>
      // Another worker may have refilled (or seen the end) while this one waited its turn.
      s.position < s.chunk.length || s.ended ? Effect.void : Effect.matchEffect(pull, {
        onFailure: Option.match({
          onNone: () => Ref.update(state, (current) => ({ ...current, ended: true })),
          onSome: Effect.fail
        }),
        onSuccess: (chunk) =>
          Ref.update(state, (current) => ({ ...current, chunk: Chunk.toReadonlyArray(chunk), position: 0 }))
      }))

    const worker: Effect.Effect<void, E | E2, R | R2> = Effect.flatMap(take, (next) => {
      if (next === "ended") return Effect.void
      if (next === "empty") return Effect.zipRight(refilling.withPermit(refill), worker)
      return Effect.zipRight(f(next[0], next[1]), worker)
    })

    yield* Effect.all(Array.from({ length: Math.max(1, workers) }, () => worker), {
      concurrency: "unbounded",
      discard: true
    })
  }))
