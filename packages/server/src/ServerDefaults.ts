/**
 * The server's default figures with their reasons, apart so a command's help shows them without the server.
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
  /** A batch client is paced, not stopped. */
  rate: { limit: 10, window: Duration.seconds(1) },
  /** Far above one person's use, a stop for a runaway loop. */
  quota: { limit: 1000, window: Duration.hours(1) },
  /** Tasks in flight per key: the worker pool is small, queueing more only adds latency. */
  concurrency: 8,
  /** No task's end can be predicted: a short hint. */
  concurrencyRetryAfter: Duration.seconds(1),
  /** Conversions running at once (CPU bound: about the number of cores). */
  maxConcurrentConversions: 2,
  /** A hostile PDF ends as failed within this time. */
  conversionTimeout: Duration.minutes(5),
  taskRetention: Duration.hours(1),
  maxTasks: 10_000,
  /** Memory budget of finished outputs; the oldest finished tasks are dropped beyond it. */
  maxStoredOutputBytes: 512 * 1024 * 1024,
  /** Lifetime of a download URL; a fresh one comes with every completed result poll. */
  downloadUrlTtl: Duration.minutes(15),
  maxJsonBodyBytes: 64 * 1024,
  uploadMaxBytes: 100 * 1024 * 1024,
  /** Uploaded files expire after about a day, as on the hosted service. */
  uploadRetention: Duration.hours(24),
  /** S3's multipart minimum, which the hosted service's clients expect; also the smallest accepted. */
  uploadPartSize: 5 * 1024 * 1024,
  incompleteUploadRetention: Duration.hours(1),
  maxUploads: 1000,
  maxUploadBytes: 1024 * 1024 * 1024,
  remoteFetchMaxBytes: 100 * 1024 * 1024,
  remoteFetchTimeout: Duration.seconds(60),
  /** DNS answer time limit for a remote pdfURL, checked while the submit waits. */
  resolveTimeout: Duration.seconds(5),
  shutdownGracePeriod: Duration.seconds(10),
  drainTimeout: Duration.seconds(30),
  /** Long enough for the largest upload on a slow link. */
  requestTimeout: Duration.minutes(2),
  /** A node that dies has its conversions taken by another node about this long after. */
  claimLease: Duration.seconds(10),
  claimPoll: Duration.millis(500),
  /** Prometheus's usual scrape interval; a scrape between two reads serves the last figures. */
  metricsRefresh: Duration.seconds(15)
} as const
