/** A first-come, first-served gate of resizable permits; a release wakes the oldest waiter only (unlike `Semaphore`). */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"

export interface Gate {
  /** Runs `self` with a permit, in arrival order (`priority` first); the permit returns however `self` ends. */
  readonly withPermit: <A, E, R>(
    self: Effect.Effect<A, E, R>,
    options?: { readonly priority?: boolean | undefined; readonly immediate?: boolean | undefined }
  ) => Effect.Effect<A, E, R>
  /** Sets the permits (at least 1); shrinking takes nothing back, new grants wait until fewer are held. */
  readonly resize: (limit: number) => Effect.Effect<void>
  /** The number of permits now. */
  readonly limit: () => number
  /** Permits held now. */
  readonly held: () => number
  /** Fibers waiting for a permit now. */
  readonly waiting: () => number
  /** A permit that one fiber takes and gives back across steps of its own (see `Slot`). */
  readonly slot: () => Slot
}

/** A permit held across steps: taken before a submit, given back when it is refused or its task ends. */
export interface Slot {
  /** Waits for the permit (in arrival order, or before the ordinary waiters with `priority`), unless held already. */
  readonly take: (priority: boolean) => Effect.Effect<void>
  /** Gives the permit back, if held. */
  readonly give: Effect.Effect<void>
}

/** A gate of `limit` permits (at least 1). */
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
    waiting: () => urgent.size + queue.size,
    slot: () => {
      let taken = false
      return {
        take: (priority) =>
          Effect.uninterruptibleMask((restore) =>
            taken ? Effect.void : Effect.zipRight(
              acquire(restore, priority, false),
              Effect.sync(() => {
                taken = true
              })
            )
          ),
        give: Effect.sync(() => {
          if (!taken) return
          taken = false
          release()
        })
      }
    }
  }
}

const normalize = (limit: number): number => Number.isNaN(limit) ? 1 : Math.max(1, Math.floor(limit))
