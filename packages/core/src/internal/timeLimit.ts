/**
 * A time limit shared by many effects, with one timer fiber for all of them.
 *
 * `Effect.timeout` forks two fibers per call (the work and a sleep) and races them; with a few
 * requests per conversion and many conversions at once, that was, after the HTTP stack itself,
 * the largest cost of a request in the loopback benchmark. Here each limited effect runs in one
 * child fiber, and a single watchdog fiber sleeps on the Clock (a `TestClock` in tests) until the
 * earliest deadline and interrupts what has overrun it. The watchdog runs only while something is
 * running: it is stopped when the last limited effect ends, so nothing sleeps on a finished test's
 * clock. One limit per instance keeps the deadlines in the order they were set.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"

interface Entry {
  readonly deadline: number
  fiber: Fiber.RuntimeFiber<unknown, unknown> | undefined
  /** `running` until the work ends (`done`) or the watchdog interrupts it (`cut`). */
  state: "running" | "done" | "cut"
}

/** Runs effects within one time limit. */
export interface TimeLimit {
  /** `self` in a child fiber, interrupted once it has run the limit; it then fails with `onTimeout()`. */
  readonly within: <A, E, E2>(self: Effect.Effect<A, E>, onTimeout: () => E2) => Effect.Effect<A, E | E2>
}

/** @internal */
export const make = (limitMs: number): TimeLimit => {
  /** What may still be running, oldest (earliest deadline) first; settled entries leave lazily. */
  const entries: Array<Entry> = []
  let running = 0
  /** The watchdog; `starting` from the moment it is asked for until its fiber exists. */
  let watchdog: Fiber.RuntimeFiber<void> | "starting" | undefined

  const stopWatchdog = () => {
    const fiber = watchdog
    watchdog = undefined
    entries.length = 0
    if (fiber !== undefined && fiber !== "starting") fiber.unsafeInterruptAsFork(FiberId.none)
  }

  const startWatchdog: Effect.Effect<void> = Effect.suspend(() => {
    if (watchdog !== undefined) return Effect.void
    watchdog = "starting"
    // Interruptible although started from the uninterruptible part of `within`: it is stopped by
    // interruption, and an uninterruptible one would outlive its sleep.
    return Effect.map(Effect.forkDaemon(Effect.interruptible(watch)), (fiber) => {
      // Stopped while starting: everything ended before the watchdog existed.
      if (watchdog === "starting") watchdog = fiber
      else fiber.unsafeInterruptAsFork(FiberId.none)
    })
  })

  /** Interrupts what is due, then sleeps until the next deadline. */
  const watch: Effect.Effect<void> = Effect.fiberIdWith((self) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      while (entries.length > 0 && (entries[0]!.state !== "running" || entries[0]!.deadline <= now)) {
        const entry = entries.shift()!
        if (entry.state === "running") {
          entry.state = "cut"
          running--
          entry.fiber?.unsafeInterruptAsFork(self)
        }
      }
      if (entries.length === 0) {
        // Stopped while starting, this watchdog may be the one on record: it is gone now.
        if (watchdog !== undefined && watchdog !== "starting" && Equal.equals(watchdog.id(), self)) watchdog = undefined
        return Effect.void
      }
      return Effect.zipRight(Effect.sleep(entries[0]!.deadline - now), watch)
    })
  )

  const within = <A, E, E2>(self: Effect.Effect<A, E>, onTimeout: () => E2): Effect.Effect<A, E | E2> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const entry: Entry = { deadline: now + limitMs, fiber: undefined, state: "running" }
        const settle = Effect.sync(() => {
          if (entry.state !== "running") return
          entry.state = "done"
          // The entry waits in the queue until its deadline; the finished fiber need not.
          entry.fiber = undefined
          if (--running === 0) stopWatchdog()
        })
        return Effect.flatMap(Effect.fork(Effect.ensuring(restore(self), settle)), (fiber) => {
          entry.fiber = fiber
          entries.push(entry)
          running++
          return Effect.zipRight(
            startWatchdog,
            Effect.flatMap(restore(Fiber.await(fiber)), (exit): Effect.Effect<A, E | E2> => {
              if (Exit.isSuccess(exit) || entry.state !== "cut") return exit
              return Effect.fail(onTimeout())
            })
          ).pipe(Effect.onInterrupt(() => Fiber.interruptFork(fiber)))
        })
      })
    )

  return { within }
}
