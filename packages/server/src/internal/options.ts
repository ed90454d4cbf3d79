/**
 * The server's options with every default applied, in one place.
 */
import * as Duration from "effect/Duration"
import * as Redacted from "effect/Redacted"
import * as Crypto from "node:crypto"
import * as Os from "node:os"
import type { AppOptions } from "../Server.js"
import type { Resolve } from "./addresses.js"
import { systemResolve } from "./addresses.js"
import { isUsableKey } from "./auth.js"
import type { LimiterConfig } from "./limiter.js"
import { randomKey } from "./signing.js"

/**
 * Defaults, each with its reason.
 */
export const defaults = {
  /** Loopback only: exposing the server is a decision, not an accident. */
  host: "127.0.0.1",
  port: 8787,
  /** A burst of 10 submits, refilled at 10 per second: a batch client is paced, not stopped. */
  rate: { limit: 10, window: Duration.seconds(1) },
  /** 1000 submits per hour and key: far above one person's use, a stop for a runaway loop. */
  quota: { limit: 1000, window: Duration.hours(1) },
  /** Tasks in flight per key: the worker pool is small, queueing more only adds latency. */
  concurrency: 8,
  /** No task end can be predicted for `concurrency_exceeded`: a short hint, the batch client waits for its own tasks. */
  concurrencyRetryAfter: Duration.seconds(1),
  /** Conversions running at once (CPU bound: about the number of cores). */
  maxConcurrentConversions: 2,
  /** A hostile PDF ends as failed within this time. */
  conversionTimeout: Duration.minutes(5),
  /** How long a finished task (and its output) is kept and answered. */
  taskRetention: Duration.hours(1),
  maxTasks: 10_000,
  /** Memory budget of finished outputs; the oldest finished tasks are dropped beyond it. */
  maxStoredOutputBytes: 512 * 1024 * 1024,
  /** Lifetime of a download URL; a fresh one comes with every completed result poll. */
  downloadUrlTtl: Duration.minutes(15),
  /** Submit bodies are a few hundred bytes. */
  maxJsonBodyBytes: 64 * 1024,
  uploadMaxBytes: 100 * 1024 * 1024,
  /** Uploaded files expire after about a day, as on the hosted service. */
  uploadRetention: Duration.hours(24),
  /**
   * Part size of the chunked upload protocol: S3's multipart minimum, which the hosted service's
   * clients expect; a part is buffered whole while it arrives. Also the smallest size accepted.
   */
  uploadPartSize: 5 * 1024 * 1024,
  /** A chunked upload (and its part URLs) expires this long after `init` if it is not finished. */
  incompleteUploadRetention: Duration.hours(1),
  maxUploads: 1000,
  maxUploadBytes: 1024 * 1024 * 1024,
  remoteFetchMaxBytes: 100 * 1024 * 1024,
  remoteFetchTimeout: Duration.seconds(60),
  /** DNS answer time limit for a remote pdfURL, checked while the submit waits. */
  resolveTimeout: Duration.seconds(5),
  /** How long in-flight requests may take to finish at shutdown before connections are cut. */
  shutdownGracePeriod: Duration.seconds(10),
  /**
   * On a shared database, how long a node's claim on a task lasts unless renewed (every third of
   * it): a node that dies has its conversions taken by another node about this long after.
   */
  claimLease: Duration.seconds(10),
  /** On a shared database, how often a node with a free slot looks for tasks submitted to other nodes. */
  claimPoll: Duration.millis(500)
} as const

export interface ResolvedOptions {
  readonly keys: ReadonlyArray<Redacted.Redacted<string>>
  readonly publicUrl: URL
  readonly signingKey: Uint8Array
  readonly limiter: LimiterConfig
  /** Where outputs and uploaded bytes are kept as files, instead of in the database's rows. */
  readonly blobDir: string | undefined
  /** This process as one node of the server: its name, and how it shares the database's tasks. */
  readonly node: {
    readonly id: string
    /** Other processes use the same database: claims are leased, renewed, and taken over when they lapse. */
    readonly shared: boolean
    readonly leaseMs: number
    readonly pollMs: number
  }
  readonly maxConcurrentConversions: number
  readonly conversionTimeoutMs: number
  readonly taskRetentionMs: number
  readonly maxTasks: number
  readonly maxStoredOutputBytes: number
  readonly downloadUrlTtlMs: number
  readonly maxJsonBodyBytes: number
  readonly uploads: {
    readonly maxBytes: number
    readonly retentionMs: number
    readonly partSize: number
    readonly incompleteRetentionMs: number
    readonly maxFiles: number
    readonly maxTotalBytes: number
  }
  readonly remoteFetch: {
    readonly enabled: boolean
    readonly maxBytes: number
    readonly timeoutMs: number
    readonly resolveTimeoutMs: number
    readonly resolve: Resolve
  }
}

/** A configuration that cannot work (no keys, a key that no header can carry, a bad URL). */
export class InvalidOptions extends Error {
  readonly _tag = "InvalidOptions"
}

const millis = (input: Duration.DurationInput): number => Duration.toMillis(Duration.decode(input))

const positive = (name: string, value: number): number => {
  if (!Number.isFinite(value) || value <= 0) throw new InvalidOptions(`${name} must be a positive number`)
  return value
}

/**
 * The checks of the values `Server.layerConfig` reads from the environment, shared with `resolve`
 * so that a bad environment is a `ConfigError` and a bad option a defect, with the same words.
 */
export const checks = {
  keys: {
    message: "API keys must be 1 to 4096 visible ASCII characters without spaces, and at least one is required",
    validation: (keys: ReadonlyArray<Redacted.Redacted<string>>): boolean =>
      keys.length > 0 && keys.every((key) => isUsableKey(Redacted.value(key)))
  },
  publicUrl: {
    message: "publicUrl must be an absolute http(s) URL",
    validation: (url: string): boolean => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)
  },
  signingKey: {
    message: "signingKey must be at least 16 bytes",
    validation: (key: Redacted.Redacted<string>): boolean =>
      new TextEncoder().encode(Redacted.value(key)).byteLength >= 16
  }
} as const

export const resolve = (options: AppOptions, internal?: { readonly resolve?: Resolve }): ResolvedOptions => {
  if (!checks.keys.validation(options.keys)) throw new InvalidOptions(checks.keys.message)
  const publicUrlText = (options.publicUrl ?? `http://${defaults.host}`).replace(/\/+$/, "")
  if (!checks.publicUrl.validation(publicUrlText)) throw new InvalidOptions(checks.publicUrl.message)
  if (options.signingKey !== undefined && !checks.signingKey.validation(options.signingKey)) {
    throw new InvalidOptions(checks.signingKey.message)
  }
  const limits = options.limits ?? {}
  const rate = limits.rate === false ? undefined : limits.rate ?? defaults.rate
  const quota = limits.quota === false ? undefined : limits.quota ?? defaults.quota
  const concurrency = limits.concurrency === false ? undefined : limits.concurrency ?? defaults.concurrency
  const partSize = options.uploads?.partSize ?? defaults.uploadPartSize
  if (!Number.isInteger(partSize) || partSize < defaults.uploadPartSize) {
    throw new InvalidOptions(`uploads.partSize must be a whole number of bytes, at least ${defaults.uploadPartSize}`)
  }
  const signingKey = options.signingKey === undefined
    ? randomKey()
    : new TextEncoder().encode(Redacted.value(options.signingKey))
  return {
    keys: options.keys,
    publicUrl: new URL(publicUrlText),
    signingKey,
    blobDir: options.blobDir,
    limiter: {
      rate: rate === undefined
        ? undefined
        : {
          limit: positive("limits.rate.limit", rate.limit),
          windowMs: positive("limits.rate.window", millis(rate.window))
        },
      quota: quota === undefined
        ? undefined
        : {
          limit: positive("limits.quota.limit", quota.limit),
          windowMs: positive("limits.quota.window", millis(quota.window))
        },
      concurrency: concurrency === undefined ? undefined : positive("limits.concurrency", concurrency),
      concurrencyRetryAfterMs: millis(limits.concurrencyRetryAfter ?? defaults.concurrencyRetryAfter)
    },
    node: {
      id: options.node?.id ?? `${Os.hostname()}-${Crypto.randomUUID().slice(0, 8)}`,
      // A database of this process alone: claims need no lease, and a claim found at start is from a process that died.
      shared: options.database !== undefined,
      leaseMs: positive("node.claimLease", millis(options.node?.claimLease ?? defaults.claimLease)),
      pollMs: positive("node.claimPoll", millis(options.node?.claimPoll ?? defaults.claimPoll))
    },
    maxConcurrentConversions: positive(
      "conversions.maxConcurrent",
      options.conversions?.maxConcurrent ?? defaults.maxConcurrentConversions
    ),
    conversionTimeoutMs: millis(options.conversions?.timeout ?? defaults.conversionTimeout),
    taskRetentionMs: millis(options.conversions?.retention ?? defaults.taskRetention),
    maxTasks: positive("conversions.maxTasks", options.conversions?.maxTasks ?? defaults.maxTasks),
    maxStoredOutputBytes: options.conversions?.maxStoredBytes ?? defaults.maxStoredOutputBytes,
    downloadUrlTtlMs: millis(options.downloadUrlTtl ?? defaults.downloadUrlTtl),
    maxJsonBodyBytes: options.maxJsonBodyBytes ?? defaults.maxJsonBodyBytes,
    uploads: {
      maxBytes: options.uploads?.maxBytes ?? defaults.uploadMaxBytes,
      retentionMs: millis(options.uploads?.retention ?? defaults.uploadRetention),
      partSize,
      incompleteRetentionMs: millis(options.uploads?.incompleteRetention ?? defaults.incompleteUploadRetention),
      maxFiles: options.uploads?.maxFiles ?? defaults.maxUploads,
      maxTotalBytes: options.uploads?.maxTotalBytes ?? defaults.maxUploadBytes
    },
    remoteFetch: {
      enabled: options.remoteFetch?.enabled ?? false,
      maxBytes: options.remoteFetch?.maxBytes ?? defaults.remoteFetchMaxBytes,
      timeoutMs: millis(options.remoteFetch?.timeout ?? defaults.remoteFetchTimeout),
      resolveTimeoutMs: millis(defaults.resolveTimeout),
      resolve: internal?.resolve ?? systemResolve
    }
  }
}
