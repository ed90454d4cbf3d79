/** Submitting, retried only where no task was created: 429, and connections that sent nothing. */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as Schema from "effect/Schema"
import * as Contract from "../Contract.js"
import type * as Client from "../PdfTransformClient.js"
import { InvalidRequest, RateLimited, SubmitOutcomeUnknown, type TransportError } from "../PdfTransformError.js"
import * as RateLimit from "../RateLimit.js"
import * as Retry from "../Retry.js"
import * as bodies from "./bodies.js"
import { defaults, millis } from "./defaults.js"
import * as exchange from "./exchange.js"
import { span } from "./tracing.js"

/** What submitting needs from the client. */
export interface Env {
  readonly send: (request: HttpClientRequest.HttpClientRequest) => Effect.Effect<exchange.Answer, exchange.Failure>
  /** The client's retry options, under the call's own. */
  readonly retry: Client.SubmitRetryOptions | undefined
}

type Hooks<E> = Pick<Client.SubmitRetryOptions<E>, "beforeAttempt" | "onAccepted" | "onRefused">

/** An attempt that created no task, so another may follow; `delay` is the server's, when it gave one. */
class Retryable extends Data.TaggedError("Retryable")<{
  readonly error: RateLimited | TransportError
  readonly delay: Option.Option<number>
}> {}

const isRetryable = (error: unknown): error is Retryable => error instanceof Retryable

/** The retry figures: the call's own over the client's over the defaults. */
const plan = <E>(retry: Client.SubmitRetryOptions<E>) => {
  return {
    maxAttempts: Math.max(1, retry.maxAttempts ?? defaults.submitRetry.maxAttempts),
    deadlineMs: millis(retry.deadline ?? defaults.submitRetry.deadline),
    initialBackoff: Duration.decode(retry.initialBackoff ?? defaults.submitRetry.initialBackoff),
    maxBackoff: Duration.decode(retry.maxBackoff ?? defaults.submitRetry.maxBackoff)
  }
}

/** The delays between attempts: the server's delay when given, else jittered exponential backoff. */
const retrySchedule = <E>(figures: ReturnType<typeof plan<E>>, deadlineAt: number, format: Contract.Format) => {
  const backoff = Retry.backoff({ initial: figures.initialBackoff, max: figures.maxBackoff })
  return Schedule.zipWith(
    Schedule.identity<Client.SubmitError | Retryable | E>(),
    backoff,
    (failure, backoffDelay) => ({
      failure,
      delay: isRetryable(failure) && Option.isSome(failure.delay)
        ? Duration.millis(failure.delay.value)
        // Whole milliseconds, as a server's delays are: jitter would otherwise leave fractions.
        : Duration.millis(Math.round(Duration.toMillis(backoffDelay)))
    })
  ).pipe(
    Schedule.whileInput((failure: Client.SubmitError | Retryable | E) => isRetryable(failure)),
    Schedule.modifyDelay(({ delay }) => delay),
    Schedule.checkEffect((_, { delay }) =>
      Effect.map(Clock.currentTimeMillis, (now) => now + Duration.toMillis(delay) <= deadlineAt)
    ),
    Schedule.zipWith(Schedule.recurs(figures.maxAttempts - 1), (out, retries) => ({ ...out, attempt: retries + 1 })),
    Schedule.onDecision(({ attempt, delay, failure }, decision) =>
      ScheduleDecision.isDone(decision) ? Effect.void : Effect.logDebug("submit rejected, retrying").pipe(
        Effect.annotateLogs({
          format,
          attempt,
          delayMs: Duration.toMillis(delay),
          error: isRetryable(failure) ? failure.error._tag : "unknown"
        })
      )
    )
  )
}

/** One request: its task, or why there is none and whether another attempt may follow. */
const sendOnce = <F extends Contract.Format>(
  env: Env,
  format: F,
  httpRequest: HttpClientRequest.HttpClientRequest,
  attempt: number
) =>
  Effect.gen(function*() {
    const sent = yield* Effect.either(env.send(httpRequest))
    if (Either.isLeft(sent)) {
      const failure = sent.left
      switch (failure._tag) {
        // The request may have created a task: retrying could bill a second one.
        case "Lost":
          return yield* new SubmitOutcomeUnknown({ format, reason: failure.reason, cause: failure.cause })
        case "Malformed":
          return yield* new InvalidRequest({ operation: "submit", problem: failure.reason })
        case "NotSent":
          return yield* new Retryable({ error: exchange.transportError("submit", failure), delay: Option.none() })
      }
    }
    const answer = sent.right
    if (exchange.isSuccess(answer.status)) {
      const submitted = yield* exchange.decode(bodies.Submitted, "submit", answer)
      yield* Effect.annotateCurrentSpan("sessionId", submitted.sessionID)
      const task: Client.Task<F> = {
        format,
        sessionId: submitted.sessionID,
        rateLimit: RateLimit.fromHeaders(answer.headers),
        // The task began between the request and its answer; halfway is the best guess of when.
        submittedAt: Math.round((answer.sentAt + answer.at) / 2),
        submitRoundTrip: answer.at - answer.sentAt
      }
      return task
    }
    if (answer.status === 401) return yield* exchange.unauthenticated("submit", answer)
    if (answer.status !== 429) return yield* exchange.unexpected("submit", answer)
    // 429: the contract says no task was created, so another attempt is safe.
    const signal = exchange.rateLimitSignal(answer)
    const error = new RateLimited({
      format,
      attempts: attempt,
      rateLimit: signal.rateLimit,
      ...(signal.reason === undefined ? {} : { reason: signal.reason }),
      ...(Option.isSome(signal.delay)
        ? { retryAfterMs: signal.delay.value, retryAt: answer.at + signal.delay.value }
        : {})
    })
    // A quota comes back in hours: without a delay that fits the deadline, waiting is pointless.
    if (signal.reason === "quota_exceeded" && Option.isNone(signal.delay)) return yield* error
    return yield* new Retryable({ error, delay: signal.delay })
  })

/** One attempt with the caller's hooks around its request, uninterruptible as a whole. */
const attemptWith = <F extends Contract.Format, E>(
  hooks: Hooks<E>,
  send: (attempt: number) => Effect.Effect<Client.Task<F>, Client.SubmitError | Retryable>
) =>
(attempt: number): Effect.Effect<Client.Task<F>, Client.SubmitError | Retryable | E> =>
  Effect.gen(function*() {
    if (hooks.beforeAttempt !== undefined) yield* hooks.beforeAttempt(attempt)
    const outcome = yield* Effect.either(send(attempt))
    if (Either.isRight(outcome)) {
      if (hooks.onAccepted !== undefined) yield* hooks.onAccepted(outcome.right, attempt)
      return outcome.right
    }
    const failure = outcome.left
    if (hooks.onRefused === undefined) return yield* failure
    const error = isRetryable(failure) ? failure.error : failure
    const decision = yield* hooks.onRefused(error, attempt)
    return yield* (decision === "retry" ? failure : error)
  }).pipe(Effect.uninterruptible)

const encodeRequest = Schema.encodeSync(Contract.ConversionRequest)
const decodeRequest = Schema.decodeUnknownEither(Contract.ConversionRequest)

/** The submit operation of a client. */
export const make = (env: Env) =>
<F extends Contract.Format, E = never>(
  format: F,
  input: Contract.ConversionRequestInput,
  options?: Client.SubmitRetryOptions<E>
): Effect.Effect<Client.Task<F>, Client.SubmitError | E> =>
  Effect.gen(function*() {
    const request = yield* Either.mapLeft(
      decodeRequest(input),
      (error) => new InvalidRequest({ operation: "submit", problem: ParseResult.TreeFormatter.formatErrorSync(error) })
    )
    const httpRequest = HttpClientRequest.post(Contract.submitPath(format)).pipe(
      HttpClientRequest.bodyUnsafeJson(encodeRequest(request))
    )
    const retry: Client.SubmitRetryOptions<E> = { ...env.retry, ...options }
    const figures = plan(retry)
    const deadlineAt = (yield* Clock.currentTimeMillis) + figures.deadlineMs
    const send = (attempt: number) => sendOnce(env, format, httpRequest, attempt)
    const hooked = retry.beforeAttempt !== undefined || retry.onAccepted !== undefined || retry.onRefused !== undefined
    const attempt = hooked ? attemptWith(retry, send) : send
    const next = Effect.flatMap(Schedule.CurrentIterationMetadata, ({ recurrence }) => attempt(recurrence + 1))
    // The retry schedule is set up only when an attempt asks for it: the usual first attempt needs none.
    return yield* attempt(1).pipe(
      Effect.catchIf(isRetryable, (first) => {
        let replay = true
        const again = Effect.suspend(() => {
          if (!replay) return next
          replay = false
          return Effect.fail(first)
        })
        return Effect.retry(again, retrySchedule<E>(figures, deadlineAt, format))
      }),
      Effect.catchIf(isRetryable, (retryable) => Effect.fail(retryable.error))
    )
  }).pipe(span("PdfTransformClient.submit", { format }))
