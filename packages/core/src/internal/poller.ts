/** The result operations: one poll, and waits that repeat it until terminal, error or deadline. */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as Contract from "../Contract.js"
import type * as Client from "../PdfTransformClient.js"
import { InvalidResponse, PollTimeout } from "../PdfTransformError.js"
import * as Polling from "../Polling.js"
import * as Retry from "../Retry.js"
import * as bodies from "./bodies.js"
import { defaults, millis } from "./defaults.js"
import * as exchange from "./exchange.js"
import { completion, isTerminal } from "./status.js"
import { span } from "./tracing.js"

/** What the poller needs from the client. */
export interface Env {
  readonly send: (request: HttpClientRequest.HttpClientRequest) => Effect.Effect<exchange.Answer, exchange.Failure>
  /** The client's poll options, under the call's own. */
  readonly poll: Client.PollOptions | undefined
}

type Task = Client.Task<Contract.Format>

const brokenCompleted = (answer: exchange.Answer) =>
  new InvalidResponse({
    operation: "status",
    status: answer.status,
    problem: "state is completed but the body does not match the contract (data.downloadURL must be an http(s) URL)",
    bodyExcerpt: exchange.excerpt(answer.text),
    claimedState: "completed"
  })

/** What one answer of the result endpoint means. */
const readResult = (task: Task, answer: exchange.Answer): Either.Either<Client.Status, Client.StatusError> => {
  if (exchange.isSuccess(answer.status)) {
    return Either.flatMap(
      exchange.decode(bodies.Result, "status", answer),
      (body) => "_tag" in body ? Either.left(brokenCompleted(answer)) : Either.right(body)
    )
  }
  if (answer.status === 401) return Either.left(exchange.unauthenticated("status", answer))
  if (answer.status === 404) return Either.left(exchange.taskNotFound(task, answer))
  return Either.left(exchange.unexpected("status", answer))
}

/** One GET of the result endpoint; `status` and the waits give it their spans. */
const get = (env: Env) => (task: Task): Effect.Effect<Client.Status, Client.StatusError> =>
  Effect.flatMap(
    Effect.mapError(
      env.send(HttpClientRequest.get(Contract.resultPath(task.format, task.sessionId))),
      (failure) => exchange.transportError("status", failure)
    ),
    (answer) => readResult(task, answer)
  )

const taskAttributes = (task: Task) => ({ sessionId: task.sessionId, format: task.format })

/** A failure that does not end a wait: the network, a timeout, 408, 429, a 5xx a retry can get past. */
const isTransient = (error: Client.StatusError): boolean => Retry.isTransient(error)

/** What one wait has seen so far: the input of each scheduling decision, and of the final answer. */
interface Seen {
  /** The latest poll; absent before the first. */
  readonly outcome?: Either.Either<Client.Status, Client.StatusError> | undefined
  /** The highest progress seen: callers never see progress go backwards. */
  readonly highest: number | undefined
  /** The latest status seen. */
  readonly last: Client.Status | undefined
  /** Invalid bodies in a row, the latest included. */
  readonly invalidInARow: number
  /** The unrecognized states seen, each logged once. */
  readonly unrecognized: ReadonlySet<string>
  /** An unrecognized state first seen at the latest poll. */
  readonly newState?: string | undefined
  /** When the latest poll was sent: the server read its progress between then and its answer. */
  readonly askedAt?: number | undefined
}

const nothingSeen: Seen = { highest: undefined, last: undefined, invalidInARow: 0, unrecognized: new Set() }

const see = (seen: Seen, outcome: Either.Either<Client.Status, Client.StatusError>, askedAt: number): Seen => {
  if (Either.isLeft(outcome)) {
    const invalid = outcome.left._tag === "InvalidResponse"
    return {
      ...seen,
      outcome,
      askedAt,
      newState: undefined,
      invalidInARow: invalid ? seen.invalidInARow + 1 : seen.invalidInARow
    }
  }
  const status = outcome.right
  const progress = status.progress
  const highest = progress === undefined || !Number.isFinite(progress)
    ? seen.highest
    : Math.max(progress, seen.highest ?? progress)
  const newState = status.state === "unrecognized" && !seen.unrecognized.has(status.reported)
    ? status.reported
    : undefined
  return {
    outcome,
    highest,
    last: status,
    invalidInARow: 0,
    unrecognized: newState === undefined ? seen.unrecognized : new Set([...seen.unrecognized, newState]),
    newState,
    askedAt
  }
}

/** A status with the highest progress seen. */
const shown = <S extends Client.Status>(seen: Seen, status: S): S =>
  seen.highest === undefined || status.progress === seen.highest ? status : { ...status, progress: seen.highest }

/** Whether the wait goes on after the latest poll (until the deadline). */
const goesOn = (seen: Seen): boolean => {
  const outcome = seen.outcome
  if (outcome === undefined) return true
  if (Either.isRight(outcome)) return !isTerminal(outcome.right)
  const error = outcome.left
  if (error._tag === "InvalidResponse") {
    const limit = error.claimedState === "completed" ? defaults.invalidCompletedAttempts : defaults.invalidBodyAttempts
    return seen.invalidInARow < limit
  }
  return isTransient(error)
}

/** The delay a transient failure asked for (Retry-After), which the next poll waits at least. */
const serverDelay = (seen: Seen): number | undefined =>
  seen.outcome !== undefined && Either.isLeft(seen.outcome) && seen.outcome.left._tag === "UnexpectedResponse"
    ? seen.outcome.left.retryAfterMs
    : undefined

const progressOf = (seen: Seen): Polling.Progressing =>
  seen.outcome !== undefined && Either.isRight(seen.outcome)
    ? { progress: seen.outcome.right.progress, askedAt: seen.askedAt }
    : {}

/** The wait's schedule: `Polling.delays`, at least any Retry-After, clamped to the deadline. */
const schedule = (options: Client.PollOptions, task: Task, deadlineAt: number): Schedule.Schedule<Seen, Seen> =>
  Schedule.passthrough(Schedule.mapInput(Polling.delays(options, task), progressOf)).pipe(
    Schedule.checkEffect((seen) =>
      goesOn(seen) ? Effect.map(Clock.currentTimeMillis, (now) => now < deadlineAt) : Effect.succeed(false)
    ),
    Schedule.modifyDelayEffect((seen, delay) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const asked = serverDelay(seen)
        const wanted = asked === undefined ? Duration.toMillis(delay) : Math.max(asked, Duration.toMillis(delay))
        // Whole milliseconds: a fractional remainder would be a zero sleep, polling again at the same instant.
        return Duration.millis(Math.ceil(Math.min(wanted, deadlineAt - now)))
      })
    )
  )

/** A wait in progress: its poll, its schedule, and how to read its end. */
const begin = <E = never>(
  once: (task: Task) => Effect.Effect<Client.Status, Client.StatusError>,
  env: Env,
  task: Task,
  options: Client.PollOptions | undefined,
  hooks: {
    readonly onStatus?: ((status: Client.Status) => Effect.Effect<void>) | undefined
    readonly onTransientFailure?: ((error: Client.StatusError) => Effect.Effect<void, E>) | undefined
  } = {}
) =>
  Effect.gen(function*() {
    const merged = { ...env.poll, ...options }
    const startedAt = yield* Clock.currentTimeMillis
    const deadlineAt = startedAt + millis(merged.deadline ?? defaults.poll.deadline)
    const history = yield* Ref.make(nothingSeen)
    const next = Effect.flatMap(Clock.currentTimeMillis, (askedAt) =>
      Effect.either(once(task)).pipe(
        Effect.flatMap((outcome) => Ref.updateAndGet(history, (seen) => see(seen, outcome, askedAt)))
      )).pipe(
        Effect.tap((seen) =>
          seen.newState === undefined ? Effect.void : Effect.logWarning("unknown task state, polling goes on").pipe(
            Effect.annotateLogs({ sessionId: task.sessionId, state: seen.newState })
          )
        ),
        Effect.tap((seen) => {
          const outcome = seen.outcome
          if (outcome === undefined) return Effect.void
          if (Either.isRight(outcome)) {
            return hooks.onStatus === undefined ? Effect.void : hooks.onStatus(shown(seen, outcome.right))
          }
          return hooks.onTransientFailure === undefined || !isTransient(outcome.left)
            ? Effect.void
            : hooks.onTransientFailure(outcome.left)
        })
      )

    /** The end of the wait once the schedule has stopped: the terminal status, or why there is none. */
    const conclude = (
      seen: Seen
    ): Effect.Effect<Contract.CompletedStatus | Contract.FailedStatus, Client.WatchError> => {
      const outcome = seen.outcome
      if (outcome !== undefined && Either.isRight(outcome) && isTerminal(outcome.right)) {
        return Effect.succeed(shown(seen, outcome.right))
      }
      if (outcome !== undefined && Either.isLeft(outcome) && !goesOn(seen) && outcome.left._tag !== "TransportError") {
        return Effect.fail(outcome.left)
      }
      return Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.fail(timeout(task, seen, now - startedAt)))
    }
    return { next, schedule: schedule(merged, task, deadlineAt), conclude, latest: Ref.get(history) }
  })

const timeout = (task: Task, seen: Seen, waitedMs: number): PollTimeout => {
  const last = seen.last
  const state = last === undefined ? undefined : last.state === "unrecognized" ? last.reported : last.state
  return new PollTimeout({
    format: task.format,
    sessionId: task.sessionId,
    waitedMs,
    ...(state === undefined ?
      {} :
      { lastStatus: { state, ...(seen.highest === undefined ? {} : { progress: seen.highest }) } })
  })
}

/** The result operations of a client. */
export const make = (env: Env) => {
  const once = get(env)
  const poll = (task: Task) => once(task).pipe(span("PdfTransformClient.poll", taskAttributes(task)))

  const status = <F extends Contract.Format>(task: Client.Task<F>): Effect.Effect<Client.Status, Client.StatusError> =>
    once(task).pipe(span("PdfTransformClient.status", taskAttributes(task)))

  const awaitCompletion = <F extends Contract.Format>(
    task: Client.Task<F>,
    options?: Client.PollOptions
  ): Effect.Effect<Client.CompletedTask<F>, Client.AwaitError> =>
    Effect.gen(function*() {
      const wait = yield* begin(poll, env, task, options, {
        onStatus: options?.onStatus,
        onTransientFailure: options?.onTransientFailure
      })
      const first = yield* wait.next
      // The schedule decides after each poll; a task found finished at once needs no decision.
      const last = goesOn(first) ? yield* Effect.scheduleFrom(wait.next, first, wait.schedule) : first
      return yield* completion(task, yield* wait.conclude(last))
    }).pipe(span("PdfTransformClient.awaitCompletion", taskAttributes(task)))

  const watch = <F extends Contract.Format>(
    task: Client.Task<F>,
    options?: Client.PollOptions
  ): Stream.Stream<Client.Status, Client.WatchError> =>
    Stream.unwrap(
      Effect.map(begin(poll, env, task, options), (wait) =>
        Stream.repeatEffectWithSchedule(wait.next, wait.schedule).pipe(
          Stream.filterMap((seen) =>
            seen.outcome !== undefined && Either.isRight(seen.outcome)
              ? Option.some(shown(seen, seen.outcome.right))
              : Option.none()
          ),
          // The stream ends when the schedule stops; the wait's end decides whether that is an error.
          Stream.concat(Stream.drain(Stream.fromEffect(Effect.flatMap(wait.latest, wait.conclude))))
        ))
    ).pipe(
      Stream.withSpan("PdfTransformClient.watch", { attributes: taskAttributes(task), captureStackTrace: false })
    )

  return { status, awaitCompletion, watch }
}
