/**
 * The server's options with every default applied, in one place.
 */
import * as Duration from "effect/Duration"
import * as Redacted from "effect/Redacted"
import * as Crypto from "node:crypto"
import * as Os from "node:os"
import type { AppOptions, KeyOptions, LimitOptions } from "../Server.js"
import { defaults } from "../ServerDefaults.js"
import type { Resolve } from "./addresses.js"
import { systemResolve } from "./addresses.js"
import type { ConfiguredKey } from "./auth.js"
import { isUsableKey } from "./auth.js"
import type { LimiterConfig } from "./limiter.js"
import { randomKey } from "./signing.js"

export interface ResolvedOptions {
  readonly keys: ReadonlyArray<ConfiguredKey>
  readonly publicUrl: URL
  readonly signingKey: Uint8Array
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
  /** The web page at `/` and its API under `/api`. */
  readonly webPage: boolean
  readonly conversionTimeoutMs: number
  readonly taskRetentionMs: number
  readonly maxTasks: number
  readonly maxStoredOutputBytes: number
  readonly downloadUrlTtlMs: number
  readonly maxJsonBodyBytes: number
  readonly requestTimeoutMs: number
  readonly drainTimeoutMs: number
  /** Record metrics (`metrics.ts`). */
  readonly metrics: boolean
  /** How often the cluster's task counts are read into the metrics (`metricsRefresh.ts`). */
  readonly metricsRefreshMs: number
  readonly requestLog: boolean
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
    /** Host names fetched from (`*.` prefix: subdomains); every host when undefined. */
    readonly allowHosts: ReadonlyArray<string> | undefined
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
    validation: (keys: ReadonlyArray<Redacted.Redacted<string> | KeyOptions>): boolean =>
      keys.length > 0 && keys.every((key) => isUsableKey(Redacted.value(Redacted.isRedacted(key) ? key : key.key)))
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

/** The limiter of `limits`: each rule given, or its default; `false` turns it off. */
const limiterOf = (limits: LimitOptions, where: string): LimiterConfig => {
  const rate = limits.rate === false ? undefined : limits.rate ?? defaults.rate
  const quota = limits.quota === false ? undefined : limits.quota ?? defaults.quota
  const concurrency = limits.concurrency === false ? undefined : limits.concurrency ?? defaults.concurrency
  return {
    rate: rate === undefined ? undefined : {
      limit: positive(`${where}.rate.limit`, rate.limit),
      windowMs: positive(`${where}.rate.window`, millis(rate.window))
    },
    quota: quota === undefined ? undefined : {
      limit: positive(`${where}.quota.limit`, quota.limit),
      windowMs: positive(`${where}.quota.window`, millis(quota.window))
    },
    concurrency: concurrency === undefined ? undefined : positive(`${where}.concurrency`, concurrency),
    concurrencyRetryAfterMs: millis(limits.concurrencyRetryAfter ?? defaults.concurrencyRetryAfter)
  }
}

/** The keys with their identities: a name, else `key#N`; each key's limits over the server's, rule by rule. */
const configuredKeys = (options: AppOptions): ReadonlyArray<ConfiguredKey> => {
  const server = options.limits ?? {}
  const base = limiterOf(server, "limits")
  const keys = options.keys.map((key, i): ConfiguredKey => {
    const entry: KeyOptions = Redacted.isRedacted(key) ? { key } : key
    const id = entry.name ?? `key#${i + 1}`
    const own = entry.limits
    const limiter = own === undefined ? base : limiterOf({
      rate: own.rate ?? server.rate,
      quota: own.quota ?? server.quota,
      concurrency: own.concurrency ?? server.concurrency,
      concurrencyRetryAfter: own.concurrencyRetryAfter ?? server.concurrencyRetryAfter
    }, `keys.${id}.limits`)
    return { id, secret: entry.key, limiter }
  })
  const ids = keys.map((key) => key.id)
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i)
  if (repeated !== undefined) throw new InvalidOptions(`keys: two keys are named ${repeated}`)
  return keys
}

export const resolve = (options: AppOptions, internal?: { readonly resolve?: Resolve }): ResolvedOptions => {
  if (!checks.keys.validation(options.keys)) throw new InvalidOptions(checks.keys.message)
  const publicUrlText = (options.publicUrl ?? `http://${defaults.host}`).replace(/\/+$/, "")
  if (!checks.publicUrl.validation(publicUrlText)) throw new InvalidOptions(checks.publicUrl.message)
  if (options.signingKey !== undefined && !checks.signingKey.validation(options.signingKey)) {
    throw new InvalidOptions(checks.signingKey.message)
  }
  const partSize = options.uploads?.partSize ?? defaults.uploadPartSize
  if (!Number.isInteger(partSize) || partSize < defaults.uploadPartSize) {
    throw new InvalidOptions(`uploads.partSize must be a whole number of bytes, at least ${defaults.uploadPartSize}`)
  }
  const signingKey = options.signingKey === undefined
    ? randomKey()
    : new TextEncoder().encode(Redacted.value(options.signingKey))
  return {
    keys: configuredKeys(options),
    publicUrl: new URL(publicUrlText),
    signingKey,
    blobDir: options.blobDir,
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
    webPage: options.webPage ?? true,
    conversionTimeoutMs: millis(options.conversions?.timeout ?? defaults.conversionTimeout),
    taskRetentionMs: millis(options.conversions?.retention ?? defaults.taskRetention),
    maxTasks: positive("conversions.maxTasks", options.conversions?.maxTasks ?? defaults.maxTasks),
    maxStoredOutputBytes: options.conversions?.maxStoredBytes ?? defaults.maxStoredOutputBytes,
    downloadUrlTtlMs: millis(options.downloadUrlTtl ?? defaults.downloadUrlTtl),
    maxJsonBodyBytes: options.maxJsonBodyBytes ?? defaults.maxJsonBodyBytes,
    metrics: options.metrics ?? false,
    metricsRefreshMs: millis(options.metricsRefresh ?? defaults.metricsRefresh),
    requestLog: options.requestLog ?? false,
    requestTimeoutMs: positive("requestTimeout", millis(options.requestTimeout ?? defaults.requestTimeout)),
    drainTimeoutMs: millis(options.drainTimeout ?? defaults.drainTimeout),
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
      resolve: internal?.resolve ?? systemResolve,
      allowHosts: options.remoteFetch?.allowHosts?.map((host) => host.toLowerCase())
    }
  }
}
