/** The implementation of `PdfTransformClient`. */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { pipe } from "effect/Function"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Predicate from "effect/Predicate"
import * as Random from "effect/Random"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as Intervals from "effect/ScheduleIntervals"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Contract from "../Contract.js"
import type * as Client from "../PdfTransformClient.js"
import {
  ConversionFailed,
  DownloadFailed,
  InvalidRequest,
  InvalidResponse,
  type Operation,
  PollTimeout,
  RateLimited,
  SubmitOutcomeUnknown,
  TaskNotFound,
  TransportError,
  Unauthenticated,
  UnexpectedResponse
} from "../PdfTransformError.js"
import * as RateLimit from "../RateLimit.js"
import * as transport from "./transport.js"

/** Every default of the client, in one place, with the reason for each. */
export const defaults = {
  /** The hosted service. */
  baseUrl: "https://fusion-api.oomol.com/v1",
  /** Long enough for a slow submit answer; short enough that a stalled socket never hangs a caller. */
  requestTimeout: Duration.seconds(30),
  /** A download may be large: what is bounded is the time without a byte. */
  downloadIdleTimeout: Duration.seconds(60),
  /** The contract's example polling settings (part 8.5). */
  poll: {
    initialInterval: Duration.seconds(2),
    factor: 1.5,
    maxInterval: Duration.seconds(10),
    jitter: true,
    deadline: Duration.seconds(600),
    progressAware: true
  },
  /** 429s are retried for about a minute; longer waits are the caller's call (the error says when). */
  submitRetry: {
    maxAttempts: 8,
    deadline: Duration.seconds(60),
    initialBackoff: Duration.seconds(1),
    maxBackoff: Duration.seconds(30)
  },
  /** A schema-invalid result body is re-polled this many times in all before `InvalidResponse`. */
  invalidBodyAttempts: 3,
  /** Downloads announced at most this size are read in one piece (see `download`). */
  smallDownloadBytes: 256 * 1024,
  /** A `completed` body without `downloadURL` is re-polled once. */
  invalidCompletedAttempts: 2,
  /** How much of an unexpected body errors keep. */
  bodyExcerptChars: 512,
  /** Progress-based polls land this long after the estimated completion. */
  progressMargin: Duration.millis(250)
} as const

const millis = (input: Duration.DurationInput): number => Duration.toMillis(Duration.decode(input))

// ---------------------------------------------------------------------------------------------
// One HTTP exchange: status, headers and the whole body, within the request timeout.
// ---------------------------------------------------------------------------------------------

export interface Exchange {
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly text: string
}

/** Why an exchange gave no answer: it certainly did not reach the server, or it may have. */
export type ExchangeFailure =
  | { readonly _tag: "NotSent"; readonly reason: string; readonly cause: unknown }
  | { readonly _tag: "Lost"; readonly reason: string; readonly cause: unknown }
  | { readonly _tag: "Malformed"; readonly reason: string }

export const fromHttpError = (error: HttpClientError.HttpClientError): ExchangeFailure => {
  if (error._tag === "RequestError") {
    if (error.reason === "Transport") {
      return transport.wasNotSent(error.cause)
        ? { _tag: "NotSent", reason: transport.describe(error.cause ?? error), cause: error.cause }
        : { _tag: "Lost", reason: transport.describe(error.cause ?? error), cause: error.cause }
    }
    return { _tag: "Malformed", reason: `${error.reason}: ${error.description ?? error.message}` }
  }
  // A ResponseError here means the body could not be read to its end: the request was sent.
  return { _tag: "Lost", reason: `answer unreadable: ${transport.describe(error.cause ?? error)}`, cause: error.cause }
}

/** One request and its whole answer, within `timeout` (the body included). */
export const timedExchange = (
  client: HttpClient.HttpClient,
  request: HttpClientRequest.HttpClientRequest,
  timeout: Duration.Duration
): Effect.Effect<Exchange, ExchangeFailure> =>
  Effect.gen(function*() {
    const response = yield* client.execute(request)
    const text = yield* response.text
    return { status: response.status, headers: response.headers, text }
  }).pipe(
    Effect.mapError(fromHttpError),
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: (): ExchangeFailure => ({
        _tag: "Lost",
        reason: `no complete answer within ${Duration.format(timeout)}`,
        cause: undefined
      })
    })
  )

export const excerpt = (text: string): string =>
  text.length <= defaults.bodyExcerptChars ? text : `${text.slice(0, defaults.bodyExcerptChars)}…`

const isJsonType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return true
  const type = contentType.split(";")[0]!.trim().toLowerCase()
  return type === "application/json" || type.endsWith("+json")
}

export const parseJson = (text: string): Either.Either<unknown, string> =>
  Either.try({ try: (): unknown => JSON.parse(text), catch: (e) => `body is not JSON: ${String(e)}` })

const formatParseError = (error: ParseResult.ParseError): string => ParseResult.TreeFormatter.formatErrorSync(error)

const field = (u: unknown, key: string): unknown => Predicate.hasProperty(u, key) ? u[key] : undefined

const stringField = (u: unknown, key: string): string | undefined => {
  const value = field(u, key)
  return typeof value === "string" ? value : undefined
}

export const unauthenticated = (operation: Operation, exchange: Exchange): Unauthenticated => {
  const body = Either.getOrUndefined(parseJson(exchange.text))
  const challenge = exchange.headers["www-authenticate"]
  return new Unauthenticated({
    operation,
    message: stringField(body, "message") ?? stringField(body, "error") ?? "missing or invalid credentials",
    resolution: stringField(body, "resolution") ?? "send a valid API key as 'Authorization: Bearer <key>'",
    ...(challenge === undefined ? {} : { challenge })
  })
}

export const unexpected = (operation: Operation, exchange: Exchange, now: number): UnexpectedResponse => {
  const contentType = exchange.headers["content-type"]
  const retryAfterMs = RateLimit.parseRetryAfter(exchange.headers["retry-after"], {
    date: exchange.headers["date"],
    now
  })
  return new UnexpectedResponse({
    operation,
    status: exchange.status,
    bodyExcerpt: excerpt(exchange.text),
    ...(contentType === undefined ? {} : { contentType }),
    ...(Option.isSome(retryAfterMs) ? { retryAfterMs: retryAfterMs.value } : {})
  })
}

/** Decodes a 2xx JSON body, checking the Content-Type first. */
export const decodeBody = <A, I>(
  schema: Schema.Schema<A, I>,
  operation: Operation,
  exchange: Exchange
): Either.Either<A, InvalidResponse> => {
  const invalid = (problem: string) =>
    new InvalidResponse({ operation, status: exchange.status, problem, bodyExcerpt: excerpt(exchange.text) })
  const contentType = exchange.headers["content-type"]
  if (!isJsonType(contentType)) return Either.left(invalid(`expected JSON, got Content-Type ${contentType}`))
  return pipe(
    parseJson(exchange.text),
    Either.mapLeft(invalid),
    Either.flatMap((json) =>
      Either.mapLeft(Schema.decodeUnknownEither(schema)(json), (e) => invalid(formatParseError(e)))
    )
  )
}

// ---------------------------------------------------------------------------------------------
// Polling plan: the schedule's next delay, shortened near an estimated completion.
// ---------------------------------------------------------------------------------------------

interface PollPlan {
  readonly schedule: Schedule.Schedule<unknown, unknown>
  readonly custom: boolean
  readonly initialMs: number
  readonly maxMs: number
  readonly deadlineMs: number
  readonly progressAware: boolean
}

const pollPlan = (base: Client.PollOptions | undefined, options: Client.PollOptions | undefined): PollPlan => {
  const o = { ...base, ...options }
  const initialMs = millis(o.initialInterval ?? defaults.poll.initialInterval)
  const maxMs = Math.max(initialMs, millis(o.maxInterval ?? defaults.poll.maxInterval))
  const factor = o.factor ?? defaults.poll.factor
  const plain = Schedule.exponential(Duration.millis(initialMs), factor).pipe(
    Schedule.union(Schedule.spaced(Duration.millis(maxMs)))
  )
  const schedule = o.schedule ?? ((o.jitter ?? defaults.poll.jitter) ? Schedule.jittered(plain) : plain)
  return {
    schedule,
    custom: o.schedule !== undefined,
    initialMs,
    maxMs,
    deadlineMs: millis(o.deadline ?? defaults.poll.deadline),
    progressAware: o.progressAware ?? defaults.poll.progressAware
  }
}

/** Steps a schedule by hand (without sleeping) and answers the delay it asks for, or none when done. */
const makeStepper = (schedule: Schedule.Schedule<unknown, unknown>) => {
  let state: unknown = schedule.initial
  return (now: number): Effect.Effect<Option.Option<number>> =>
    Effect.map(schedule.step(now, undefined, state), ([next, _out, decision]) => {
      state = next
      if (ScheduleDecision.isDone(decision)) return Option.none()
      return Option.some(Math.max(0, Intervals.start(decision.intervals) - now))
    })
}

/** Estimates the completion time from a run of rising progress samples. */
class ProgressEstimator {
  private run: Array<{ readonly t: number; readonly p: number }> = []
  constructor(anchor: number | undefined) {
    if (anchor !== undefined) this.run.push({ t: anchor, p: 0 })
  }
  observe(t: number, progress: number | undefined): void {
    if (progress === undefined || !Number.isFinite(progress) || progress < 0 || progress > 100) return
    const last = this.run[this.run.length - 1]
    // Progress that goes backwards starts a new run: the old rate says nothing any more.
    if (last !== undefined && progress < last.p) this.run = []
    this.run.push({ t, p: progress })
  }
  /** Epoch milliseconds at which progress should reach 100, when the samples allow a guess. */
  eta(): Option.Option<number> {
    const first = this.run[0]
    const last = this.run[this.run.length - 1]
    if (first === undefined || last === undefined || last.t <= first.t || last.p <= first.p || last.p >= 100) {
      return Option.none()
    }
    const rate = (last.p - first.p) / (last.t - first.t)
    return Option.some(last.t + (100 - last.p) / rate)
  }
}

type PollOutcome =
  | { readonly _tag: "Status"; readonly status: Client.Status }
  | { readonly _tag: "Transient"; readonly error: TransportError | UnexpectedResponse; readonly retryAfterMs?: number }
  | { readonly _tag: "Invalid"; readonly error: InvalidResponse; readonly completedLike: boolean }

const knownStates: ReadonlySet<string> = new Set(["processing", "completed", "failed"])

const isTransientStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500

/** Reads a result body; tolerates the failure shapes SERVICE-NOTES.md lists. */
const classifyResult = (exchange: Exchange): PollOutcome => {
  const decoded = decodeBody(Contract.TaskStatus, "status", exchange)
  if (Either.isRight(decoded)) return { _tag: "Status", status: decoded.right }
  const json = Either.getOrUndefined(parseJson(exchange.text))
  const state = stringField(json, "state")
  const progressValue = field(json, "progress")
  const progress = typeof progressValue === "number" ? progressValue : undefined
  if (state === "error") {
    // Some deployments report failures as state "error"; the contract's shape is "failed".
    const reason = stringField(json, "error") ?? stringField(json, "message") ?? ""
    const status: Contract.FailedStatus = {
      success: false,
      state: "failed",
      error: reason,
      ...(progress === undefined ? {} : { progress })
    }
    return { _tag: "Status", status }
  }
  if (state !== undefined && !knownStates.has(state) && isJsonType(exchange.headers["content-type"])) {
    return { _tag: "Status", status: { state, ...(progress === undefined ? {} : { progress }) } }
  }
  return { _tag: "Invalid", error: decoded.left, completedLike: state === "completed" }
}

/** Whether polling stops at this status: completed or failed. */
export const isTerminal = (status: Client.Status): status is Contract.CompletedStatus | Contract.FailedStatus =>
  status.state === "completed" || status.state === "failed"

/** What a terminal status means for its task: the completed task, or `ConversionFailed`. */
export const completion = <F extends Contract.Format>(
  task: { readonly format: F; readonly sessionId: Contract.SessionId },
  status: Contract.CompletedStatus | Contract.FailedStatus
): Either.Either<Client.CompletedTask<F>, ConversionFailed> => {
  if (status.state === "completed") {
    return Either.right({ format: task.format, sessionId: task.sessionId, downloadURL: status.data.downloadURL })
  }
  return Either.left(
    new ConversionFailed({
      format: task.format,
      sessionId: task.sessionId,
      reason: status.error.trim() === "" ? "no details" : status.error,
      ...(status.progress === undefined ? {} : { progress: status.progress })
    })
  )
}

// ---------------------------------------------------------------------------------------------
// The service.
// ---------------------------------------------------------------------------------------------

export const make = (options: Client.Options): Effect.Effect<Client.Service, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const raw = yield* HttpClient.HttpClient
    const baseUrl = (options.baseUrl ?? defaults.baseUrl).replace(/\/+$/, "")
    const api = raw.pipe(
      HttpClient.mapRequest((request) =>
        request.pipe(
          HttpClientRequest.prependUrl(baseUrl),
          HttpClientRequest.bearerToken(options.apiKey),
          HttpClientRequest.acceptJson
        )
      )
    )
    const requestTimeout = Duration.decode(options.requestTimeout ?? defaults.requestTimeout)
    const idleTimeout = Duration.decode(options.downloadIdleTimeout ?? defaults.downloadIdleTimeout)
    /** The submit retry figures: the call's own over the client's over the defaults. */
    const retryPlan = (call: Client.SubmitRetryOptions | undefined) => {
      const retry = { ...options.submitRetry, ...call }
      return {
        maxAttempts: Math.max(1, retry.maxAttempts ?? defaults.submitRetry.maxAttempts),
        deadlineMs: millis(retry.deadline ?? defaults.submitRetry.deadline),
        initialBackoffMs: millis(retry.initialBackoff ?? defaults.submitRetry.initialBackoff),
        maxBackoffMs: millis(retry.maxBackoff ?? defaults.submitRetry.maxBackoff)
      }
    }

    const exchange = (
      client: HttpClient.HttpClient,
      request: HttpClientRequest.HttpClientRequest
    ): Effect.Effect<Exchange, ExchangeFailure> => timedExchange(client, request, requestTimeout)

    /** Jittered exponential backoff for retries the server gave no delay for. */
    const backoff = (plan: ReturnType<typeof retryPlan>, attempt: number): Effect.Effect<number> =>
      Effect.map(
        Random.nextRange(0.8, 1.2),
        (jitter) => Math.round(Math.min(plan.maxBackoffMs, plan.initialBackoffMs * 2 ** (attempt - 1)) * jitter)
      )

    const submit = <F extends Contract.Format>(
      format: F,
      input: Contract.ConversionRequestInput,
      retryOptions?: Client.SubmitRetryOptions
    ): Effect.Effect<Client.Task<F>, Client.SubmitError> =>
      Effect.gen(function*() {
        const plan = retryPlan(retryOptions)
        const request = yield* Schema.decodeUnknown(Contract.ConversionRequest)(input).pipe(
          Effect.mapError((e) => new InvalidRequest({ operation: "submit", problem: formatParseError(e) }))
        )
        const body = Schema.encodeSync(Contract.ConversionRequest)(request)
        const httpRequest = HttpClientRequest.post(Contract.submitPath(format)).pipe(
          HttpClientRequest.bodyUnsafeJson(body)
        )
        const started = yield* Clock.currentTimeMillis
        for (let attempt = 1;; attempt++) {
          const result = yield* Effect.either(exchange(api, httpRequest))
          const now = yield* Clock.currentTimeMillis
          let failure: TransportError | RateLimited
          let delay: number
          if (Either.isLeft(result)) {
            const f = result.left
            if (f._tag === "Lost") {
              // The request may have created a task: retrying could bill a second one.
              return yield* new SubmitOutcomeUnknown({ format, reason: f.reason, cause: f.cause })
            }
            if (f._tag === "Malformed") return yield* new InvalidRequest({ operation: "submit", problem: f.reason })
            failure = new TransportError({ operation: "submit", reason: f.reason, sent: false, cause: f.cause })
            delay = yield* backoff(plan, attempt)
          } else {
            const answer = result.right
            if (answer.status >= 200 && answer.status < 300) {
              const submitted = decodeBody(Contract.SubmittedTask, "submit", answer)
              if (Either.isLeft(submitted)) return yield* submitted.left
              yield* Effect.annotateCurrentSpan("sessionId", submitted.right.sessionID)
              return {
                format,
                sessionId: submitted.right.sessionID,
                rateLimit: RateLimit.fromHeaders(answer.headers),
                submittedAt: now
              }
            }
            if (answer.status === 401) return yield* unauthenticated("submit", answer)
            if (answer.status !== 429) return yield* unexpected("submit", answer, now)
            // 429: the contract says no task was created, so a retry is safe.
            const json = Either.getOrUndefined(parseJson(answer.text))
            const reason = stringField(json, "reason")
            const hint = RateLimit.retryDelay({
              retryAfterMs: field(json, "retryAfterMs"),
              retryAfter: answer.headers["retry-after"],
              date: answer.headers["date"],
              now
            })
            failure = new RateLimited({
              format,
              attempts: attempt,
              rateLimit: RateLimit.fromHeaders(answer.headers),
              ...(reason === undefined ? {} : { reason }),
              ...(Option.isSome(hint) ? { retryAfterMs: hint.value, retryAt: now + hint.value } : {})
            })
            // A quota comes back in hours: without a hint that fits the deadline, waiting is pointless.
            if (reason === "quota_exceeded" && Option.isNone(hint)) return yield* failure
            delay = Option.isSome(hint) ? hint.value : yield* backoff(plan, attempt)
          }
          if (attempt >= plan.maxAttempts || now + delay > started + plan.deadlineMs) return yield* failure
          yield* Effect.logDebug("submit rejected, retrying").pipe(
            Effect.annotateLogs({ format, attempt, delayMs: delay, error: failure._tag })
          )
          yield* Effect.sleep(Duration.millis(delay))
        }
      }).pipe(Effect.withSpan("PdfTransformClient.submit", { attributes: { format } }))

    const poll = <F extends Contract.Format>(
      task: Client.Task<F>
    ): Effect.Effect<PollOutcome, Unauthenticated | TaskNotFound | UnexpectedResponse> =>
      Effect.gen(function*() {
        const result = yield* Effect.either(
          exchange(api, HttpClientRequest.get(Contract.resultPath(task.format, task.sessionId)))
        )
        const now = yield* Clock.currentTimeMillis
        if (Either.isLeft(result)) {
          const f = result.left
          const error = new TransportError({
            operation: "status",
            reason: f.reason,
            sent: f._tag !== "NotSent",
            ...(f._tag === "Malformed" ? {} : { cause: f.cause })
          })
          return { _tag: "Transient", error } satisfies PollOutcome
        }
        const answer = result.right
        if (answer.status >= 200 && answer.status < 300) return classifyResult(answer)
        if (answer.status === 401) return yield* unauthenticated("status", answer)
        if (answer.status === 404) {
          const detail = stringField(Either.getOrUndefined(parseJson(answer.text)), "error")
          return yield* new TaskNotFound({
            format: task.format,
            sessionId: task.sessionId,
            ...(detail === undefined ? {} : { detail })
          })
        }
        const error = unexpected("status", answer, now)
        if (!isTransientStatus(answer.status)) return yield* error
        return {
          _tag: "Transient",
          error,
          ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs })
        } satisfies PollOutcome
      }).pipe(
        Effect.withSpan("PdfTransformClient.poll", {
          attributes: { sessionId: task.sessionId, format: task.format }
        })
      )

    const status = <F extends Contract.Format>(
      task: Client.Task<F>
    ): Effect.Effect<Client.Status, Client.StatusError> =>
      Effect.flatMap(
        poll(task),
        (outcome): Effect.Effect<Client.Status, Client.StatusError> =>
          outcome._tag === "Status" ? Effect.succeed(outcome.status) : Effect.fail(outcome.error)
      ).pipe(Effect.withSpan("PdfTransformClient.status", {
        attributes: { sessionId: task.sessionId, format: task.format }
      }))

    /**
     * A poller: each run waits as planned, then answers the next status, until a terminal one
     * (after which it fails with none). Shared by `watch` (as a Stream) and `awaitCompletion`
     * (as a plain loop, which costs far less than a Stream per task).
     */
    const makePoller = <F extends Contract.Format>(
      task: Client.Task<F>,
      pollOptions?: Client.PollOptions
    ): Effect.Effect<Effect.Effect<Client.Status, Option.Option<Client.WatchError>>> =>
      Effect.gen(function*() {
        const plan = pollPlan(options.poll, pollOptions)
        const nextScheduled = makeStepper(plan.schedule)
        const started = yield* Clock.currentTimeMillis
        const deadlineAt = started + plan.deadlineMs
        const estimator = new ProgressEstimator(task.submittedAt)
        const loggedStates = new Set<string>()
        let first = true
        let done = false
        let highest: number | undefined
        let lastState: string | undefined
        let serverDelay: number | undefined
        let invalidInARow = 0

        const timeout = (now: number) =>
          new PollTimeout({
            format: task.format,
            sessionId: task.sessionId,
            waitedMs: now - started,
            ...(lastState === undefined ?
              {} :
              { lastStatus: { state: lastState, ...(highest === undefined ? {} : { progress: highest }) } })
          })

        const nextDelay = (now: number): Effect.Effect<Option.Option<number>> =>
          Effect.map(nextScheduled(now), (scheduled) => {
            if (Option.isNone(scheduled)) return scheduled
            let delay = scheduled.value
            const eta = plan.progressAware ? estimator.eta() : Option.none()
            if (Option.isSome(eta)) {
              const upper = plan.custom ? scheduled.value : plan.maxMs
              const target = eta.value - now + millis(defaults.progressMargin)
              delay = Math.min(Math.max(target, plan.initialMs), Math.max(upper, plan.initialMs))
            }
            if (serverDelay !== undefined) delay = Math.max(delay, serverDelay)
            serverDelay = undefined
            return Option.some(delay)
          })

        const step: Effect.Effect<Client.Status, Option.Option<Client.WatchError>> = Effect.gen(function*() {
          if (done) return yield* Effect.fail(Option.none())
          for (;;) {
            if (!first) {
              const now = yield* Clock.currentTimeMillis
              const remaining = deadlineAt - now
              if (remaining <= 0) return yield* Effect.fail(Option.some(timeout(now)))
              const delay = yield* nextDelay(now)
              if (Option.isNone(delay)) return yield* Effect.fail(Option.some(timeout(now)))
              yield* Effect.sleep(Duration.millis(Math.min(delay.value, remaining)))
            }
            first = false
            const outcome = yield* Effect.mapError(poll(task), Option.some)
            const now = yield* Clock.currentTimeMillis
            if (outcome._tag === "Transient") {
              // The wait goes on: a failed GET never ends it, only the deadline does.
              serverDelay = outcome.retryAfterMs
              yield* Effect.logDebug("transient poll failure").pipe(
                Effect.annotateLogs({ sessionId: task.sessionId, error: outcome.error.message })
              )
              continue
            }
            if (outcome._tag === "Invalid") {
              invalidInARow++
              const limit = outcome.completedLike ? defaults.invalidCompletedAttempts : defaults.invalidBodyAttempts
              if (invalidInARow >= limit) return yield* Effect.fail(Option.some(outcome.error))
              continue
            }
            invalidInARow = 0
            const observed = outcome.status
            estimator.observe(now, observed.progress)
            if (observed.progress !== undefined && Number.isFinite(observed.progress)) {
              highest = highest === undefined ? observed.progress : Math.max(highest, observed.progress)
            }
            lastState = observed.state
            if (!knownStates.has(observed.state) && !loggedStates.has(observed.state)) {
              loggedStates.add(observed.state)
              yield* Effect.logWarning("unknown task state, polling goes on").pipe(
                Effect.annotateLogs({ sessionId: task.sessionId, state: observed.state })
              )
            }
            if (isTerminal(observed)) done = true
            // Progress never goes backwards in what callers see: they get the highest seen.
            return highest === undefined ? observed : { ...observed, progress: highest }
          }
        })
        return step
      })

    const watch = <F extends Contract.Format>(
      task: Client.Task<F>,
      pollOptions?: Client.PollOptions
    ): Stream.Stream<Client.Status, Client.WatchError> =>
      Stream.unwrap(Effect.map(makePoller(task, pollOptions), Stream.repeatEffectOption)).pipe(
        Stream.withSpan("PdfTransformClient.watch", {
          attributes: { sessionId: task.sessionId, format: task.format }
        })
      )

    const awaitCompletion = <F extends Contract.Format>(
      task: Client.Task<F>,
      pollOptions?: Client.PollOptions
    ): Effect.Effect<Client.CompletedTask<F>, Client.AwaitError> =>
      Effect.gen(function*() {
        const next = yield* makePoller(task, pollOptions)
        for (;;) {
          const current = yield* next.pipe(
            // The poller ends (none) only after a terminal status, which returns below first.
            Effect.catchAll((error) =>
              Option.isSome(error) ? Effect.fail(error.value) : Effect.dieMessage("poller ended")
            )
          )
          if (isTerminal(current)) return yield* completion(task, current)
        }
      }).pipe(
        Effect.withSpan("PdfTransformClient.awaitCompletion", {
          attributes: { sessionId: task.sessionId, format: task.format }
        })
      )

    const convert = <F extends Contract.Format>(
      format: F,
      request: Contract.ConversionRequestInput,
      pollOptions?: Client.PollOptions
    ): Effect.Effect<Client.CompletedTask<F>, Client.SubmitError | Client.AwaitError> =>
      Effect.flatMap(submit(format, request), (task) => awaitCompletion(task, pollOptions)).pipe(
        Effect.withSpan("PdfTransformClient.convert", { attributes: { format } })
      )

    const download = <F extends Contract.Format>(
      completed: Client.CompletedTask<F>
    ): Stream.Stream<Uint8Array, DownloadFailed> => {
      const failed = (reason: string, extra: Partial<ConstructorParameters<typeof DownloadFailed>[0]> = {}) =>
        new DownloadFailed({ sessionId: completed.sessionId, reason, ...extra })

      const open = (url: string) =>
        raw.execute(HttpClientRequest.get(url)).pipe(
          Effect.mapError((e) => failed(`request failed: ${fromHttpError(e).reason}`, { cause: e })),
          Effect.timeoutFail({
            duration: requestTimeout,
            onTimeout: () => failed(`no answer within ${Duration.format(requestTimeout)}`)
          })
        )

      /** A URL that expired is refreshed by polling the result once. */
      const refresh = Effect.gen(function*() {
        const handle: Client.Task<F> = {
          format: completed.format,
          sessionId: completed.sessionId,
          rateLimit: RateLimit.empty
        }
        const current = yield* Effect.mapError(status(handle), (e) => failed(`refreshing the URL: ${e.message}`))
        if (current.state !== "completed" || !("data" in current)) {
          return yield* failed(`the URL expired and the task is now ${current.state}`)
        }
        return current.data.downloadURL
      })

      const body = (url: string, mayRefresh: boolean): Stream.Stream<Uint8Array, DownloadFailed> =>
        Stream.unwrap(Effect.gen(function*() {
          const response = yield* open(url)
          if ((response.status === 403 || response.status === 404 || response.status === 410) && mayRefresh) {
            yield* Effect.logDebug("download URL refused, refreshing").pipe(
              Effect.annotateLogs({ sessionId: completed.sessionId, status: response.status })
            )
            return body(yield* refresh, false)
          }
          if (response.status < 200 || response.status >= 300) {
            return yield* failed(`HTTP ${response.status}`, { status: response.status })
          }
          const lengthHeader = response.headers["content-length"]
          const expected = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined
          const short = (received: number) =>
            failed(`expected ${expected} bytes, received ${received}`, {
              expectedBytes: expected,
              receivedBytes: received
            })
          if (expected !== undefined && expected <= defaults.smallDownloadBytes) {
            // Small and announced: one read, bounded by the announced size, costs far less than a
            // stream per chunk; memory stays bounded all the same.
            const bytes = yield* response.arrayBuffer.pipe(
              Effect.mapError((e) => failed(`body interrupted: ${transport.describe(e.cause ?? e)}`, { cause: e })),
              Effect.timeoutFail({
                duration: idleTimeout,
                onTimeout: () => failed(`no data for ${Duration.format(idleTimeout)}`)
              })
            )
            if (bytes.byteLength !== expected) return yield* short(bytes.byteLength)
            return Stream.succeed(new Uint8Array(bytes))
          }
          let received = 0
          const counted = response.stream.pipe(
            Stream.mapError((e) =>
              failed(`body interrupted: ${transport.describe(e.cause ?? e)}`, { receivedBytes: received, cause: e })
            ),
            Stream.timeoutFail(
              () => failed(`no data for ${Duration.format(idleTimeout)}`, { receivedBytes: received }),
              idleTimeout
            ),
            Stream.tap((chunk) =>
              Effect.sync(() => {
                received += chunk.length
              })
            )
          )
          // A short body is an error at the end of the stream, never a short file that looks whole.
          const check = Stream.suspend(() =>
            expected === undefined || received === expected ?
              Stream.empty :
              Stream.fail(short(received))
          )
          return Stream.concat(counted, check)
        }))

      return body(completed.downloadURL, true).pipe(
        Stream.withSpan("PdfTransformClient.download", {
          attributes: { sessionId: completed.sessionId, format: completed.format }
        })
      )
    }

    return { submit, status, awaitCompletion, watch, convert, download } satisfies Client.Service
  })
