/**
 * One job's submit, under both gates: wait out any shared pause, take a slot of the concurrency
 * gate, write `submitting` to the journal, send, write what the answer proved, and keep the slot
 * while `follow` waits for the task to end.
 *
 * The journal write, the POST and the write of its answer are one uninterruptible step, so an
 * interrupted batch never leaves a task it created unrecorded; only a killed process can leave a
 * `submitting` entry without its answer (reported as ambiguous on restart).
 */
import type * as Contract from "@pdf-transform/core/Contract"
import type * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type { TransportError } from "@pdf-transform/core/PdfTransformError"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { JobError, JournalFailed } from "../BatchError.js"
import { describeStop, type JobInfo, StopReason } from "../BatchEvent.js"
import * as Backoff from "./backoff.js"
import type { BatchContext } from "./context.js"
import * as metrics from "./metrics.js"

export type SubmitResult<A> =
  | { readonly _tag: "Done"; readonly value: A }
  | { readonly _tag: "NotAttempted"; readonly reason: string }
  | { readonly _tag: "Failed"; readonly error: JobError }
  | { readonly _tag: "Ambiguous"; readonly reason: string }

type Step<A> =
  | SubmitResult<A>
  /** Another attempt; `counted` unless it only waited out an unreachable service (bounded by `maxOutage`). */
  | { readonly _tag: "Retry"; readonly error: JobError; readonly counted: boolean }

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

/**
 * Waits for the shared pace to let one more submit go, and counts it; or for the batch to stop
 * (racing only when there is a wait: a race forks two fibers, and most submits need none).
 */
const takeRateGate = (ctx: BatchContext) =>
  Effect.flatMap(ctx.rateGate.tryTake, (wait) =>
    wait === 0 ?
      Effect.void :
      Effect.raceFirst(Effect.zipRight(Effect.sleep(wait), ctx.rateGate.take), Deferred.await(ctx.stop.signal)))

/** Errors that carry an answer of the service: it was reached. */
const answered = (error: PdfTransformClient.SubmitError): boolean =>
  error._tag === "RateLimited" || error._tag === "Unauthenticated" || error._tag === "UnexpectedResponse" ||
  error._tag === "InvalidResponse"

/**
 * Waits out an unreachable service before another try (the same pause for every submitter), or
 * answers `false` when the batch gives up on it (it is then stopped).
 */
export const waitForService = (ctx: BatchContext, error: TransportError) =>
  Effect.flatMap(ctx.reachability.failed(error), (nextTry) =>
    Option.match(nextTry, {
      onNone: () => Effect.succeed(false),
      onSome: (at) => Effect.as(ctx.rateGate.pauseUntil(at), true)
    }))

export const submitAndFollow = <F extends Contract.Format, A, E, R>(
  ctx: BatchContext,
  job: JobInfo & { readonly format: F },
  request: Contract.ConversionRequestInput,
  output: string,
  follow: (task: PdfTransformClient.Task<F>) => Effect.Effect<A, E, R>
): Effect.Effect<SubmitResult<A>, E | JournalFailed, R> =>
  Effect.gen(function*() {
    const { client, concurrency, journal, rateGate } = ctx
    const stopped: Effect.Effect<Option.Option<SubmitResult<A>>> = Effect.map(
      ctx.stop.current,
      Option.map((reason) => ({ _tag: "NotAttempted", reason: describeStop(reason) }))
    )

    /** Pauses every submitter until `delay` from now (the service's hint, else a backoff). */
    const pauseAll = (hint: number | undefined, attempt: number) =>
      Effect.gen(function*() {
        const delay = hint ?? (yield* Backoff.delay(attempt))
        yield* rateGate.pauseUntil((yield* Clock.currentTimeMillis) + delay)
      })

    /** What a refused submit means: retry, fail, or stop the batch. Runs with the slot held. */
    const refused = (error: PdfTransformClient.SubmitError, attempt: number): Effect.Effect<Step<A>, JournalFailed> =>
      Effect.gen(function*() {
        const rejected = journal.append({ state: "rejected", key: job.key, reason: error._tag })
        if (answered(error)) yield* ctx.reachability.answered
        switch (error._tag) {
          case "RateLimited": {
            yield* rejected
            yield* metrics.rateLimited(error.reason ?? "unspecified")
            yield* rateGate.observe(error.rateLimit)
            if (error.reason === "quota_exceeded") {
              yield* ctx.stop.stop(StopReason.QuotaSpent({ error }))
              return { _tag: "Failed", error }
            }
            if (error.reason === "concurrency_exceeded") {
              yield* concurrency.exceeded(error.rateLimit)
              // None of ours will end to free a slot: the service is full of other work. Wait.
              if ((yield* concurrency.inFlight) === 0) yield* pauseAll(error.retryAfterMs, attempt)
            } else {
              yield* concurrency.observe(error.rateLimit, false)
              yield* pauseAll(error.retryAfterMs, attempt)
            }
            return { _tag: "Retry", error, counted: true }
          }
          case "Unauthenticated":
            yield* rejected
            yield* ctx.stop.stop(StopReason.Unauthenticated({ error }))
            return { _tag: "Failed", error }
          case "TransportError":
            // Sent, or perhaps: the service may have created a task (ambiguous, below).
            if (error.sent) break
            // Nothing reached the service: no task exists, so trying again is safe.
            yield* rejected
            if (!(yield* waitForService(ctx, error))) {
              return yield* Effect.map(stopped, Option.getOrElse((): Step<A> => ({ _tag: "Failed", error })))
            }
            return { _tag: "Retry", error, counted: false }
          case "InvalidRequest":
            yield* rejected
            return { _tag: "Failed", error }
          case "UnexpectedResponse":
            if (error.status < 500) {
              yield* rejected
              return { _tag: "Failed", error }
            }
            break
          case "SubmitOutcomeUnknown":
          case "InvalidResponse":
            break
        }
        // The service may have created (and will bill) a task we cannot name: never resubmitted blindly.
        yield* journal.append({ state: "ambiguous", key: job.key, reason: error.message })
        return { _tag: "Ambiguous", reason: error.message }
      })

    const attemptOnce = (attempt: number) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.gen(function*() {
          // With the slot held, so the pace's turn is not spent waiting for a slot.
          yield* restore(takeRateGate(ctx))
          const stop = yield* stopped
          if (Option.isSome(stop)) return stop.value
          yield* journal.append({ state: "submitting", key: job.key, name: job.name, format: job.format, output })
          const answer = yield* Effect.either(client.submit(job.format, request, { maxAttempts: 1 }))
          if (Either.isLeft(answer)) return yield* refused(answer.left, attempt)
          const task = answer.right
          yield* journal.append({ state: "submitted", key: job.key, sessionId: task.sessionId })
          yield* ctx.reachability.answered
          yield* concurrency.observe(task.rateLimit, true)
          yield* rateGate.observe(task.rateLimit)
          yield* Effect.annotateCurrentSpan("sessionId", task.sessionId)
          yield* ctx.emit({ _tag: "Submitted", job, sessionId: task.sessionId, resumed: false })
          const value = yield* restore(concurrency.tracking(follow(task)))
          return { _tag: "Done", value } satisfies Step<A>
        })
      )

    for (let attempt = 1, counted = 0, priority = false;; attempt++) {
      yield* passRateGate(ctx)
      const stop = yield* stopped
      if (Option.isSome(stop)) return stop.value
      const step: Step<A> = yield* concurrency.gate.withPermit(attemptOnce(attempt), { priority })
      if (step._tag !== "Retry") return step
      if (step.counted && ++counted >= ctx.settings.maxSubmitAttempts) return { _tag: "Failed", error: step.error }
      // A job sent back keeps its place ahead of jobs that have not tried yet.
      priority = true
    }
  })
