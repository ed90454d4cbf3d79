/**
 * Submitting a conversion, retried on a Schedule only where the contract proves that no task was
 * created: 429, and connections that failed before anything was sent.
 */
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

/** An attempt that created no task, so another may follow; `delay` is the server's, when it gave one. */
class Retryable extends Data.TaggedError("Retryable")<{
  readonly error: RateLimited | TransportError
  readonly delay: Option.Option<number>
}> {}

type AttemptError = Client.SubmitError | Retryable

/** The retry figures: the call's own over the client's over the defaults. */
const plan = (client: Client.SubmitRetryOptions | undefined, call: Client.SubmitRetryOptions | undefined) => {
  const retry = { ...client, ...call }
  return {
    maxAttempts: Math.max(1, retry.maxAttempts ?? defaults.submitRetry.maxAttempts),
    deadlineMs: millis(retry.deadline ?? defaults.submitRetry.deadline),
    initialBackoff: Duration.decode(retry.initialBackoff ?? defaults.submitRetry.initialBackoff),
    maxBackoff: Duration.decode(retry.maxBackoff ?? defaults.submitRetry.maxBackoff)
  }
}

/**
 * The delays between attempts: the server's delay when it gave one, else exponential backoff
 * (doubling, capped, jittered by +-20 %). Only `Retryable` failures recur, at most
 * `maxAttempts` attempts in all, and never when the next attempt would start past the deadline.
 */
const retrySchedule = (figures: ReturnType<typeof plan>, deadlineAt: number, format: Contract.Format) => {
  const backoff = Retry.backoff({ initial: figures.initialBackoff, max: figures.maxBackoff })
  return Schedule.zipWith(Schedule.identity<AttemptError>(), backoff, (failure, backoffDelay) => ({
    failure,
    delay: failure._tag === "Retryable" && Option.isSome(failure.delay)
      ? Duration.millis(failure.delay.value)
      // Whole milliseconds, as a server's delays are: jitter would otherwise leave fractions.
      : Duration.millis(Math.round(Duration.toMillis(backoffDelay)))
  })).pipe(
    Schedule.whileInput((failure: AttemptError) => failure._tag === "Retryable"),
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
          error: failure._tag === "Retryable" ? failure.error._tag : failure._tag
        })
      )
    )
  )
}

/** One attempt: its answer, or why there is none and whether another attempt may follow. */
const attempt = <F extends Contract.Format>(env: Env, format: F, request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function*() {
    const { recurrence } = yield* Schedule.CurrentIterationMetadata
    const sent = yield* Effect.either(env.send(request))
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
      attempts: recurrence + 1,
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

const encodeRequest = Schema.encodeSync(Contract.ConversionRequest)
const decodeRequest = Schema.decodeUnknownEither(Contract.ConversionRequest)

/** The submit operation of a client. */
export const make = (env: Env) =>
<F extends Contract.Format>(
  format: F,
  input: Contract.ConversionRequestInput,
  retry?: Client.SubmitRetryOptions
): Effect.Effect<Client.Task<F>, Client.SubmitError> =>
  Effect.gen(function*() {
    const request = yield* Either.mapLeft(
      decodeRequest(input),
      (error) => new InvalidRequest({ operation: "submit", problem: ParseResult.TreeFormatter.formatErrorSync(error) })
    )
    const httpRequest = HttpClientRequest.post(Contract.submitPath(format)).pipe(
      HttpClientRequest.bodyUnsafeJson(encodeRequest(request))
    )
    const figures = plan(env.retry, retry)
    const deadlineAt = (yield* Clock.currentTimeMillis) + figures.deadlineMs
    const once = attempt(env, format, httpRequest)
    // The retry schedule is set up only once an attempt asks for it: on the usual path, an
    // accepted first attempt, its driver would cost more than the rest of the submit.
    return yield* once.pipe(
      Effect.catchTag("Retryable", (first) => {
        let replay = true
        const again = Effect.suspend(() => {
          if (!replay) return once
          replay = false
          return Effect.fail(first)
        })
        return Effect.retry(again, retrySchedule(figures, deadlineAt, format))
      }),
      Effect.catchTag("Retryable", (retryable) => Effect.fail(retryable.error))
    )
  }).pipe(span("PdfTransformClient.submit", { format }))
