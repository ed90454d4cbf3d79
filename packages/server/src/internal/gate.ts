/**
 * A first-come, first-served gate of `permits` concurrent conversions, for thousands of waiting
 * tasks. Effect's `Semaphore` wakes every waiter while a permit is free and lets all but one go
 * back to waiting: with the server's 10,000 stored tasks behind 2 permits, each finished
 * conversion cost ~10,000 fiber wake-ups, and closing a server with 1,200 tasks waiting on 1,000
 * permits burnt over a minute of CPU. Here a release hands its permit to the oldest waiter only.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"

export interface Gate {
  /** Runs `self` once a permit is free, in arrival order; the permit is returned however it ends. */
  readonly withPermit: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Permits free now. */
  readonly free: () => number
  /** Fibers waiting for a permit now. */
  readonly waiting: () => number
}

export const make = (permits: number): Gate => {
  let free = permits
  // A Set iterates in insertion order: the first entry is the oldest waiter.
  const queue = new Set<Deferred.Deferred<void>>()

  const release = (): void => {
    const next = queue.values().next()
    if (next.done === true) {
      free++
      return
    }
    queue.delete(next.value)
    Deferred.unsafeDone(next.value, Exit.void)
  }

  const acquire = (restore: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) =>
    Effect.suspend(() => {
      if (free > 0) {
        free--
        return Effect.void
      }
      const granted = Deferred.unsafeMake<void>(FiberId.none)
      queue.add(granted)
      return restore(Deferred.await(granted)).pipe(
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            // Still queued: leave. Already granted (the release came first): pass the permit on.
            if (!queue.delete(granted)) release()
          })
        )
      )
    })

  return {
    withPermit: (self) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(acquire(restore), Effect.ensuring(restore(self), Effect.sync(release)))
      ),
    free: () => free,
    waiting: () => queue.size
  }
}
