/** The `Uploader` of the chunked, resumable upload protocol (the hosted service's and the reference server's).
 * @since 0.1.0 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Config from "effect/Config"
import type { ConfigError } from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as internal from "./internal/chunkedUpload.js"
import * as PlatformUploader from "./internal/platformUploader.js"
import * as Retry from "./Retry.js"
import * as Uploader from "./Uploader.js"
import { hostedUploadBaseUrl } from "./UploadProtocol.js"

/** How one request of an upload is retried after a 5xx or a network failure.
 * @since 0.1.0
 * @category options */
export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  readonly attempts?: number | undefined
  /** First delay, doubled after each attempt (default 1 s). */
  readonly initialDelay?: Duration.DurationInput | undefined
  /** Longest delay (default 15 s). */
  readonly maxDelay?: Duration.DurationInput | undefined
  /** Randomise each delay by ±20% (default true) so that parts failing together do not retry together. */
  readonly jitter?: boolean | undefined
}

/** @since 0.1.0
 * @category options */
export interface Options {
  readonly apiKey: Redacted.Redacted<string>
  /** Where `init` and `url` live (default: the hosted service's; the reference server's is `<server>/v1/uploads`). */
  readonly uploadBaseUrl?: string | undefined
  /** Parts sent at once (default 3). */
  readonly concurrency?: number | undefined
  readonly retry?: RetryOptions | undefined
  /** Time limit of one request, its body included (default 120 s: room for a whole part on a slow link). */
  readonly requestTimeout?: Duration.DurationInput | undefined
  /** The server's upload limit in bytes, when known: a larger file fails with `UploadTooLarge` before any request. */
  readonly maxBytes?: number | undefined
}

/** Every default of this uploader, with its reason.
 * @since 0.1.0
 * @category constants */
export const defaults = {
  /** The hosted service. */
  uploadBaseUrl: hostedUploadBaseUrl,
  /** Three parts in flight fill a link without holding more than a few read buffers in memory. */
  concurrency: 3,
  retry: {
    /** Four retries ride out a restarting proxy or a storage hiccup. */
    attempts: 5,
    initialDelay: Duration.seconds(1),
    maxDelay: Duration.seconds(15),
    jitter: true
  },
  requestTimeout: Duration.seconds(120)
} as const

/** The delays between the attempts of one request, as a jittered exponential `Schedule`.
 * @since 0.1.0
 * @category constructors */
export const retrySchedule = (options: RetryOptions = {}): Schedule.Schedule<unknown, unknown> => {
  const delays = Retry.backoff({
    initial: options.initialDelay ?? defaults.retry.initialDelay,
    max: options.maxDelay ?? defaults.retry.maxDelay,
    jitter: options.jitter ?? defaults.retry.jitter
  })
  const attempts = Math.max(1, Math.floor(options.attempts ?? defaults.retry.attempts))
  return Schedule.intersect(delays, Schedule.recurs(attempts - 1))
}

/** Builds the chunked uploader; the `HttpClient` and the `FileSystem` (for paths) are resolved here.
 * @since 0.1.0
 * @category constructors */
export const make = (
  options: Options
): Effect.Effect<Uploader.Service, never, HttpClient.HttpClient | FileSystem.FileSystem> =>
  PlatformUploader.make((client, fs) =>
    internal.make(
      {
        apiKey: options.apiKey,
        uploadBaseUrl: options.uploadBaseUrl ?? defaults.uploadBaseUrl,
        concurrency: Math.max(1, Math.floor(options.concurrency ?? defaults.concurrency)),
        retry: retrySchedule(options.retry),
        requestTimeout: Duration.decode(options.requestTimeout ?? defaults.requestTimeout),
        maxBytes: options.maxBytes
      },
      client,
      fs
    )
  )

/** @since 0.1.0
 * @category layers */
export const layer = (
  options: Options
): Layer.Layer<Uploader.Uploader, never, HttpClient.HttpClient | FileSystem.FileSystem> =>
  Layer.effect(Uploader.Uploader, make(options))

/** The uploader from `PDF_TRANSFORM_API_KEY` and `PDF_TRANSFORM_UPLOAD_BASE_URL` unless given.
 * @since 0.1.0
 * @category layers */
export const layerConfig = (
  options: {
    readonly apiKey?: Config.Config<Redacted.Redacted<string>> | undefined
    readonly uploadBaseUrl?: Config.Config<string> | undefined
  } & Omit<Options, "apiKey" | "uploadBaseUrl"> = {}
): Layer.Layer<Uploader.Uploader, ConfigError, HttpClient.HttpClient | FileSystem.FileSystem> =>
  Layer.effect(
    Uploader.Uploader,
    Effect.gen(function*() {
      const apiKey = yield* (options.apiKey ?? Config.redacted("PDF_TRANSFORM_API_KEY"))
      const uploadBaseUrl = yield* (options.uploadBaseUrl ?? Config.string("PDF_TRANSFORM_UPLOAD_BASE_URL").pipe(
        Config.withDefault(defaults.uploadBaseUrl)
      ))
      return yield* make({ ...options, apiKey, uploadBaseUrl })
    })
  )
