/** What a batch reports as it runs: one stream of events per batch, each job's in order.
 * @since 0.1.0 */
import type * as Contract from "@pdf-transform/core/Contract"
import type * as PdfTransformError from "@pdf-transform/core/PdfTransformError"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import type { JobError } from "./BatchError.js"

/** Which job an event is about.
 * @since 0.1.0
 * @category models */
export interface JobInfo {
  /** Position of the job in the input, from 0. */
  readonly index: number
  /** The source as a person reads it: the path, the URL, or the output name for bytes. */
  readonly name: string
  /** The job's journal key (empty when the job could not be read or is invalid). */
  readonly key: string
  readonly format: Contract.Format
}

/** Why a batch stopped submitting. Each reason carries what a caller needs to act on it.
 * @since 0.1.0
 * @category models */
export type StopReason = Data.TaggedEnum<{
  Requested: {
    /** Who asked, when the caller's `stop` said (a CLI's "Ctrl-C"). */
    readonly by?: string | undefined
  }
  Unauthenticated: { readonly error: PdfTransformError.Unauthenticated }
  QuotaSpent: { readonly error: PdfTransformError.RateLimited }
  Unreachable: {
    readonly baseUrl: string
    readonly error: PdfTransformError.TransportError
    /** How long the service had been unreachable when the batch gave up (0: it never answered). */
    readonly outageMs: number
  }
}>

/** Constructors, `$is` and `$match` for `StopReason`.
 * @since 0.1.0
 * @category constructors */
export const StopReason = Data.taggedEnum<StopReason>()

/** The sentence saying why a batch stopped: the `reason` of `Stopped` and of the `NotAttempted` after it.
 * @since 0.1.0
 * @category stop reasons */
export const describeStop: (reason: StopReason) => string = StopReason.$match({
  Requested: ({ by }) => by ?? "stopped by request",
  Unauthenticated: () => "the service refused the API key",
  QuotaSpent: () => "the service's quota is spent",
  Unreachable: ({ baseUrl, error, outageMs }) =>
    outageMs === 0 ?
      `cannot reach the service at ${baseUrl}: ${error.reason}` :
      `the service at ${baseUrl} stayed unreachable for ${
        Duration.format(Duration.millis(Math.round(outageMs / 1000) * 1000))
      }: ${error.reason}`
})

/** @since 0.1.0
 * @category models */
export type BatchEvent = Data.TaggedEnum<{
  Queued: { readonly job: JobInfo }
  /** Bytes of a local source sent so far (`sent` goes down when a part is sent again). */
  Uploading: { readonly job: JobInfo; readonly sent: number; readonly total: number }
  Uploaded: { readonly job: JobInfo; readonly pdfURL: string; readonly bytes: number }
  /** The service accepted the task (or, `resumed`, the journal knew it from an earlier run). */
  Submitted: { readonly job: JobInfo; readonly sessionId: Contract.SessionId; readonly resumed: boolean }
  /** A poll saw the task's progress rise (0..100). */
  Progress: { readonly job: JobInfo; readonly sessionId: Contract.SessionId; readonly progress: number }
  /** The output is on disk, whole. */
  Completed: {
    readonly job: JobInfo
    readonly sessionId: Contract.SessionId
    readonly output: string
    readonly bytes: number
  }
  /** The job failed; the others go on. */
  Failed: { readonly job: JobInfo; readonly error: JobError; readonly sessionId?: Contract.SessionId | undefined }
  /** Nothing to do: done or failed for good in the journal, or a `duplicate` of an earlier job. */
  Skipped: {
    readonly job: JobInfo
    readonly previous: "completed" | "failed" | "duplicate"
    readonly output?: string | undefined
    readonly reason?: string | undefined
  }
  /** A submit was sent and no answer came (now, or in a run that ended during it): a task may exist and be billed. */
  Ambiguous: { readonly job: JobInfo; readonly reason: string }
  /** The batch stopped submitting before this job (see `Stopped`). */
  NotAttempted: { readonly job: JobInfo; readonly reason: string }
  /** No new submits from now on (`stop` says why; `reason` is `describeStop(stop)`). */
  Stopped: { readonly reason: string; readonly stop: StopReason }
  /** A connection failed, nothing sent; the batch retries (in `retryInMs` when known) until reachable or stopped. */
  ServiceUnreachable: {
    readonly error: PdfTransformError.TransportError
    readonly since: number
    readonly retryInMs?: number | undefined
    readonly answeredBefore: boolean
  }
  /** The service answered again after `ServiceUnreachable`, `downMs` after the first failure. */
  ServiceReachable: { readonly downMs: number }
  /** A journal line that could not be read; it is kept in the file and otherwise ignored. */
  JournalProblem: { readonly line: number; readonly problem: string }
}>

/** Constructors, `$is` and `$match` for `BatchEvent`.
 * @since 0.1.0
 * @category constructors */
export const BatchEvent = Data.taggedEnum<BatchEvent>()

/** The events that end a job.
 * @since 0.1.0
 * @category models */
export type Final = Extract<
  BatchEvent,
  { readonly _tag: "Completed" | "Failed" | "Skipped" | "Ambiguous" | "NotAttempted" }
>

/** Whether the event ends its job.
 * @since 0.1.0
 * @category predicates */
export const isFinal = (event: BatchEvent): event is Final =>
  event._tag === "Completed" || event._tag === "Failed" || event._tag === "Skipped" ||
  event._tag === "Ambiguous" || event._tag === "NotAttempted"
