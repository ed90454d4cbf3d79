/** One job's submit through core's retry loop; the batch's gates and journal lines are its hooks. */
import type * as Contract from "@pdf-transform/core/Contract"
import type * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type { TransportError } from "@pdf-transform/core/PdfTransformError"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { JobError, JournalFailed } from "../BatchError.js"
import { describeStop, type JobInfo, StopReason } from "../BatchEvent.js"
import type { BatchContext } from "./context.js"
import type { Slot } from "./gate.js"
import * as metrics from "./metrics.js"

export type SubmitResult<A> =
  | { readonly _tag: "Done"; readonly value: A }
  | { readonly _tag: "NotAttempted"; readonly reason: string }
  | { readonly _tag: "Failed"; readonly error: JobError }
  | { readonly _tag: "Ambiguous"; readonly reason: string }

/** The batch stopped before the job's next attempt: nothing more is sent for it. */
class NotAttempted extends Data.TaggedError("NotAttempted")<{ readonly reason: string }> {}

/** A task may exist that the batch cannot name: never resubmitted blindly. */
class Ambiguous extends Data.TaggedError("Ambiguous")<{ readonly reason: string }> {}

/** Waits until no shared pause is in force, or the batch stops (racing only when there is a pause to wait out). */
export const passRateGate = (ctx: BatchContext) =>
  Effect.flatMap(
    Clock.currentTimeMillis,
    (now) =>
      Effect.flatMap(ctx.rateGate.resumesAt, (resumesAt) =>
        resumesAt <= now ?
          Effect.void :
          Effect.raceFirst(ctx.rateGate.pass, Deferred.await(ctx.stop.signal)))
  )

/** Waits for the shared pace (or the batch's stop), racing only when there is a wait: most submits need none. */
const takeRateGate = (ctx: BatchContext) =>
  Effect.flatMap(ctx.rateGate.tryTake, (wait) =>
    wait === 0 ?
      Effect.void :
      Effect.raceFirst(Effect.zipRight(Effect.sleep(wait), ctx.rateGate.take), Deferred.await(ctx.stop.signal)))

/** Errors that carry an answer of the service: it was reached. */
const answered = (error: PdfTransformClient.SubmitError): boolean =>
  error._tag === "RateLimited" || error._tag === "Unauthenticated" || error._tag === "UnexpectedResponse" ||
  error._tag === "InvalidResponse"

/** Waits out an unreachable service before another try, or answers `false` when the batch gives up. */
export const waitForService = (ctx: BatchContext, error: TransportError) =>
  Effect.flatMap(ctx.reachability.failed(error), (nextTry) =>
    Option.match(nextTry, {
      onNone: () => Effect.succeed(false),
      onSome: (at) => Effect.as(ctx.rateGate.pauseUntil(at), true)
    }))

/** Fails with `NotAttempted` once the batch has stopped. */
const unlessStopped = (ctx: BatchContext) =>
  Effect.flatMap(
    ctx.stop.current,
    (stop) => Option.isSome(stop) ? Effect.fail(new NotAttempted({ reason: describeStop(stop.value) })) : Effect.void
  )

/** Core's retry figures for a batch: no deadline, no count of its own; the batch says when to stop. */
const unbounded = { maxAttempts: Number.POSITIVE_INFINITY, deadline: Duration.infinity } as const

/** The hooks of one job's submit: its journal lines and what its answers teach the gates. */
const hooks = (ctx: BatchContext, job: JobInfo & { readonly format: Contract.Format }, output: string, slot: Slot) => {
  const { concurrency, journal, rateGate } = ctx
  /** Refusals of this job that count against `maxSubmitAttempts` (an unreachable service does not). */
  let counted = 0

  const again = (counts: boolean): Effect.Effect<"retry" | "stop", NotAttempted> =>
    Effect.zipRight(
      unlessStopped(ctx),
      Effect.sync(() => counts && ++counted >= ctx.settings.maxSubmitAttempts ? "stop" : "retry")
    )

  const beforeAttempt = (attempt: number): Effect.Effect<void, NotAttempted | JournalFailed> =>
    Effect.gen(function*() {
      yield* Effect.interruptible(Effect.gen(function*() {
        yield* passRateGate(ctx)
        yield* unlessStopped(ctx)
        // A job sent back keeps its place ahead of jobs that have not tried yet.
        yield* metrics.waiting(slot.take(attempt > 1))
        // With the slot held, so the pace's turn is not spent waiting for a slot.
        yield* takeRateGate(ctx)
      }))
      yield* Effect.tapError(unlessStopped(ctx), () => slot.give)
      yield* journal.append({ state: "submitting", key: job.key, name: job.name, format: job.format, output })
    })

  const onAccepted = (task: PdfTransformClient.Task): Effect.Effect<void, JournalFailed> =>
    Effect.gen(function*() {
      yield* journal.append({ state: "submitted", key: job.key, sessionId: task.sessionId })
      yield* ctx.reachability.answered
      yield* concurrency.observe(task.rateLimit, true)
      yield* rateGate.observe(task.rateLimit)
      yield* ctx.emit({ _tag: "Submitted", job, sessionId: task.sessionId, resumed: false })
    })

  /** What a refused attempt means: retry, fail, or stop the batch. */
  const onRefused = (
    error: PdfTransformClient.SubmitError
  ): Effect.Effect<"retry" | "stop", NotAttempted | Ambiguous | JournalFailed> =>
    Effect.gen(function*() {
      const rejected = journal.append({ state: "rejected", key: job.key, reason: error._tag })
      if (answered(error)) yield* ctx.reachability.answered
      switch (error._tag) {
        case "RateLimited": {
          yield* rejected
          yield* metrics.rateLimited(error.reason ?? "unspecified")
          yield* rateGate.observe(error.rateLimit)
          if (error.reason === "quota_exceeded") {
            yield* slot.give
            yield* ctx.stop.stop(StopReason.QuotaSpent({ error }))
            return "stop"
          }
          if (error.reason === "concurrency_exceeded") {
            yield* concurrency.exceeded(error.rateLimit)
            // No slot of ours will free: keep it, so this job alone probes the full service again.
            if ((yield* concurrency.inFlight) > 0) yield* slot.give
          } else {
            yield* slot.give
            yield* concurrency.observe(error.rateLimit, false)
            if (error.retryAt !== undefined) yield* rateGate.pauseUntil(error.retryAt)
          }
          return yield* again(true)
        }
        case "Unauthenticated":
          yield* slot.give
          yield* rejected
          yield* ctx.stop.stop(StopReason.Unauthenticated({ error }))
          return "stop"
        case "TransportError":
          // Sent, or perhaps: the service may have created a task (ambiguous, below).
          if (error.sent) break
          // Nothing reached the service: no task exists, so trying again is safe.
          yield* slot.give
          yield* rejected
          if (!(yield* waitForService(ctx, error))) {
            yield* unlessStopped(ctx)
            return "stop"
          }
          return yield* again(false)
        case "InvalidRequest":
          yield* slot.give
          yield* rejected
          return "stop"
        case "UnexpectedResponse":
          if (error.status < 500) {
            yield* slot.give
            yield* rejected
            return "stop"
          }
          break
        case "SubmitOutcomeUnknown":
        case "InvalidResponse":
          break
      }
      // The service may have created (and will bill) a task we cannot name.
      yield* slot.give
      yield* journal.append({ state: "ambiguous", key: job.key, reason: error.message })
      return yield* new Ambiguous({ reason: error.message })
    })

  return { ...unbounded, beforeAttempt, onAccepted, onRefused }
}

export const submitAndFollow = <F extends Contract.Format, A, E, R>(
  ctx: BatchContext,
  job: JobInfo & { readonly format: F },
  request: Contract.ConversionRequestInput,
  output: string,
  follow: (task: PdfTransformClient.Task<F>) => Effect.Effect<A, E, R>
): Effect.Effect<SubmitResult<A>, E | JournalFailed, R> =>
  Effect.suspend(() => {
    const slot = ctx.concurrency.gate.slot()
    return ctx.client.submit(job.format, request, hooks(ctx, job, output, slot)).pipe(
      Effect.matchEffect({
        onFailure: (error): Effect.Effect<SubmitResult<A>, JournalFailed> => {
          switch (error._tag) {
            case "JournalFailed":
              return Effect.fail(error)
            case "NotAttempted":
            case "Ambiguous":
              return Effect.succeed({ _tag: error._tag, reason: error.reason })
            default:
              return Effect.succeed({ _tag: "Failed", error })
          }
        },
        onSuccess: (task) =>
          Effect.map(
            Effect.zipRight(
              Effect.annotateCurrentSpan("sessionId", task.sessionId),
              ctx.concurrency.tracking(follow(task))
            ),
            (value): SubmitResult<A> => ({ _tag: "Done", value })
          )
      }),
      Effect.ensuring(slot.give)
    )
  })
