/**
 * The life of a task after its submit: fetch the PDF if it is remote, wait for a conversion
 * permit, convert within the time limit, record the output or the reason, release the key's
 * in-flight slot. Runs in a background fiber owned by the application's scope.
 */
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { fetchTarget } from "./addresses.js"
import type { KeyIdentity } from "./auth.js"
import type { AppContext } from "./context.js"
import type { Source } from "./source.js"
import type { SubmitBody } from "./submitBody.js"
import type { TaskRecord } from "./taskStore.js"

/** A failure whose message becomes the task's reason. */
interface Failure {
  readonly message: string
}

/** Page progress as the poller sees it: never 100 before the output exists, never backwards. */
const trackProgress = (task: TaskRecord) => (progress: ConverterModule.Progress) =>
  Effect.sync(() => {
    if (progress.pagesTotal <= 0) return
    const percent = Math.floor((progress.pagesDone / progress.pagesTotal) * 100)
    task.progress = Math.max(task.progress, Math.min(99, Math.max(0, percent)))
  })

const fetchPdf = (context: AppContext, source: Source): Effect.Effect<Uint8Array, Failure> =>
  source._tag === "Local"
    ? Effect.succeed(source.bytes)
    : fetchTarget(source.target, {
      maxBytes: context.options.remoteFetch.maxBytes,
      timeoutMs: context.options.remoteFetch.timeoutMs
    }).pipe(Effect.mapError((failure) => ({ message: failure.reason })))

const convert = (
  context: AppContext,
  task: TaskRecord,
  request: SubmitBody,
  pdf: Uint8Array
): Effect.Effect<Uint8Array, Failure> => {
  const timeoutMs = context.options.conversionTimeoutMs
  const convertOptions: ConverterModule.ConvertOptions = {
    ignorePdfErrors: request.ignore_pdf_errors,
    ignoreOcrErrors: request.ignore_ocr_errors,
    filename: request.filename,
    onProgress: trackProgress(task),
    timeout: timeoutMs
  }
  const output = task.format === "markdown"
    ? Effect.map(context.converter.toMarkdown(pdf, convertOptions), (c) => new TextEncoder().encode(c.output))
    : Effect.map(context.converter.toEpub(pdf, convertOptions), (c) => c.output)
  // The converter has its own limit; this one also covers a converter that ignores it.
  return Effect.timeoutFail(output, {
    duration: timeoutMs + 1000,
    onTimeout: () => ({ message: `Conversion did not finish within ${Math.round(timeoutMs / 1000)} s` })
  })
}

export const runConversion = (
  context: AppContext,
  task: TaskRecord,
  source: Source,
  request: SubmitBody,
  key: KeyIdentity
): Effect.Effect<void> => {
  const finish = (outcome: { readonly output: Uint8Array } | { readonly error: string }) =>
    Effect.flatMap(
      Clock.currentTimeMillis,
      (now) => Effect.sync(() => context.tasks.finish(task, outcome, now + context.options.taskRetentionMs))
    )

  return fetchPdf(context, source).pipe(
    Effect.flatMap((pdf) => context.conversions.withPermit(convert(context, task, request, pdf))),
    Effect.matchCauseEffect({
      onSuccess: (output) =>
        Effect.zipRight(
          finish({ output }),
          Effect.logInfo("task completed").pipe(Effect.annotateLogs({ bytes: output.byteLength }))
        ),
      onFailure: (cause) => {
        if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
        const failure = Cause.failureOption(cause)
        const reason = failure._tag === "Some" && failure.value.message !== ""
          ? failure.value.message
          : "Internal conversion error"
        return Effect.zipRight(
          finish({ error: reason }),
          failure._tag === "Some"
            ? Effect.logInfo("task failed").pipe(Effect.annotateLogs({ reason }))
            : Effect.logError("task failed with a defect", cause)
        )
      }
    }),
    Effect.ensuring(context.limiter.release(key.id)),
    Effect.annotateLogs({ taskId: task.id, format: task.format, key: key.id }),
    Effect.catchAllCause(() => Effect.void)
  )
}
