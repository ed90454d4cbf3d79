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
  /** Two uploads keep the link busy (each sends parts in parallel) and bound the memory of parts in flight. */
  uploadConcurrency: 2,
  /** Rate limits pass; this many refusals of one job say they will not. */
  maxSubmitAttempts: 20,
  resubmitAmbiguous: false,
  retryFailed: false,
  /** A restart or a network blip passes within it; a service gone for good is not waited on much longer. */
  maxOutage: Duration.minutes(5)
} as const
