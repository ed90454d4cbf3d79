/** An in-memory `HttpClient` speaking the v1 contract under `TestClock`: scripted timelines, faults, requests recorded.
 * @since 0.1.0 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as Contract from "@pdf-transform/core/Contract"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as FakeSteps from "./FakeSteps.js"
import * as internal from "./internal/fakeServer.js"

/** The steps, timelines, faults and outputs of `FakeSteps`, so scripts can name them as `FakeServer.StatusStep`.
 * @since 0.1.0
 * @category models */
export type * from "./FakeSteps.js"

/** @since 0.1.0
 * @category options */
export interface Options {
  /** Base URL of the contract routes, ending in `/v1` (default {@link defaultBaseUrl}). */
  readonly baseUrl?: string | undefined
  /** Accepted API keys (default `[defaultApiKey]`). */
  readonly apiKeys?: ReadonlyArray<string> | undefined
  /** Timeline of tasks whose submit step gives none (default {@link completedImmediately}). */
  readonly defaultTimeline?: FakeSteps.Timeline | undefined
  /** What a completed task downloads when its `Accept` step gives none: one output for all, or one per task. */
  readonly output?: FakeSteps.Output | ((task: FakeTask) => FakeSteps.Output) | undefined
  /** `RateLimit-Policy` and `RateLimit` headers sent on accepted submits. */
  readonly rateLimitHeaders?: { readonly policy?: string | undefined; readonly state?: string | undefined } | undefined
  /** Keep every request for `requests` (default true); off for benchmarks, so the log takes no memory. */
  readonly recordRequests?: boolean | undefined
  /** Tasks in flight allowed, from submit to `completed` or `failed` (default: no limit). */
  readonly concurrencyLimit?: number | undefined
  /** A rate rule on submits (default: none), announced in every submit answer's RateLimit headers. */
  readonly rateLimit?: RateOptions | undefined
  readonly uploads?: UploadOptions | undefined
  /** How long each answer of a contract route takes to arrive (Clock time, default none). */
  readonly latency?: Duration.DurationInput | undefined
}

/** A request-rate rule of the fake: `quota` submits per `window`.
 * @since 0.1.0
 * @category options */
export interface RateOptions {
  readonly quota: number
  readonly window: Duration.DurationInput
  /** `fixed-window` (default, aligned on Clock time 0) or `token-bucket` (the reference server's rule). */
  readonly kind?: "fixed-window" | "token-bucket" | undefined
  /** The policy's name in the headers (default `rate`). */
  readonly name?: string | undefined
}

/** The fake's chunked upload protocol: `init` and `url` under `baseUrl` (with the key), parts on a storage host.
 * @since 0.1.0
 * @category options */
export interface UploadOptions {
  /** Where `init` and `url` live (default: the contract base URL + `/uploads`, as on the reference server). */
  readonly baseUrl?: string | undefined
  /** Bytes per part (default 5 MiB, as the reference server). */
  readonly partSize?: number | undefined
  /** A larger declared size answers 413 `{error: "upload_too_large", message, max_bytes}` (default: no limit). */
  readonly maxBytes?: number | undefined
  /** Wrap the answers of `init` and `url` in `{data: ...}` (default true; the hosted service's clients accept both). */
  readonly envelope?: boolean | undefined
}

/** The API key the fake accepts by default.
 * @since 0.1.0
 * @category constants */
export const defaultApiKey = internal.defaultApiKey

/** The default base URL: a reserved `.test` host, so nothing can reach a real network.
 * @since 0.1.0
 * @category constants */
export const defaultBaseUrl = internal.defaultBaseUrl

/** An upload the fake received through the chunked protocol.
 * @since 0.1.0
 * @category models */
export interface FakeUpload {
  readonly uploadId: string
  readonly size: number
  readonly partSize: number
  readonly totalParts: number
  /** Parts stored, ascending. */
  readonly received: ReadonlyArray<number>
  /** Whether `url` has answered its `cache://` URL. */
  readonly completed: boolean
  /** The file as assembled from the parts stored (zeros where a part is missing). */
  readonly bytes: Uint8Array
}

/** A task the fake created.
 * @since 0.1.0
 * @category models */
export interface FakeTask {
  readonly sessionId: string
  readonly format: Contract.Format
  readonly request: unknown
  /** Clock time of the submit, in epoch milliseconds. */
  readonly createdAt: number
  readonly timeline: FakeSteps.Timeline
}

/** A request the fake received, faulted ones included.
 * @since 0.1.0
 * @category models */
export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  /** The parsed JSON body, the text when it is not JSON, `undefined` when empty. */
  readonly body: unknown
  /** Clock time of the request, in epoch milliseconds. */
  readonly at: number
}

/** @since 0.1.0
 * @category models */
export interface Service {
  readonly baseUrl: string
  readonly apiKey: string
  readonly httpClient: HttpClient.HttpClient
  /** Steps consumed one per submit request, in order; when none is left: `Accept` with the default timeline. */
  readonly enqueueSubmit: (...steps: ReadonlyArray<FakeSteps.SubmitStep>) => Effect.Effect<void>
  /** One-shot answers consumed one per result request for this id, before its timeline applies. */
  readonly enqueueResult: (sessionId: string, ...steps: ReadonlyArray<FakeSteps.StatusStep>) => Effect.Effect<void>
  /** One-shot answers consumed one per download request of this task, before the normal download. */
  readonly enqueueDownload: (sessionId: string, ...steps: ReadonlyArray<FakeSteps.DownloadStep>) => Effect.Effect<void>
  /** Replaces the timeline of a task (still measured from its creation); for an id not yet created, used when it is. */
  readonly setTimeline: (sessionId: string, timeline: FakeSteps.Timeline) => Effect.Effect<void>
  /** Changes the tasks-in-flight limit (see `Options.concurrencyLimit`); `undefined` lifts it. */
  readonly setConcurrencyLimit: (limit: number | undefined) => Effect.Effect<void>
  /** Tasks in flight now (Clock time), by the rule of `Options.concurrencyLimit`. */
  readonly inFlight: Effect.Effect<number>
  /** While `true`, every request fails with `ECONNREFUSED` before anything is sent; nothing is recorded. */
  readonly setUnreachable: (unreachable: boolean) => Effect.Effect<void>
  readonly uploadBaseUrl: string
  /** Steps consumed one per `PUT` of this part number (of any upload), before the part is stored normally. */
  readonly enqueuePart: (part: number, ...steps: ReadonlyArray<FakeSteps.PartStep>) => Effect.Effect<void>
  readonly uploads: Effect.Effect<ReadonlyArray<FakeUpload>>
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  readonly tasks: Effect.Effect<ReadonlyArray<FakeTask>>
}

/** @since 0.1.0
 * @category tags */
export class FakeServer extends Context.Tag("@pdf-transform/testing/FakeServer")<FakeServer, Service>() {}

/** The default timeline: completed at once.
 * @since 0.1.0
 * @category constants */
export const completedImmediately: FakeSteps.Timeline = internal.completedImmediately

/** Builds a fake server. Its state lives as long as the returned service.
 * @since 0.1.0
 * @category constructors */
export const make: (options?: Options) => Effect.Effect<Service> = internal.make

/** Provides the fake and an `HttpClient` that talks to it.
 * @since 0.1.0
 * @category layers */
export const layer = (options?: Options): Layer.Layer<FakeServer | HttpClient.HttpClient> =>
  Layer.effectContext(
    Effect.map(
      internal.make(options),
      (service) => Context.make(FakeServer, service).pipe(Context.add(HttpClient.HttpClient, service.httpClient))
    )
  )
