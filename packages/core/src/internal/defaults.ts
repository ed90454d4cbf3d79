/** Every default of the client, in one place, with the reason for each. */
import * as Duration from "effect/Duration"

export const defaults = {
  /** The hosted service. */
  baseUrl: "https://fusion-api.oomol.com/v1",
  /** Long enough for a slow submit answer; short enough that a stalled socket never hangs a caller. */
  requestTimeout: Duration.seconds(30),
  /** A download may be large: what is bounded is the time without a byte. */
  downloadIdleTimeout: Duration.seconds(60),
  /** The contract's example polling settings (part 8.5). */
  poll: {
    initialInterval: Duration.seconds(2),
    factor: 1.5,
    maxInterval: Duration.seconds(10),
    jitter: true,
    deadline: Duration.seconds(600),
    progressAware: true
  },
  /** 429s are retried for about a minute; longer waits are the caller's call (the error says when). */
  submitRetry: {
    maxAttempts: 8,
    deadline: Duration.seconds(60),
    initialBackoff: Duration.seconds(1),
    maxBackoff: Duration.seconds(30)
  },
  /** A schema-invalid result body is re-polled this many times in all before `InvalidResponse`. */
  invalidBodyAttempts: 3,
  /** A `completed` body without a valid `downloadURL` is polled this many times in all (one re-poll). */
  invalidCompletedAttempts: 2,
  /** Downloads announced at most this size are read in one piece (see `download`). */
  smallDownloadBytes: 256 * 1024,
  /** `downloadBytes` holds the output in memory: beyond this it fails rather than exhaust memory. */
  maxWholeDownloadBytes: 256 * 1024 * 1024,
  /** How much of an unexpected body errors keep. */
  bodyExcerptChars: 512,
  /** Progress-based polls land this share of the estimated duration after completion (a margin for error). */
  progressMarginShare: 0.01,
  progressMargin: Duration.millis(250)
} as const

export const millis = (input: Duration.DurationInput): number => Duration.toMillis(Duration.decode(input))
