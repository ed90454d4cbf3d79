/**
 * Where conversions come from: every node takes them from the store's queue of processing tasks,
 * the oldest first, one claim per free slot of its own. A submit on this node wakes it at once;
 * tasks submitted to other nodes of a shared database are found by a poll while a slot is free.
 *
 * On a database of its own (SQLite), a claim lasts until the task ends, and claims found at start
 * were left by a process that died: they are released and the tasks run again. On a shared
 * database a claim is a lease, renewed every third of its length while the node lives; when a
 * node dies its leases lapse and other nodes claim its tasks. A conversion run twice ends once
 * (the store ignores a second end), and a node that stops cleanly releases its claims at once.
 * A node that finds at a renewal that it no longer holds a task's claim (it was paused past its
 * lease, and another node took the task) stops converting it, and its slot takes another task.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberMap from "effect/FiberMap"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import type { AppContext } from "./context.js"
import { runConversion } from "./conversion.js"

/**
 * Starts the node's dispatcher in the current scope; closing the scope stops its conversions and
 * releases its claims. Its result drains: it waits for the running conversions, at most the given
 * time, then stops the rest and releases their claims (with `draining` set, nothing is claimed).
 */
export const start = (
  context: AppContext
): Effect.Effect<(timeoutMs: number) => Effect.Effect<void>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { store, options, wakeUps } = context
    const node = options.node
    const slots = options.maxConcurrentConversions

    const release = Effect.catchAll(store.releaseClaims(node.id), (error) =>
      Effect.zipRight(context.metrics.storageFailed(error.operation), Effect.logWarning("claims not released", error)))
    // Added before the conversions' map, so it runs after they are interrupted.
    yield* Effect.addFinalizer(() =>
      release
    )
    /** The conversions running here, by task id; a fiber leaves the map when its conversion ends. */
    const running = yield* FiberMap.make<string, void, never>()

    if (!node.shared) {
      yield* Effect.catchAll(store.releaseClaims(undefined), (error) => Effect.logError("claims not reset", error))
    }

    const claimUntil = (now: number) => node.shared ? now + node.leaseMs : null

    /** Claims tasks while slots are free; true when the storage failed a claim (so it is tried again). */
    const fill: Effect.Effect<boolean> = Effect.gen(function*() {
      while ((yield* FiberMap.size(running)) < slots && !(yield* Ref.get(context.draining))) {
        const now = yield* Clock.currentTimeMillis
        const claimed = yield* store.claimNext({ node: node.id, until: claimUntil(now) }, now)
        if (Option.isNone(claimed)) return false
        const task = claimed.value
        // A lease of ours that lapsed and was claimed again by us: the conversion is still running here.
        if (yield* FiberMap.has(running, task.id)) continue
        if (task.claims > 1) yield* context.metrics.takenOver
        const conversion = Effect.zipRight(
          context.metrics.running(1),
          Effect.ensuring(runConversion(context, task), context.metrics.running(-1))
        )
        const fiber = yield* FiberMap.run(running, task.id, conversion)
        // After the map's own observer has removed the fiber: the woken loop sees the slot free.
        fiber.addObserver(() => Queue.unsafeOffer(wakeUps, undefined))
      }
      return false
    }).pipe(
      Effect.catchAll((error) =>
        Effect.as(
          Effect.zipRight(
            context.metrics.storageFailed(error.operation),
            Effect.logError("could not claim a task", error)
          ),
          true
        )
      ),
      Effect.annotateLogs({ node: node.id })
    )

    // A submit here, or a conversion's end, wakes the loop. It also looks every poll interval on a
    // shared database, for tasks submitted elsewhere (or left by a node that died), and on any
    // database after the storage failed a claim, so a task is not left waiting for the next submit.
    const poll = Effect.race(Queue.take(wakeUps), Effect.sleep(Duration.millis(node.pollMs)))
    const wait = (failed: boolean) => node.shared || failed ? poll : Queue.take(wakeUps)
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(fill, wait)))

    if (node.shared) {
      const renew = Effect.gen(function*() {
        // Claimed before this renewal: a task among them that is not renewed is someone else's now
        // (one claimed meanwhile may not be in the answer yet, and one that has just ended is not).
        const before = Array.from(running, ([id]) => id)
        const now = yield* Clock.currentTimeMillis
        const held = yield* store.renewClaims(node.id, now + node.leaseMs)
        for (const id of before.filter((id) => !held.has(id))) {
          if (!(yield* FiberMap.has(running, id))) continue
          yield* Effect.logWarning("claim lost to another node: conversion stopped", { task: id })
          yield* FiberMap.remove(running, id)
        }
      }).pipe(
        Effect.catchAll((error) =>
          Effect.zipRight(context.metrics.storageFailed(error.operation), Effect.logError("claims not renewed", error))
        ),
        Effect.annotateLogs({ node: node.id })
      )
      yield* Effect.forkScoped(Effect.schedule(renew, Schedule.spaced(Duration.millis(node.leaseMs / 3))))
      // Expiry runs on every node (deleting what has expired is idempotent), not only on requests.
      const sweep = Effect.flatMap(
        Clock.currentTimeMillis,
        (now) =>
          Effect.catchAll(store.sweepIfDue(now), (error) => Effect.logWarning("expired entries not dropped", error))
      )
      yield* Effect.forkScoped(Effect.schedule(sweep, Schedule.spaced(Duration.seconds(5))))
    }
    return (timeoutMs: number) =>
      Effect.gen(function*() {
        const count = yield* FiberMap.size(running)
        yield* Effect.logInfo("draining").pipe(Effect.annotateLogs({ conversions: count, timeoutMs }))
        // Interruptible even in a finalizer, or the time limit could not stop the waiting.
        const finished = yield* Effect.timeoutTo(Effect.interruptible(FiberMap.awaitEmpty(running)), {
          duration: Duration.millis(timeoutMs),
          onSuccess: () => true,
          onTimeout: () => false
        })
        if (finished) return
        const cut = yield* FiberMap.size(running)
        yield* FiberMap.clear(running)
        yield* release
        yield* Effect.logWarning("drain time over: conversions stopped, their claims released").pipe(
          Effect.annotateLogs({ conversions: cut })
        )
      }).pipe(Effect.annotateLogs({ node: node.id }))
  })
