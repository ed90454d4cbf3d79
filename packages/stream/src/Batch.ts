/** A whole collection as one pipeline: upload, submit under shared gates, poll, download whole, journal each step.
 * @since 0.1.0 */
import * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import * as Uploader from "@pdf-transform/core/Uploader"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Mailbox from "effect/Mailbox"
import * as Stream from "effect/Stream"
import * as BatchDefaults from "./BatchDefaults.js"
import { type JournalFailed, OutputFailed } from "./BatchError.js"
import { type BatchEvent, StopReason } from "./BatchEvent.js"
import * as Concurrency from "./internal/concurrency.js"
import { type BatchContext, makeStop, type Settings } from "./internal/context.js"
import * as DirectorySync from "./internal/directorySync.js"
import * as Gate from "./internal/gate.js"
import * as runJob from "./internal/job.js"
import * as Names from "./internal/names.js"
import * as RateGate from "./internal/rateGate.js"
import * as Reachability from "./internal/reachability.js"
import * as Seen from "./internal/seen.js"
import * as Workers from "./internal/workers.js"
import type * as Job from "./Job.js"
import * as Journal from "./Journal.js"
import * as Output from "./Output.js"

/** @since 0.1.0
 * @category options */
export interface Options {
  /** The folder the outputs are written to (created when missing). */
  readonly outputDirectory: string
  /** Most tasks in flight at once; the service's hints may lower it, never raise it. */
  readonly concurrency?: number | undefined
  /** Most downloads at once; a download never holds a conversion slot. */
  readonly downloadConcurrency?: number | undefined
  readonly uploadConcurrency?: number | undefined
  /** Submits of one job refused with a retryable 429 (or not sent) before it fails. */
  readonly maxSubmitAttempts?: number | undefined
  /** Submit again the jobs an earlier run left ambiguous, accepting that some may be billed twice. */
  readonly resubmitAmbiguous?: boolean | undefined
  /** Submit again the jobs whose task failed at the service in an earlier run. */
  readonly retryFailed?: boolean | undefined
  /** How each task is polled (default: the client's). */
  readonly poll?: PdfTransformClient.PollOptions | undefined
  /** When this completes, the batch submits nothing more and follows its running tasks to the end. */
  readonly stop?: Effect.Effect<string | void> | undefined
  /** How long an outage of a service that has answered is ridden out before the batch stops (`Unreachable`). */
  readonly maxOutage?: Duration.DurationInput | undefined
}

/** Every default of the batch, with its reason (`BatchDefaults`, which loads nothing of the batch).
 * @since 0.1.0
 * @category constants */
export const defaults = BatchDefaults.defaults

/** The final events of a batch, by kind.
 * @since 0.1.0
 * @category models */
export interface Summary {
  readonly completed: ReadonlyArray<Extract<BatchEvent, { readonly _tag: "Completed" }>>
  readonly failed: ReadonlyArray<Extract<BatchEvent, { readonly _tag: "Failed" }>>
  readonly skipped: ReadonlyArray<Extract<BatchEvent, { readonly _tag: "Skipped" }>>
  readonly ambiguous: ReadonlyArray<Extract<BatchEvent, { readonly _tag: "Ambiguous" }>>
  readonly notAttempted: ReadonlyArray<Extract<BatchEvent, { readonly _tag: "NotAttempted" }>>
  readonly stopped: Extract<BatchEvent, { readonly _tag: "Stopped" }> | undefined
  readonly journalProblems: ReadonlyArray<Extract<BatchEvent, { readonly _tag: "JournalProblem" }>>
}

const lists = {
  Completed: "completed",
  Failed: "failed",
  Skipped: "skipped",
  Ambiguous: "ambiguous",
  NotAttempted: "notAttempted",
  JournalProblem: "journalProblems"
} as const satisfies Partial<Record<BatchEvent["_tag"], keyof Summary>>

/** A summary built in place: `add` each event, read `summary` (the same object, growing) at any time.
 * @since 0.1.0
 * @category summary */
export interface Summarizer {
  readonly add: (event: BatchEvent) => void
  readonly summary: Summary
}

/** @since 0.1.0
 * @category summary */
export const makeSummarizer = (): Summarizer => {
  const summary = {
    completed: [],
    failed: [],
    skipped: [],
    ambiguous: [],
    notAttempted: [],
    stopped: undefined as Summary["stopped"],
    journalProblems: []
  } satisfies Record<keyof Summary, unknown>
  const target: { -readonly [K in keyof Summary]: Summary[K] extends ReadonlyArray<infer A> ? Array<A> : Summary[K] } =
    summary
  return {
    summary: target,
    add: (event) => {
      if (event._tag === "Stopped") {
        target.stopped = event
        return
      }
      const list = event._tag in lists ? lists[event._tag as keyof typeof lists] : undefined
      if (list !== undefined) (target[list] as Array<BatchEvent>).push(event)
    }
  }
}

/** What a batch needs from its context; without an `Uploader`, local sources fail with `UploaderMissing`.
 * @since 0.1.0
 * @category models */
export type Requirements = PdfTransformClient.PdfTransformClient | Journal.Journal | FileSystem.FileSystem | Path.Path

const settingsOf = (options: Options): Settings => ({
  outputDirectory: options.outputDirectory,
  concurrency: Math.max(1, Math.floor(options.concurrency ?? defaults.concurrency)),
  downloadConcurrency: Math.max(1, Math.floor(options.downloadConcurrency ?? defaults.downloadConcurrency)),
  uploadConcurrency: Math.max(1, Math.floor(options.uploadConcurrency ?? defaults.uploadConcurrency)),
  maxSubmitAttempts: Math.max(1, Math.floor(options.maxSubmitAttempts ?? defaults.maxSubmitAttempts)),
  resubmitAmbiguous: options.resubmitAmbiguous ?? defaults.resubmitAmbiguous,
  retryFailed: options.retryFailed ?? defaults.retryFailed,
  poll: options.poll,
  maxOutageMs: Math.max(0, Duration.toMillis(options.maxOutage ?? defaults.maxOutage))
})

/** Converts every job and reports what happens as a stream of events (each job's in order; jobs interleave).
 * @since 0.1.0
 * @category constructors */
export const convert = <E = never, R = never>(
  jobs: Stream.Stream<Job.Job, E, R> | Iterable<Job.Job>,
  options: Options
): Stream.Stream<BatchEvent, E | JournalFailed | OutputFailed, R | Requirements> =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const settings = settingsOf(options)
    const fs = yield* FileSystem.FileSystem
    yield* fs.makeDirectory(settings.outputDirectory, { recursive: true }).pipe(
      Effect.mapError((cause) => new OutputFailed({ path: settings.outputDirectory, reason: cause.message }))
    )
    yield* Output.removeStale(settings.outputDirectory)
    const journal = yield* Journal.Journal
    const recovered = journal.recovered
    const names = yield* Names.make(settings.outputDirectory)
    for (const record of recovered.jobs.values()) {
      if (record.output !== undefined) names.reserve(record.output)
    }
    const mailbox = yield* Mailbox.make<BatchEvent, E | JournalFailed>({ capacity: 4096 })
    const emit = (event: BatchEvent) => Effect.asVoid(mailbox.offer(event))
    const concurrency = yield* Concurrency.make(settings.concurrency)
    // Once stopped, jobs waiting for a slot are let through at once, to find the batch stopped.
    const stop = yield* makeStop(emit, concurrency.gate.resize(Number.MAX_SAFE_INTEGER))
    const client = yield* PdfTransformClient.PdfTransformClient
    const ctx: BatchContext = {
      settings,
      client,
      uploader: yield* Effect.serviceOption(Uploader.Uploader),
      journal,
      recovered,
      names,
      concurrency,
      rateGate: yield* RateGate.make,
      downloads: Gate.make(settings.downloadConcurrency),
      syncDirectory: yield* DirectorySync.make(fs),
      uploads: Gate.make(settings.uploadConcurrency),
      stop,
      reachability: yield* Reachability.make({
        baseUrl: client.baseUrl,
        maxOutageMs: settings.maxOutageMs,
        stop,
        emit
      }),
      seen: Seen.make(),
      emit
    }
    if (options.stop !== undefined) {
      yield* Effect.forkScoped(
        Effect.flatMap(options.stop, (by) => stop.stop(StopReason.Requested(typeof by === "string" ? { by } : {})))
      )
    }
    // Enough jobs ahead of the gate to keep every slot busy, few enough to keep the queue short.
    const pull = settings.concurrency * 2 + settings.downloadConcurrency + settings.uploadConcurrency
    const input: Stream.Stream<Job.Job, E, R> = Stream.StreamTypeId in jobs ? jobs : Stream.fromIterable(jobs)
    const pipeline = Effect.zipRight(
      Effect.forEach(
        recovered.problems,
        (problem) => emit({ _tag: "JournalProblem", line: problem.line, problem: problem.problem }),
        { discard: true }
      ),
      Workers.forEach(input, pull, (job, index) => runJob.run(ctx, job, index))
    )
    yield* Effect.forkScoped(Mailbox.into(pipeline, mailbox))
    return Mailbox.toStream(mailbox)
  }))

/** Runs a batch to its end and answers its summary.
 * @since 0.1.0
 * @category constructors */
export const run = <E = never, R = never>(
  jobs: Stream.Stream<Job.Job, E, R> | Iterable<Job.Job>,
  options: Options
): Effect.Effect<Summary, E | JournalFailed | OutputFailed, R | Requirements> =>
  Effect.suspend(() => {
    // Appended in place: a summary of ten thousand jobs should not copy its arrays per event.
    const summarizer = makeSummarizer()
    return Stream.runForEach(convert(jobs, options), (event) => Effect.sync(() => summarizer.add(event))).pipe(
      Effect.as(summarizer.summary)
    )
  })
