/** The cluster's task counts read by a background fiber on a period, not by each scrape (which reads only stale ones). */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"

export interface Refresher {
  /** The figures, read again only if older than the period: what a scrape runs. */
  readonly fresh: Effect.Effect<void>
}

/**
 * Starts reading the figures with `refresh` now and every `periodMs` after, until the scope closes;
 * a period of 0 reads them at each scrape instead, and never in the background.
 */
export const start = (refresh: Effect.Effect<void>, periodMs: number): Effect.Effect<Refresher, never, Scope.Scope> =>
  Effect.gen(function*() {
    if (periodMs <= 0) return { fresh: refresh }
    const readAt = yield* Ref.make<number | undefined>(undefined)
    // One read at a time: a scrape arriving during the background's read waits for it, then finds it fresh.
    const lock = yield* Effect.makeSemaphore(1)
    const fresh = lock.withPermits(1)(
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const last = yield* Ref.get(readAt)
        if (last !== undefined && now - last < periodMs) return
        yield* refresh
        yield* Ref.set(readAt, now)
      })
    )
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(fresh, Effect.sleep(periodMs))))
    return { fresh }
  })
