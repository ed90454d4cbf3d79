/** How many tasks the batch keeps in flight: a FIFO gate whose size follows the service. */
import * as RateLimit from "@pdf-transform/core/RateLimit"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Gate from "./gate.js"
import * as metrics from "./metrics.js"

export interface Concurrency {
  readonly gate: Gate.Gate
  /** Our tasks the service is running now (submitted or resumed, not yet seen terminal). */
  readonly inFlight: Effect.Effect<number>
  readonly tracking: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** A task an earlier run submitted already runs at the service: it holds a slot at once, even past the limit. */
  readonly resumed: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** What an answer to a submit announced (accepted or refused). */
  readonly observe: (info: RateLimit.RateLimitInfo, accepted: boolean) => Effect.Effect<void>
  /** A 429 `concurrency_exceeded`. */
  readonly exceeded: (info: RateLimit.RateLimitInfo) => Effect.Effect<void>
}

/** What the gate's size follows, changed only through `Ref.modify`. */
interface State {
  /** Until the first answer: one submit beside the resumed tasks. */
  readonly probing: boolean
  /** The last announced concurrency quota. */
  readonly announced: number | undefined
  readonly inFlight: number
  /** Resumed tasks holding a slot now. */
  readonly resumedHeld: number
}

/** The remaining slots of the announced concurrency policy, when the answer says. */
const freeSlots = RateLimit.concurrencyRemaining

export const make = (bound: number): Effect.Effect<Concurrency> =>
  Effect.map(
    Ref.make<State>({ probing: true, announced: undefined, inFlight: 0, resumedHeld: 0 }),
    (state): Concurrency => {
      const userBound = Math.max(1, Math.floor(bound))
      const gate = Gate.make(1)
      const none = Option.none<number>()

      /** Applies `f` to the state; the gate takes the size it answers, if any. */
      const update = (f: (s: State) => readonly [Option.Option<number>, State]) =>
        Effect.flatMap(
          Ref.modify(state, f),
          Option.match({
            onNone: () => Effect.void,
            onSome: (limit) =>
              Effect.zipRight(
                gate.resize(Math.min(userBound, limit)),
                Effect.suspend(() => metrics.concurrencyLimit(gate.limit()))
              )
          })
        )

      const observe = (info: RateLimit.RateLimitInfo, accepted: boolean) =>
        update((s) => {
          const quota = RateLimit.concurrencyLimit(info)
          const next = { ...s, probing: false }
          if (Option.isNone(quota)) return [s.probing ? Option.some(userBound) : none, next]
          if (s.probing || quota.value !== s.announced) {
            return [Option.some(quota.value), { ...next, announced: quota.value }]
          }
          // Same quota: after a shrink, grow back as far as the service says slots are free.
          const free = freeSlots(info)
          if (!accepted || Option.isNone(free)) return [none, next]
          const reachable = Math.min(quota.value, s.inFlight + free.value)
          return [reachable > gate.limit() ? Option.some(reachable) : none, next]
        })

      const exceeded = (info: RateLimit.RateLimitInfo) =>
        update((s) => {
          const quota = RateLimit.concurrencyLimit(info)
          const announced = Option.isSome(quota) ? quota.value : s.announced
          return [
            Option.some(Math.max(1, Math.min(s.inFlight, announced ?? s.inFlight))),
            { ...s, probing: false, announced }
          ]
        })

      const count = (delta: number) =>
        Effect.zipRight(
          Ref.update(state, (s) => ({ ...s, inFlight: s.inFlight + delta })),
          metrics.inFlight(delta)
        )

      const tracking = <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.acquireUseRelease(count(1), () => self, () => count(-1))

      // While probing, one submit may go beyond the resumed tasks already running.
      const hold = (delta: number) =>
        update((s) => {
          const resumedHeld = s.resumedHeld + delta
          return [s.probing ? Option.some(resumedHeld + 1) : none, { ...s, resumedHeld }]
        })
      const resumed = <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.acquireUseRelease(
          hold(1),
          () => gate.withPermit(tracking(self), { immediate: true }),
          () => hold(-1)
        )

      return {
        gate,
        inFlight: Effect.map(Ref.get(state), (s) => s.inFlight),
        tracking,
        resumed,
        observe,
        exceeded
      }
    }
  )
