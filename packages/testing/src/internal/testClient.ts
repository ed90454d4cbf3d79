import * as Contract from "@pdf-transform/core/Contract"
import type * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import * as PdfTransformError from "@pdf-transform/core/PdfTransformError"
import * as RateLimit from "@pdf-transform/core/RateLimit"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as TestPdfTransformClient from "../TestPdfTransformClient.js"

/** @internal */
export const defaultOutput = "# converted\n"
const defaultPollInterval = Duration.seconds(1)
const defaultDeadline = Duration.seconds(600)
const chunkSize = 64 * 1024
const downloadOrigin = "https://test.pdf-transform.invalid"
const textEncoder = new TextEncoder()

const defaultScript: TestPdfTransformClient.Script = {
  _tag: "Timeline",
  timeline: [{ after: 0, status: { state: "completed" } }]
}

interface TaskRecord {
  readonly format: Contract.Format
  readonly sessionId: Contract.SessionId
  readonly createdAt: number
  readonly steps: ReadonlyArray<{ readonly atMs: number; readonly status: TestPdfTransformClient.Step }>
  readonly output: Uint8Array
}

type PollState =
  | { readonly _tag: "Poll"; readonly delayMs: number }
  | { readonly _tag: "TimedOut"; readonly waitedMs: number; readonly last: PdfTransformClient.Status }
  | { readonly _tag: "Done" }

const isTerminal = (status: PdfTransformClient.Status): boolean =>
  status.state === "completed" || status.state === "failed"

const lastStatus = (status: PdfTransformClient.Status): PdfTransformError.LastStatus =>
  status.progress === undefined ? { state: status.state } : { state: status.state, progress: status.progress }

/** @internal */
export const make = (
  options: TestPdfTransformClient.Options = {}
): Effect.Effect<{ readonly client: PdfTransformClient.Service; readonly control: TestPdfTransformClient.Service }> =>
  Effect.sync(() => {
    const pollInterval = Duration.decode(options.pollInterval ?? defaultPollInterval)
    const deadline = Duration.decode(options.deadline ?? defaultDeadline)
    const scripts: Array<TestPdfTransformClient.Script> = []
    let scriptIndex = 0
    const tasks = new Map<string, TaskRecord>()
    const calls: Array<TestPdfTransformClient.Call> = []
    let taskCounter = 0

    const record = (call: TestPdfTransformClient.Call): Effect.Effect<void> => Effect.sync(() => void calls.push(call))

    const createTask = <F extends Contract.Format>(
      format: F,
      request: Contract.ConversionRequestInput
    ): Effect.Effect<PdfTransformClient.Task<F>, PdfTransformClient.SubmitError> =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        yield* Schema.decodeUnknown(Contract.ConversionRequest)(request).pipe(
          Effect.mapError((error) =>
            new PdfTransformError.InvalidRequest({
              operation: "submit",
              problem: ParseResult.TreeFormatter.formatErrorSync(error)
            })
          )
        )
        const script = scripts[scriptIndex] ?? defaultScript
        if (scriptIndex < scripts.length) scriptIndex++
        if (script._tag === "SubmitError") return yield* Effect.fail(script.error)
        const sessionId = Contract.SessionId.make(`test-task-${++taskCounter}`)
        const output = script.output ?? defaultOutput
        tasks.set(sessionId, {
          format,
          sessionId,
          createdAt: now,
          steps: script.timeline
            .map((step) => ({ atMs: Duration.toMillis(Duration.decode(step.after)), status: step.status }))
            .sort((a, b) => a.atMs - b.atMs),
          output: typeof output === "string" ? textEncoder.encode(output) : output
        })
        return { format, sessionId, rateLimit: RateLimit.empty }
      })

    const downloadURL = (task: TaskRecord): string =>
      `${downloadOrigin}/downloads/${task.format}/${encodeURIComponent(task.sessionId)}`

    const statusAt = (task: TaskRecord, now: number): PdfTransformClient.Status => {
      const elapsed = now - task.createdAt
      let step: TestPdfTransformClient.Step = { state: "processing" }
      for (const candidate of task.steps) {
        if (candidate.atMs > elapsed) break
        step = candidate.status
      }
      switch (step.state) {
        case "processing":
          return step.progress === undefined
            ? { success: true, state: "processing" }
            : { success: true, state: "processing", progress: step.progress }
        case "completed":
          return {
            success: true,
            state: "completed",
            progress: step.progress ?? 100,
            data: { downloadURL: downloadURL(task) }
          }
        case "failed":
          return step.progress === undefined
            ? { success: false, state: "failed", error: step.error }
            : { success: false, state: "failed", error: step.error, progress: step.progress }
      }
    }

    const lookup = (format: Contract.Format, sessionId: Contract.SessionId) =>
      Effect.suspend(() => {
        const task = tasks.get(sessionId)
        return task !== undefined && task.format === format
          ? Effect.succeed(task)
          : Effect.fail(new PdfTransformError.TaskNotFound({ format, sessionId, detail: "unknown task" }))
      })

    const currentStatus = (
      task: PdfTransformClient.Task
    ): Effect.Effect<PdfTransformClient.Status, PdfTransformError.TaskNotFound> =>
      Effect.flatMap(
        lookup(task.format, task.sessionId),
        (record) => Effect.map(Clock.currentTimeMillis, (now) => statusAt(record, now))
      )

    const poll = (
      task: PdfTransformClient.Task,
      pollOptions: PdfTransformClient.PollOptions | undefined
    ): Stream.Stream<PdfTransformClient.Status, PdfTransformError.TaskNotFound | PdfTransformError.PollTimeout> =>
      Stream.unwrap(Effect.map(Clock.currentTimeMillis, (start) => {
        const intervalMs = Duration.toMillis(Duration.decode(pollOptions?.initialInterval ?? pollInterval))
        const deadlineMs = Duration.toMillis(Duration.decode(pollOptions?.deadline ?? deadline))
        return Stream.unfoldEffect<
          PollState,
          PdfTransformClient.Status,
          PdfTransformError.TaskNotFound | PdfTransformError.PollTimeout,
          never
        >({ _tag: "Poll", delayMs: 0 }, (state) => {
          switch (state._tag) {
            case "Done":
              return Effect.succeed(Option.none())
            case "TimedOut":
              return Effect.fail(
                new PdfTransformError.PollTimeout({
                  format: task.format,
                  sessionId: task.sessionId,
                  waitedMs: state.waitedMs,
                  lastStatus: lastStatus(state.last)
                })
              )
            case "Poll":
              return Effect.gen(function*() {
                if (state.delayMs > 0) yield* Effect.sleep(state.delayMs)
                const status = yield* currentStatus(task)
                if (isTerminal(status)) return Option.some([status, { _tag: "Done" }] as const)
                const elapsed = (yield* Clock.currentTimeMillis) - start
                const next: PollState = elapsed >= deadlineMs
                  ? { _tag: "TimedOut", waitedMs: elapsed, last: status }
                  : { _tag: "Poll", delayMs: Math.min(intervalMs, deadlineMs - elapsed) }
                return Option.some([status, next] as const)
              })
          }
        })
      }))

    const awaitTask = <F extends Contract.Format>(
      task: PdfTransformClient.Task<F>,
      pollOptions: PdfTransformClient.PollOptions | undefined
    ): Effect.Effect<PdfTransformClient.CompletedTask<F>, PdfTransformClient.AwaitError> =>
      poll(task, pollOptions).pipe(
        Stream.runFold(
          { last: undefined as PdfTransformClient.Status | undefined, progress: undefined as number | undefined },
          (acc, status) => ({
            last: status,
            progress: status.progress === undefined ? acc.progress : Math.max(acc.progress ?? 0, status.progress)
          })
        ),
        Effect.flatMap(({ last, progress }) => {
          if (last !== undefined && "data" in last && last.state === "completed") {
            return Effect.succeed({
              format: task.format,
              sessionId: task.sessionId,
              downloadURL: last.data.downloadURL
            })
          }
          const reason = last !== undefined && "error" in last && typeof last.error === "string" ? last.error : ""
          return Effect.fail(
            new PdfTransformError.ConversionFailed({
              format: task.format,
              sessionId: task.sessionId,
              reason: reason.length > 0 ? reason : "no details",
              ...(progress === undefined ? {} : { progress })
            })
          )
        })
      )

    const client: PdfTransformClient.Service = {
      submit: (format, request) =>
        Effect.gen(function*() {
          const at = yield* Clock.currentTimeMillis
          return yield* createTask(format, request).pipe(
            Effect.tapBoth({
              onFailure: () => record({ method: "submit", format, request, at }),
              onSuccess: (task) => record({ method: "submit", format, sessionId: task.sessionId, request, at })
            })
          )
        }),
      status: (task) =>
        Effect.gen(function*() {
          const at = yield* Clock.currentTimeMillis
          yield* record({ method: "status", format: task.format, sessionId: task.sessionId, at })
          return yield* currentStatus(task)
        }),
      awaitCompletion: (task, pollOptions) =>
        Effect.gen(function*() {
          const at = yield* Clock.currentTimeMillis
          yield* record({ method: "awaitCompletion", format: task.format, sessionId: task.sessionId, at })
          return yield* awaitTask(task, pollOptions)
        }),
      watch: (task, pollOptions) =>
        Stream.unwrap(Effect.gen(function*() {
          const at = yield* Clock.currentTimeMillis
          yield* record({ method: "watch", format: task.format, sessionId: task.sessionId, at })
          return poll(task, pollOptions)
        })),
      convert: (format, request, pollOptions) =>
        Effect.gen(function*() {
          const at = yield* Clock.currentTimeMillis
          const task = yield* createTask(format, request).pipe(
            Effect.tapBoth({
              onFailure: () => record({ method: "convert", format, request, at }),
              onSuccess: (task) => record({ method: "convert", format, sessionId: task.sessionId, request, at })
            })
          )
          return yield* awaitTask(task, pollOptions)
        }),
      download: (completed) =>
        Stream.unwrap(Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* record({ method: "download", format: completed.format, sessionId: completed.sessionId, at: now })
          const task = tasks.get(completed.sessionId)
          if (task === undefined || task.format !== completed.format) {
            return yield* new PdfTransformError.DownloadFailed({
              sessionId: completed.sessionId,
              reason: "unknown task",
              status: 404
            })
          }
          if (statusAt(task, now).state !== "completed") {
            return yield* new PdfTransformError.DownloadFailed({
              sessionId: completed.sessionId,
              reason: "the task is not completed"
            })
          }
          const chunks: Array<Uint8Array> = []
          for (let offset = 0; offset < task.output.length; offset += chunkSize) {
            chunks.push(task.output.slice(offset, offset + chunkSize))
          }
          return Stream.fromIterable(chunks)
        }))
    }

    const control: TestPdfTransformClient.Service = {
      script: (...more) => Effect.sync(() => void scripts.push(...more)),
      calls: Effect.sync(() => calls.slice())
    }

    return { client, control }
  })
