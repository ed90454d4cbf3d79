/** A submitted task to its end: polled, its slot given back, downloaded whole to its output, journaled. */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import type * as Contract from "@pdf-transform/core/Contract"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type { TransportError } from "@pdf-transform/core/PdfTransformError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { JobError, JournalFailed } from "../BatchError.js"
import { type Final, type JobInfo, StopReason } from "../BatchEvent.js"
import * as atomicWrite from "./atomicWrite.js"
import type { BatchContext } from "./context.js"

/** Polls until the task is terminal; answers the completed task or why it is not one. */
export const awaitEnd = <F extends Contract.Format>(
  ctx: BatchContext,
  job: JobInfo,
  task: PdfTransformClient.Task<F>
): Effect.Effect<Either.Either<PdfTransformClient.CompletedTask<F>, PdfTransformClient.AwaitError>> =>
  Effect.suspend(() => {
    let highest = -1
    const onStatus = (status: PdfTransformClient.Status): Effect.Effect<void> => {
      const progress = status.progress
      if (PdfTransformClient.isTerminal(status) || progress === undefined || progress <= highest) return Effect.void
      highest = progress
      return ctx.emit({ _tag: "Progress", job, sessionId: task.sessionId, progress })
    }
    const onTransientFailure = (error: PdfTransformClient.StatusError): Effect.Effect<void, TransportError> =>
      error._tag === "TransportError" && !error.sent ?
        Effect.flatMap(
          ctx.reachability.failed(error),
          (nextTry) => Option.isSome(nextTry) ? Effect.void : Effect.fail(error)
        ) :
        Effect.void
    return Effect.either(
      ctx.client.awaitCompletion(task, {
        ...ctx.settings.poll,
        onStatus: (status) => Effect.zipRight(ctx.reachability.answered, onStatus(status)),
        onTransientFailure
      })
    )
  })

/** Whether the task is over at the service, so a later run has nothing to poll. */
const taskEnded = (error: JobError): boolean => error._tag === "ConversionFailed" || error._tag === "TaskNotFound"

/** Records and reports a failure of a task that was submitted. */
export const failed = (
  ctx: BatchContext,
  job: JobInfo,
  sessionId: Contract.SessionId,
  error: JobError
): Effect.Effect<Final, JournalFailed> =>
  Effect.gen(function*() {
    yield* ctx.journal.append({
      state: "failed",
      key: job.key,
      sessionId,
      failure: { tag: error._tag, message: error.message, taskEnded: taskEnded(error) }
    })
    if (error._tag === "Unauthenticated") yield* ctx.stop.stop(StopReason.Unauthenticated({ error }))
    return { _tag: "Failed", job, error, sessionId }
  })

/** Downloads a completed task to `output` (under the download bound) and records the result. */
export const deliver = <F extends Contract.Format>(
  ctx: BatchContext,
  job: JobInfo,
  completed: PdfTransformClient.CompletedTask<F>,
  output: string
): Effect.Effect<Final, JournalFailed, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const written = yield* ctx.downloads.withPermit(
      Effect.either(atomicWrite.write(output, ctx.client.download(completed), ctx.syncDirectory))
    )
    if (Either.isLeft(written)) return yield* failed(ctx, job, completed.sessionId, written.left)
    yield* ctx.journal.append({
      state: "completed",
      key: job.key,
      sessionId: completed.sessionId,
      output,
      bytes: written.right
    })
    return { _tag: "Completed", job, sessionId: completed.sessionId, output, bytes: written.right }
  })

/** A task's whole life after its submit: its end, then its output. */
export const settle = <F extends Contract.Format>(
  ctx: BatchContext,
  job: JobInfo,
  task: PdfTransformClient.Task<F>,
  ended: Either.Either<PdfTransformClient.CompletedTask<F>, PdfTransformClient.AwaitError>,
  output: string
): Effect.Effect<Final, JournalFailed, FileSystem.FileSystem | Path.Path> =>
  Either.isLeft(ended) ? failed(ctx, job, task.sessionId, ended.left) : deliver(ctx, job, ended.right, output)
