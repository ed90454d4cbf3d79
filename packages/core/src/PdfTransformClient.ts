/** The v1 client as an Effect service: submit, poll, await, watch, convert, download; no duplicate submits.
 * @since 0.1.0 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Config from "effect/Config"
import type { ConfigError } from "effect/ConfigError"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import type * as Schedule from "effect/Schedule"
import type * as Stream from "effect/Stream"
import type {
  CompletedStatus,
  ConversionRequestInput,
  FailedStatus,
  Format,
  ProcessingStatus,
  SessionId
} from "./Contract.js"
import * as internal from "./internal/client.js"
import { defaults as internalDefaults } from "./internal/defaults.js"
import * as status from "./internal/status.js"
import type {
  ConversionFailed,
  DownloadFailed,
  InvalidRequest,
  InvalidResponse,
  PollTimeout,
  RateLimited,
  SubmitOutcomeUnknown,
  TaskNotFound,
  TransportError,
  Unauthenticated,
  UnexpectedResponse
} from "./PdfTransformError.js"
import type { RateLimitInfo } from "./RateLimit.js"

/** A submitted task. Its format is part of its type, so a Markdown task can never be polled on the EPUB endpoint.
 * @since 0.1.0
 * @category models */
export interface Task<F extends Format = Format> {
  readonly format: F
  readonly sessionId: SessionId
  /** The RateLimit information of the submit answer (empty when the server sent none). */
  readonly rateLimit: RateLimitInfo
  /** When the task began, as the client can tell (mid submit round trip), in Clock epoch ms. */
  readonly submittedAt?: number | undefined
  /** The submit's round trip in ms: the task began within half of it either side of `submittedAt`. */
  readonly submitRoundTrip?: number | undefined
}

/** A completed task: its output can be downloaded.
 * @since 0.1.0
 * @category models */
export interface CompletedTask<F extends Format = Format> {
  readonly format: F
  readonly sessionId: SessionId
  readonly downloadURL: string
}

/** A status whose `state` the contract does not name: polling goes on (docs/contract.md, "Task status").
 * @since 0.1.0
 * @category models */
export interface UnrecognizedStatus {
  readonly state: "unrecognized"
  /** The state as the server sent it. */
  readonly reported: string
  readonly progress?: number | undefined
}

/** What one poll can observe, told apart by `state`: `status.state === "completed"` narrows to `CompletedStatus`.
 * @since 0.1.0
 * @category models */
export type Status = ProcessingStatus | CompletedStatus | FailedStatus | UnrecognizedStatus

/** Builds a task handle from a stored `sessionId`, to resume polling after a restart.
 * @since 0.1.0
 * @category constructors */
export const task = <F extends Format>(format: F, sessionId: SessionId): Task<F> => ({
  format,
  sessionId,
  rateLimit: { policies: [], states: [] }
})

/** Whether polling stops at this status: `completed` or `failed`.
 * @since 0.1.0
 * @category predicates */
export const isTerminal: (status: Status) => status is CompletedStatus | FailedStatus = status.isTerminal

/** A terminal status's meaning: the `CompletedTask` to download, or `ConversionFailed` with its reason.
 * @since 0.1.0
 * @category constructors */
export const completion: <F extends Format>(
  task: { readonly format: F; readonly sessionId: SessionId },
  status: CompletedStatus | FailedStatus
) => Either.Either<CompletedTask<F>, ConversionFailed> = status.completion

/** How to wait for a task. Every figure has a default taken from the contract's example settings.
 * @since 0.1.0
 * @category options */
export interface PollOptions {
  /** First delay between polls, and the shortest progress-based delay (default 2 s). */
  readonly initialInterval?: Duration.DurationInput | undefined
  /** Growth factor of the delay (default 1.5). */
  readonly factor?: number | undefined
  /** Longest delay between polls (default 10 s). */
  readonly maxInterval?: Duration.DurationInput | undefined
  /** Randomise each delay (default true) so that many waiters do not poll in lockstep. */
  readonly jitter?: boolean | undefined
  /** Total time to wait before `PollTimeout` (default 600 s). */
  readonly deadline?: Duration.DurationInput | undefined
  /** Place the next poll near the completion time estimated from a rising progress (default true). */
  readonly progressAware?: boolean | undefined
  /** Your own schedule of delays between polls, in place of `factor`, `maxInterval` and `jitter`. */
  readonly schedule?: Schedule.Schedule<unknown, unknown> | undefined
  /** `awaitCompletion` runs this with every status it sees (progress never going backwards). */
  readonly onStatus?: ((status: Status) => Effect.Effect<void>) | undefined
  /** `awaitCompletion` runs this with every failure it rides out, so callers see an outage. */
  readonly onTransientFailure?: ((error: StatusError) => Effect.Effect<void, TransportError>) | undefined
}

/** How to retry a submit refused with 429 (and a connection that failed before sending).
 * @since 0.1.0
 * @category options */
export interface SubmitRetryOptions<E = never> {
  /** Attempts in all, the first included (default 8). */
  readonly maxAttempts?: number | undefined
  /** Total time the retries may take; a server delay past it fails now (default 60 s). */
  readonly deadline?: Duration.DurationInput | undefined
  /** First backoff delay when the server gave none (default 1 s, doubled each time). */
  readonly initialBackoff?: Duration.DurationInput | undefined
  /** Longest backoff delay when the server gave none (default 30 s). */
  readonly maxBackoff?: Duration.DurationInput | undefined
  /** Runs before each attempt (from 1) sends; a failure ends the submit, nothing sent.
   * @since 0.2.0 */
  readonly beforeAttempt?: ((attempt: number) => Effect.Effect<void, E>) | undefined
  /** Runs with the task an attempt created, before `submit` answers it.
   * @since 0.2.0 */
  readonly onAccepted?: ((task: Task, attempt: number) => Effect.Effect<void, E>) | undefined
  /** Runs after each attempt that failed, whatever the error.
   * @since 0.2.0 */
  readonly onRefused?: ((error: SubmitError, attempt: number) => Effect.Effect<"retry" | "stop", E>) | undefined
}

/** @since 0.1.0
 * @category options */
export interface Options {
  readonly apiKey: Redacted.Redacted<string>
  /** Base URL ending in `/v1` (default: the hosted service). */
  readonly baseUrl?: string | undefined
  /** Time limit of one request, reading its body included (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput | undefined
  /** Time a download may go without receiving a byte (default 60 s). */
  readonly downloadIdleTimeout?: Duration.DurationInput | undefined
  readonly poll?: PollOptions | undefined
  readonly submitRetry?: SubmitRetryOptions | undefined
}

/** Every default of the client, each with its reason.
 * @since 0.1.0
 * @category constants */
export const defaults = internalDefaults

/** The hosted service.
 * @since 0.1.0
 * @category constants */
export const defaultBaseUrl: string = internalDefaults.baseUrl

/** The errors a submit can end with.
 * @since 0.1.0
 * @category errors */
export type SubmitError =
  | InvalidRequest
  | Unauthenticated
  | RateLimited
  | SubmitOutcomeUnknown
  | UnexpectedResponse
  | InvalidResponse
  | TransportError

/** The errors one poll can end with.
 * @since 0.1.0
 * @category errors */
export type StatusError = Unauthenticated | TaskNotFound | UnexpectedResponse | InvalidResponse | TransportError

/** The errors of watching a task; transient failures are retried and end as `PollTimeout`.
 * @since 0.1.0
 * @category errors */
export type WatchError = Unauthenticated | TaskNotFound | UnexpectedResponse | InvalidResponse | PollTimeout

/** The errors of waiting for completion.
 * @since 0.1.0
 * @category errors */
export type AwaitError = WatchError | ConversionFailed | TransportError

/** @since 0.1.0
 * @category models */
export interface Service {
  /** Where the service is reached: the base URL, ending in `/v1`, without a trailing slash. */
  readonly baseUrl: string
  /** Submits a conversion. */
  readonly submit: <F extends Format, E = never>(
    format: F,
    request: ConversionRequestInput,
    retry?: SubmitRetryOptions<E>
  ) => Effect.Effect<Task<F>, SubmitError | E>
  /** One poll of the result endpoint. */
  readonly status: <F extends Format>(task: Task<F>) => Effect.Effect<Status, StatusError>
  /** Polls until the task is terminal: the completed task, or `ConversionFailed`. */
  readonly awaitCompletion: <F extends Format>(
    task: Task<F>,
    options?: PollOptions
  ) => Effect.Effect<CompletedTask<F>, AwaitError>
  /** Every status seen until a terminal one (included), for progress displays. */
  readonly watch: <F extends Format>(task: Task<F>, options?: PollOptions) => Stream.Stream<Status, WatchError>
  /** Submit and await completion. */
  readonly convert: <F extends Format>(
    format: F,
    request: ConversionRequestInput,
    options?: PollOptions
  ) => Effect.Effect<CompletedTask<F>, SubmitError | AwaitError>
  /** The output as a stream of chunks, Content-Length checked; an expired URL is refreshed once. */
  readonly download: <F extends Format>(completed: CompletedTask<F>) => Stream.Stream<Uint8Array, DownloadFailed>
  /** The whole output in memory, checked as `download`; above `maxBytes`, `DownloadFailed`. */
  readonly downloadBytes: <F extends Format>(
    completed: CompletedTask<F>,
    options?: DownloadBytesOptions
  ) => Effect.Effect<Uint8Array, DownloadFailed>
}

/** @since 0.1.0
 * @category models */
export interface DownloadBytesOptions {
  /** The largest output to hold in memory (default 256 MiB). */
  readonly maxBytes?: number | undefined
}

/** @since 0.1.0
 * @category tags */
export class PdfTransformClient extends Context.Tag("@pdf-transform/core/PdfTransformClient")<
  PdfTransformClient,
  Service
>() {}

/** Builds the client on an `HttpClient`, resolved once here so it never appears in the methods.
 * @since 0.1.0
 * @category constructors */
export const make: (options: Options) => Effect.Effect<Service, never, HttpClient.HttpClient> = internal.make

/** @since 0.1.0
 * @category layers */
export const layer = (options: Options): Layer.Layer<PdfTransformClient, never, HttpClient.HttpClient> =>
  Layer.effect(PdfTransformClient, make(options))

/** The client from `PDF_TRANSFORM_API_KEY` and `PDF_TRANSFORM_BASE_URL` unless given.
 * @since 0.1.0
 * @category layers */
export const layerConfig = (
  options: {
    readonly apiKey?: Config.Config<Redacted.Redacted<string>> | undefined
    readonly baseUrl?: Config.Config<string> | undefined
  } & Omit<Options, "apiKey" | "baseUrl"> = {}
): Layer.Layer<PdfTransformClient, ConfigError, HttpClient.HttpClient> =>
  Layer.effect(
    PdfTransformClient,
    Effect.gen(function*() {
      const apiKey = yield* (options.apiKey ?? Config.redacted("PDF_TRANSFORM_API_KEY"))
      const baseUrl = yield* (options.baseUrl ?? Config.string("PDF_TRANSFORM_BASE_URL").pipe(
        Config.withDefault(defaultBaseUrl)
      ))
      return yield* make({ ...options, apiKey, baseUrl })
    })
  )
