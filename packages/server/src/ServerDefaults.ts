/**
 * The server's default figures, each with its reason. A module of its own that imports nothing but
 * `effect/Duration`, so that a command line can show them in its help without loading the server.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"

/**
 * The default figures of `Server.layer`'s options.
 *
 * @since 0.1.0
 * @category constants
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
  /** A request's deadline, from its first byte to its answer: a 100 MiB upload on a slow link fits. */
  requestTimeout: Duration.minutes(2),
  /**
   * On a shared database, how long a node's claim on a task lasts unless renewed (every third of
   * it): a node that dies has its conversions taken by another node about this long after.
   */
  claimLease: Duration.seconds(10),
  /** On a shared database, how often a node with a free slot looks for tasks submitted to other nodes. */
  claimPoll: Duration.millis(500)
} as const
