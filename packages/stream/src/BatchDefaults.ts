/** The batch's default figures, each with its reason.
 * @since 0.1.0 */
import * as Duration from "effect/Duration"

/** Every default of the batch, with its reason.
 * @since 0.1.0
 * @category constants */
export const defaults = {
  /** A few tasks at once: polite to a service whose limits are unknown until it answers. */
  concurrency: 4,
  /** Downloads are short next to conversions; a few at once keep up with many tasks. */
  downloadConcurrency: 4,
  /** Two uploads at once keep the link busy (each one sends its own parts in parallel) while the memory they take
   * stays bounded: a chunked upload holds its parts in flight, a few MiB each. */
  uploadConcurrency: 2,
  /** Rate limits pass; twenty refusals of one job (about ten minutes of backoff) say they will not. */
  maxSubmitAttempts: 20,
  resubmitAmbiguous: false,
  retryFailed: false,
  /** Five minutes: a restart of the service or a network blip passes within it, and a batch left alone does not sit
   * silent much longer than that when the service is gone for good. */
  maxOutage: Duration.minutes(5)
} as const
