/**
 * The life of a claimed task: read its PDF, convert, record the output or the reason. All it needs is
 * in the task's row, so any node runs it, again after a crash; a task ends once, its output written whole.
 */
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { fetchTarget } from "./addresses.js"
import type { AppContext } from "./context.js"
import type { Engine } from "./metrics.js"
import type { Outcome, Task } from "./store.js"
import { SubmitBody } from "./submitBody.js"

/** A failure whose message becomes the task's reason. */
interface Failure {
  readonly message: string
}

const decodeRequest = Schema.decodeUnknown(Schema.parseJson(SubmitBody))

/** Page progress as the poller sees it: never 100 before the output exists, never backwards (the store keeps the highest). */
const trackProgress = (context: AppContext, task: Task) => (progress: ConverterModule.Progress) => {
  if (progress.pagesTotal <= 0) return Effect.void
  const percent = Math.min(99, Math.max(0, Math.floor((progress.pagesDone / progress.pagesTotal) * 100)))
  // Progress is advisory: a failed write is logged and the conversion goes on.
  return Effect.catchAll(
    context.store.setProgress(task.id, percent),
    (error) => Effect.logWarning("task progress not recorded", error)
  )
}

const uploadedPdf = (context: AppContext, fileId: string): Effect.Effect<Uint8Array, Failure> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    context.store.fileBytes(fileId, now).pipe(
      Effect.mapError((error) => ({ message: error.message })),
      Effect.flatMap(Option.match({
        onNone: () => Effect.fail({ message: "The uploaded PDF expired before the conversion started" }),
        onSome: Effect.succeed
      }))
    ))

/** The task's PDF: one of the server's uploads, or fetched from its checked remote address. */
const readPdf = (context: AppContext, task: Task): Effect.Effect<Uint8Array, Failure> => {
  const source = task.source
  if (source._tag === "File") return uploadedPdf(context, source.fileId)
  return fetchTarget(
    { url: new URL(source.url), address: source.address, family: source.family },
    { maxBytes: context.options.remoteFetch.maxBytes, timeoutMs: context.options.remoteFetch.timeoutMs }
  ).pipe(Effect.mapError((failure) => ({ message: failure.reason })))
}

const convert = (
  context: AppContext,
  task: Task,
  request: SubmitBody,
  pdf: Uint8Array
): Effect.Effect<Converted, Failure> => {
  const timeoutMs = context.options.conversionTimeoutMs
  const convertOptions: ConverterModule.ConvertOptions = {
    ignorePdfErrors: request.ignore_pdf_errors,
    ignoreOcrErrors: request.ignore_ocr_errors,
    filename: request.filename,
    onProgress: trackProgress(context, task),
    timeout: timeoutMs
  }
  const converted = <A>(conversion: ConverterModule.Conversion<A>, output: Uint8Array): Converted => ({
    output,
    pages: conversion.pages,
    engine: (conversion.ocrPages?.length ?? 0) > 0 ? "ocr" : "text"
  })
  const output = task.format === "markdown"
    ? Effect.map(
      context.converter.toMarkdown(pdf, convertOptions),
      (c) => converted(c, new TextEncoder().encode(c.output))
    )
    : Effect.map(context.converter.toEpub(pdf, convertOptions), (c) => converted(c, c.output))
  // The converter has its own limit; this one also covers a converter that ignores it.
  return Effect.timeoutFail(output, {
    duration: timeoutMs + 1000,
    onTimeout: () => ({ message: `Conversion did not finish within ${Math.round(timeoutMs / 1000)} s` })
  })
}

/** A conversion's output, with what the metrics count of it. */
interface Converted {
  readonly output: Uint8Array
  readonly pages: number
  readonly engine: Engine
}

const outputOf = (context: AppContext, task: Task): Effect.Effect<Converted, Failure> =>
  Effect.gen(function*() {
    const request = yield* Effect.mapError(decodeRequest(task.request), () => ({
      message: "The task's stored request could not be read"
    }))
    const pdf = yield* readPdf(context, task)
    return yield* convert(context, task, request, pdf)
  })

/** Runs the task `task` to its end. Never fails: a failure is the task's reason; only interruption stops it. */
export const runConversion = (context: AppContext, task: Task): Effect.Effect<void> => {
  const finish = (outcome: Outcome) =>
    Effect.flatMap(
      Clock.currentTimeMillis,
      (now) =>
        context.store.finishTask(task.id, outcome, now + context.options.taskRetentionMs, context.options.node.id)
    )

  const seconds = (started: number) => Effect.map(Clock.currentTimeMillis, (now) => (now - started) / 1000)
  return Effect.flatMap(Clock.currentTimeMillis, (started) =>
    outputOf(context, task).pipe(
      Effect.tap((converted) =>
        Effect.flatMap(seconds(started), (s) => context.metrics.converted(task.format, s, converted))
      ),
      Effect.tapErrorCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.void
          : Effect.flatMap(seconds(started), (s) => context.metrics.converted(task.format, s, "failed"))
      )
    )).pipe(
      Effect.matchCauseEffect({
        onSuccess: ({ output }) =>
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
      // A task whose end cannot be written stays processing: a restart runs it again.
      Effect.catchTag(
        "StorageError",
        (error) =>
          Effect.zipRight(
            context.metrics.storageFailed(error.operation),
            Effect.logError("task end not recorded", error)
          )
      ),
      Effect.annotateLogs({ taskId: task.id, format: task.format, key: task.owner }),
      Effect.withSpan("Server.conversion", {
        attributes: { "pdf_transform.task_id": task.id, "pdf_transform.format": task.format },
        captureStackTrace: false
      }),
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("conversion fiber failed", cause)
      )
    )
}
