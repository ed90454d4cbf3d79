/**
 * A first-come, first-served gate of a resizable number of permits, for thousands of waiting
 * fibers. Effect 3's `Semaphore` wakes every waiter while a permit is free and sends all but one
 * back to wait, so its cost per release grows with the queue (the stream package's `bench:forks`
 * and the server README give figures). Here a release hands its permit to the oldest waiter only, and a resize grants
 * exactly as many waiters as the new limit allows.
 *
 * The batch package sizes its gate from the service's concurrency hints; the reference server
 * bounds its conversions with one.
 *
 * @since 0.1.0
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"

/**
 * @since 0.1.0
 * @category models
 */
export interface Gate {
  /**
   * Runs `self` once a permit is free, in arrival order (a `priority` waiter goes before every
   * ordinary one); the permit is returned however `self` ends. With `immediate`, the permit is
   * taken at once even when none is free (held may then exceed the limit until enough are
   * returned): for work that already runs and must be counted, such as a task a restarted batch
   * finds running at the service.
   */
  readonly withPermit: <A, E, R>(
    self: Effect.Effect<A, E, R>,
    options?: { readonly priority?: boolean | undefined; readonly immediate?: boolean | undefined }
  ) => Effect.Effect<A, E, R>
  /**
   * Sets the number of permits (at least 1). Growing grants waiters at once; shrinking takes
   * nothing back from holders: new grants wait until fewer than `limit` are held.
   */
  readonly resize: (limit: number) => Effect.Effect<void>
  /** The number of permits now. */
  readonly limit: () => number
  /** Permits held now. */
  readonly held: () => number
  /** Fibers waiting for a permit now. */
  readonly waiting: () => number
}

/**
 * A gate of `limit` permits (at least 1).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (limit: number): Gate => {
  let permits = normalize(limit)
  let held = 0
  // Sets iterate in insertion order: the first entry is the oldest waiter.
  const urgent = new Set<Deferred.Deferred<void>>()
  const queue = new Set<Deferred.Deferred<void>>()

  const oldest = (): Deferred.Deferred<void> | undefined => {
    for (const waiters of [urgent, queue]) {
      const next = waiters.values().next()
      if (next.done !== true) {
        waiters.delete(next.value)
        return next.value
      }
    }
    return undefined
  }

  const grant = (): void => {
    while (held < permits) {
      const next = oldest()
      if (next === undefined) return
      held++
      Deferred.unsafeDone(next, Exit.void)
    }
  }

  const release = (): void => {
    held--
    grant()
  }

  const acquire = (
    restore: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>,
    priority: boolean,
    immediate: boolean
  ) =>
    Effect.suspend(() => {
      if (immediate || (held < permits && urgent.size === 0 && queue.size === 0)) {
        held++
        return Effect.void
      }
      const granted = Deferred.unsafeMake<void>(FiberId.none)
      const waiters = priority ? urgent : queue
      waiters.add(granted)
      return restore(Deferred.await(granted)).pipe(
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            // Still waiting: leave. Already granted (the grant came first): pass the permit on.
            if (!waiters.delete(granted)) release()
          })
        )
      )
    })

  return {
    withPermit: (self, options) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(
          acquire(restore, options?.priority === true, options?.immediate === true),
          Effect.ensuring(restore(self), Effect.sync(release))
        )
      ),
    resize: (next) =>
      Effect.sync(() => {
        permits = normalize(next)
        grant()
      }),
    limit: () => permits,
    held: () => held,
    waiting: () => urgent.size + queue.size
  }
}

const normalize = (limit: number): number => Number.isNaN(limit) ? 1 : Math.max(1, Math.floor(limit))
