/**
 * `pdf-transform convert`: the batch over the command line's sources, on the chosen backend, with
 * its journal (so the same command again resumes), live progress, a summary and an exit code.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import type * as Contract from "@pdf-transform/core/Contract"
import * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import * as Batch from "@pdf-transform/stream/Batch"
import type { JournalFailed } from "@pdf-transform/stream/BatchError"
import * as BatchEvent from "@pdf-transform/stream/BatchEvent"
import * as Journal from "@pdf-transform/stream/Journal"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { type CliError, UsageError } from "../../CliError.js"
import * as ExitCode from "../../ExitCode.js"
import * as Backend from "../backend.js"
import { conclude } from "../conclude.js"
import * as Display from "../display.js"
import * as Inputs from "../inputs.js"
import { Interrupts } from "../interrupts.js"
import type * as Lines from "../lines.js"
import * as Reporter from "../reporter.js"
import * as Summary from "../summary.js"

export interface Flags {
  readonly paths: ReadonlyArray<string>
  readonly to: Contract.Format
  readonly out: string
  readonly concurrency: number
  readonly journal: Option.Option<string>
  readonly resubmitAmbiguous: boolean
  readonly retryFailed: boolean
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  readonly baseUrl: Option.Option<string>
  readonly uploadBaseUrl: Option.Option<string>
  readonly timeout: Option.Option<Duration.Duration>
  readonly pollInterval: Option.Option<Duration.Duration>
  readonly maxOutage: Option.Option<Duration.Duration>
  readonly json: boolean
  readonly verbose: boolean
}

/** The journal's name in the output folder. */
export const journalName = ".pdf-transform-journal.jsonl"

/** The embedded server's data folder, beside the journal: kept while a later run may need it. */
export const embeddedDataName = ".pdf-transform-server"

/**
 * The embedded server answers a poll at once: poll it often, so small documents end quickly. Not
 * progress-aware: a cold worker's first pages are slow, so an estimate read then lands late.
 */
const embeddedPoll = {
  initialInterval: "100 millis",
  factor: 1.25,
  maxInterval: "500 millis",
  progressAware: false
} as const

type Services = PdfTransformClient.PdfTransformClient | Journal.Journal

/** The client (and uploader, when local files need one) of the backend, and the journal. */
const servicesLayer = (
  backend: Backend.Backend,
  localFiles: number,
  documents: number,
  journalPath: string,
  embeddedData: string
): Effect.Effect<Layer.Layer<Services, CliError | JournalFailed, FileSystem.FileSystem | Path.Path>> =>
  Effect.gen(function*() {
    const journal = Journal.layerFile(journalPath)
    if (backend._tag === "Embedded") {
      const Embedded = yield* Effect.promise(() => import("../embedded.js"))
      // A server in this process: Node's own HTTP client reaches it; undici is never loaded.
      return Layer.merge(
        Embedded.layer({ client: {}, documents, dataDir: embeddedData }).pipe(Layer.provide(NodeHttpClient.layer)),
        journal
      )
    }
    const http = NodeHttpClient.layerUndici
    const connection = { baseUrl: backend.baseUrl, apiKey: backend.apiKey }
    const client = PdfTransformClient.layer(connection)
    if (localFiles === 0) return Layer.mergeAll(client.pipe(Layer.provide(http)), journal)
    const uploader = Backend.uploader(Backend.uploadRoute(backend), connection)
    return Layer.mergeAll(Layer.merge(client, uploader).pipe(Layer.provide(http)), journal)
  })

const track = (open: Map<number, Summary.Unfinished>, event: BatchEvent.BatchEvent): void => {
  if (event._tag === "Queued" || event._tag === "Submitted") {
    const sessionId = event._tag === "Submitted" ? event.sessionId : undefined
    open.set(event.job.index, { index: event.job.index, name: event.job.name, sessionId })
  } else if (BatchEvent.isFinal(event)) {
    open.delete(event.job.index)
  }
}

const logger = (reporter: Reporter.Reporter) =>
  Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => reporter.log(line)))

const run = (flags: Flags) =>
  Effect.gen(function*() {
    const startedAt = Date.now()
    const path = yield* Path.Path
    const fs = yield* FileSystem.FileSystem
    const interrupts = yield* Interrupts
    if (!Number.isInteger(flags.concurrency) || flags.concurrency < 1) {
      return yield* new UsageError({ message: `--concurrency must be a whole number from 1, not ${flags.concurrency}` })
    }
    const backend = yield* Backend.choose(flags)
    const inputs = yield* Inputs.collect(flags.paths, flags.to)
    const outputDirectory = path.resolve(flags.out)
    const journalPath = path.resolve(Option.getOrElse(flags.journal, () => path.join(outputDirectory, journalName)))
    const display = Display.display(backend._tag === "Remote" ? backend.baseUrl : undefined)
    const style = Display.stdoutStyle()
    const mode: Reporter.Mode = flags.json ? "json" : process.stdout.isTTY ? "live" : "plain"
    const reporter = yield* Reporter.make(mode, { streams: Display.streams, style, display, total: inputs.jobs.length })
    yield* reporter.notice(Backend.describe(backend), {
      event: "Backend",
      backend: backend._tag === "Embedded" ? "embedded" : backend.baseUrl,
      documents: inputs.jobs.length,
      format: flags.to,
      outputDirectory,
      journal: journalPath
    })
    const embeddedData = path.join(path.dirname(journalPath), embeddedDataName)
    const services = yield* servicesLayer(backend, inputs.localFiles, inputs.jobs.length, journalPath, embeddedData)

    yield* interrupts.gentle

    const poll = {
      ...(backend._tag === "Embedded" ? embeddedPoll : {}),
      ...Option.match(flags.pollInterval, {
        onNone: () => ({}),
        onSome: (interval) => ({ initialInterval: interval })
      }),
      ...Option.match(flags.timeout, { onNone: () => ({}), onSome: (deadline) => ({ deadline }) })
    }
    const summarizer = Batch.makeSummarizer()
    // Documents between their first event and their last: what an interruption leaves unfinished.
    const open = new Map<number, Summary.Unfinished>()
    const events = Batch.convert(inputs.jobs, {
      outputDirectory,
      concurrency: flags.concurrency,
      resubmitAmbiguous: flags.resubmitAmbiguous,
      retryFailed: flags.retryFailed,
      poll,
      // The first Ctrl-C: no new documents; the batch names it in its Stopped event.
      stop: Effect.as(Deferred.await(interrupts.first), "Ctrl-C"),
      ...Option.match(flags.maxOutage, { onNone: () => ({}), onSome: (maxOutage) => ({ maxOutage }) })
    }).pipe(Stream.interruptWhen(Deferred.await(interrupts.second)))
    const outcome = yield* Stream.runForEach(events, (event) =>
      Effect.gen(function*() {
        summarizer.add(event)
        track(open, event)
        yield* reporter.event(event)
      })).pipe(
        Effect.provide(services),
        Effect.provide(logger(reporter)),
        Logger.withMinimumLogLevel(flags.verbose ? LogLevel.Info : LogLevel.Warning),
        Effect.either
      )
    yield* reporter.close
    const interrupted = yield* Deferred.isDone(interrupts.second)
    if (interrupted) {
      yield* reporter.notice(
        "Stopped now (Ctrl-C twice): tasks already submitted go on at the service, and the next run picks them " +
          "up from the journal.",
        { event: "Interrupted" }
      )
    }
    const summary = summarizer.summary
    const finals = summary.completed.length + summary.failed.length + summary.skipped.length +
      summary.ambiguous.length + summary.notAttempted.length
    const ending = {
      stoppedByUser: summary.stopped?.stop._tag === "Requested" || interrupted,
      unfinished: inputs.jobs.length - finals
    }
    const unfinished = [...open.values()]
    if (Either.isLeft(outcome)) return yield* Effect.fail(outcome.left)
    // The embedded server's data matters only to a later run: once every document has its end, it goes.
    if (backend._tag === "Embedded" && ending.unfinished === 0 && !interrupted && summary.ambiguous.length === 0) {
      yield* fs.remove(embeddedData, { recursive: true, force: true }).pipe(
        Effect.catchAll((error) => Effect.logWarning("the embedded server's data folder was not removed", error))
      )
    }
    const code = ExitCode.ofBatch(summary, ending)
    yield* report(reporter, summary, {
      code,
      display,
      elapsedMs: Date.now() - startedAt,
      outputDirectory: display.path(outputDirectory),
      journal: display.path(journalPath),
      unfinished: ending.unfinished,
      unfinishedRows: unfinished
    })
    return code
  })

const report = (
  reporter: Reporter.Reporter,
  summary: Batch.Summary,
  options: {
    readonly code: ExitCode.ExitCode
    readonly display: Lines.Display
    readonly elapsedMs: number
    readonly outputDirectory: string
    readonly journal: string
    readonly unfinished: number
    readonly unfinishedRows: ReadonlyArray<Summary.Unfinished>
  }
) =>
  Effect.sync(() => {
    const out = (line: string) => process.stdout.write(`${line}\n`)
    if (reporter.mode === "json") {
      return out(JSON.stringify({
        event: "Summary",
        converted: summary.completed.length,
        doneBefore: summary.skipped.filter((event) => event.previous === "completed").length,
        failed: summary.failed.length,
        ambiguous: summary.ambiguous.length,
        notStarted: summary.notAttempted.length + options.unfinished,
        outputDirectory: options.outputDirectory,
        journal: options.journal,
        exitCode: options.code
      }))
    }
    const style = Display.stdoutStyle()
    const columns = reporter.mode === "live" ? process.stdout.columns : undefined
    out("")
    for (
      const line of Summary.table(Summary.rows(summary, options.display, options.unfinishedRows), { columns, style })
    ) out(line)
    for (const line of Summary.closing(summary, options)) out(line)
  })

/** Runs the command; every error ends as a sentence on stderr and an exit code. */
export const convert = (flags: Flags) => conclude(Effect.scoped(run(flags)))
