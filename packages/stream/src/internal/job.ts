/** One job from `Queued` to its final event, by what the journal says earlier runs did. */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Media from "@pdf-transform/core/Media"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type * as Uploader from "@pdf-transform/core/Uploader"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { type JournalFailed, SourceUnreadable, UploaderMissing } from "../BatchError.js"
import { describeStop, type Final, type JobInfo, StopReason } from "../BatchEvent.js"
import type * as Job from "../Job.js"
import type * as Journal from "../Journal.js"
import type { BatchContext } from "./context.js"
import { awaitEnd, settle } from "./follow.js"
import { display, type Identified, identify } from "./keys.js"
import * as metrics from "./metrics.js"
import { sourceName } from "./names.js"
import { passRateGate, submitAndFollow, waitForService } from "./submit.js"

type Effects<A> = Effect.Effect<A, JournalFailed, FileSystem.FileSystem | Path.Path>

/** The first bytes of a local source: enough to tell a PDF, without reading the file. */
const readHead = (path: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    fs.stream(path, { bytesToRead: 8 }).pipe(
      Stream.runCollect,
      Effect.map((chunks) => Uint8Array.from(Chunk.toReadonlyArray(chunks).flatMap((chunk) => [...chunk]))),
      Effect.mapError((cause) => new SourceUnreadable({ path, reason: cause.message }))
    ))

/** The output path a job writes to: the one the journal gave it, else a new claim. */
const outputPath = (ctx: BatchContext, job: Job.Job, info: JobInfo, record: Journal.JobRecord | undefined) =>
  Effect.gen(function*() {
    if (record?.output !== undefined && ctx.names.reserve(record.output)) return record.output
    const paths = yield* Path.Path
    return yield* ctx.names.claim(sourceName(job, paths, `document-${info.key.slice(0, 8)}`), job.format)
  })

/** Uploads again while the service cannot be reached, as submits do; a refused key stops the batch. */
const uploadWithRetries = <E extends Uploader.UploadError | SourceUnreadable, R>(
  ctx: BatchContext,
  upload: Effect.Effect<string, E, R>
): Effect.Effect<string, E, R> =>
  Effect.gen(function*() {
    for (;;) {
      const result = yield* Effect.either(upload)
      if (Either.isRight(result)) {
        yield* ctx.reachability.answered
        return result.right
      }
      const error = result.left
      if (error._tag === "TransportError" && !error.sent) {
        if (!(yield* waitForService(ctx, error))) return yield* Effect.fail(error)
        yield* passRateGate(ctx)
        if (Option.isSome(yield* ctx.stop.current)) return yield* Effect.fail(error)
        continue
      }
      if (error._tag === "Unauthenticated") {
        yield* ctx.reachability.answered
        yield* ctx.stop.stop(StopReason.Unauthenticated({ error }))
      } else if (error._tag === "UnexpectedResponse" || error._tag === "InvalidResponse") {
        yield* ctx.reachability.answered
      }
      return yield* Effect.fail(error)
    }
  })

/** The `pdfURL` to submit: the URL itself, or the upload's answer. */
const pdfUrl = (ctx: BatchContext, job: Job.Job, info: JobInfo, identified: Identified) =>
  Effect.gen(function*() {
    const source = identified.source
    if (source._tag === "Remote") return source.url
    if (Option.isNone(ctx.uploader)) return yield* new UploaderMissing({ source: info.name })
    const uploader = ctx.uploader.value
    const paths = yield* Path.Path
    return yield* ctx.uploads.withPermit(uploadWithRetries(
      ctx,
      Effect.gen(function*() {
        const head = source._tag === "Bytes" ? source.bytes : yield* readHead(source.path)
        if (!Media.looksLikePdf(head)) {
          return yield* new SourceUnreadable({ path: info.name, reason: "not a PDF (it does not start with %PDF-)" })
        }
        // A file is handed over by its path: the uploader streams it, so no file is ever whole in memory.
        const upload: Uploader.UploadSource = source._tag === "File"
          ? { path: source.path, name: paths.basename(source.path) }
          : { bytes: source.bytes, name: `${job.outputName ?? "document"}.pdf` }
        let url = ""
        yield* Stream.runForEach(uploader.uploadWithProgress(upload), (event) => {
          if (event._tag === "Progress") {
            return ctx.emit({ _tag: "Uploading", job: info, sent: event.sent, total: event.total })
          }
          url = event.url
          return ctx.emit({ _tag: "Uploaded", job: info, pdfURL: event.url, bytes: event.bytes })
        })
        return url
      })
    ))
  })

/** Uploads (when needed), submits and follows a job that no earlier run submitted. */
const fresh = (
  ctx: BatchContext,
  job: Job.Job,
  info: JobInfo,
  identified: Identified,
  record: Journal.JobRecord | undefined
): Effects<Final> =>
  Effect.gen(function*() {
    const before = yield* ctx.stop.current
    if (Option.isSome(before)) return { _tag: "NotAttempted", job: info, reason: describeStop(before.value) }
    const prepared = yield* Effect.either(
      Effect.all([outputPath(ctx, job, info, record), pdfUrl(ctx, job, info, identified)])
    )
    if (Either.isLeft(prepared)) {
      // An upload cut short because the batch gave up on the service: nothing was sent.
      const stop = yield* ctx.stop.current
      if (prepared.left._tag === "TransportError" && Option.isSome(stop)) {
        return { _tag: "NotAttempted", job: info, reason: describeStop(stop.value) }
      }
      return { _tag: "Failed", job: info, error: prepared.left }
    }
    const [output, pdfURL] = prepared.right
    const result = yield* submitAndFollow(
      ctx,
      { ...info, format: job.format },
      { ...identified.request, pdfURL },
      output,
      (task) => Effect.map(awaitEnd(ctx, info, task), (ended) => ({ task, ended }))
    )
    switch (result._tag) {
      case "Done":
        return yield* settle(ctx, info, result.value.task, result.value.ended, output)
      case "Failed":
        return { _tag: "Failed", job: info, error: result.error }
      case "NotAttempted":
      case "Ambiguous":
        return { ...result, job: info }
    }
  })

/** Follows a task an earlier run submitted: it is running at the service already, so it holds a slot until it ends. */
const resume = (
  ctx: BatchContext,
  job: Job.Job,
  info: JobInfo,
  record: Journal.JobRecord & { readonly sessionId: PdfTransformClient.Task["sessionId"] }
): Effects<Final> =>
  Effect.gen(function*() {
    const output = yield* Effect.either(outputPath(ctx, job, info, record))
    if (Either.isLeft(output)) return { _tag: "Failed", job: info, error: output.left, sessionId: record.sessionId }
    const task = PdfTransformClient.task(job.format, record.sessionId)
    yield* Effect.annotateCurrentSpan("sessionId", task.sessionId)
    yield* ctx.emit({ _tag: "Submitted", job: info, sessionId: task.sessionId, resumed: true })
    const ended = yield* ctx.concurrency.resumed(awaitEnd(ctx, info, task))
    return yield* settle(ctx, info, task, ended, output.right)
  })

/** What to do with a job, given what the journal says of it. */
const decide = (ctx: BatchContext, job: Job.Job, info: JobInfo, identified: Identified): Effects<Final> => {
  const first = ctx.seen.firstOrAdd(info.key, info.index)
  if (first !== undefined) {
    return Effect.succeed({
      _tag: "Skipped",
      job: info,
      previous: "duplicate",
      reason: `same document, format and options as job ${first + 1} of this batch`
    })
  }
  const record = ctx.recovered.jobs.get(info.key)
  const { resubmitAmbiguous, retryFailed } = ctx.settings
  switch (record?.state) {
    case undefined:
    case "rejected":
      return fresh(ctx, job, info, identified, record)
    case "completed":
      return Effect.succeed({ _tag: "Skipped", job: info, previous: "completed", output: record.output })
    case "submitting":
    case "ambiguous":
      if (resubmitAmbiguous) return fresh(ctx, job, info, identified, record)
      return Effect.succeed({
        _tag: "Ambiguous",
        job: info,
        reason: record.state === "ambiguous" ? record.reason : "an earlier run ended while its submit was in flight"
      })
    case "submitted":
    case "failed": {
      const sessionId = record.sessionId
      const ended = record.state === "failed" && record.failure.taskEnded
      if (ended && !retryFailed) {
        return Effect.succeed({ _tag: "Skipped", job: info, previous: "failed", reason: record.failure.message })
      }
      if (sessionId !== undefined && !ended) return resume(ctx, job, info, { ...record, sessionId })
      return fresh(ctx, job, info, identified, record)
    }
  }
}

/** Runs one job and reports its events; only a journal failure escapes (it stops the batch). */
export const run = (ctx: BatchContext, job: Job.Job, index: number): Effects<void> => {
  const name = display(job, index)
  return Effect.gen(function*() {
    const identified = yield* Effect.either(identify(job))
    const info: JobInfo = {
      index,
      name,
      key: Either.isRight(identified) ? identified.right.key : "",
      format: job.format
    }
    yield* ctx.emit({ _tag: "Queued", job: info })
    const final = Either.isRight(identified) ?
      yield* decide(ctx, job, info, identified.right) :
      { _tag: "Failed" as const, job: info, error: identified.left }
    // A written output's name is free again; a failed job's stays taken for its retry.
    if (final._tag === "Completed") ctx.names.release(final.output)
    yield* metrics.jobEnded(final._tag)
    yield* ctx.emit(final)
  }).pipe(
    // No stack trace: it would point into this package, at a cost per job.
    Effect.withSpan("Batch.job", { attributes: { name, index, format: job.format }, captureStackTrace: false })
  )
}
