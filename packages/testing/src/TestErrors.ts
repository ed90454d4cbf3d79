/** Short constructors of the client's errors for tests: every field a test rarely cares about has a plausible default.
 * @since 0.1.0 */
import type * as Contract from "@pdf-transform/core/Contract"
import * as PdfTransformError from "@pdf-transform/core/PdfTransformError"
import * as RateLimit from "@pdf-transform/core/RateLimit"
import * as Duration from "effect/Duration"

/** A 429 on a submit: `RateLimited` after one attempt, with the delay and RateLimit headers given.
 * @since 0.1.0
 * @category constructors */
export const rateLimited = (options: {
  readonly reason?: string | undefined
  readonly retryAfter?: Duration.DurationInput | undefined
  readonly format?: Contract.Format | undefined
  readonly attempts?: number | undefined
  readonly policy?: string | undefined
  readonly state?: string | undefined
} = {}): PdfTransformError.RateLimited =>
  new PdfTransformError.RateLimited({
    format: options.format ?? "markdown",
    attempts: options.attempts ?? 1,
    rateLimit: RateLimit.parse({ policy: options.policy, state: options.state }),
    ...(options.reason === undefined ? {} : { reason: options.reason }),
    ...(options.retryAfter === undefined ?
      {} :
      { retryAfterMs: Duration.toMillis(Duration.decode(options.retryAfter)) })
  })

/** A 401: the key is missing or invalid.
 * @since 0.1.0
 * @category constructors */
export const unauthenticated = (options: {
  readonly operation?: PdfTransformError.Operation | undefined
  readonly message?: string | undefined
} = {}): PdfTransformError.Unauthenticated =>
  new PdfTransformError.Unauthenticated({
    operation: options.operation ?? "submit",
    message: options.message ?? "Invalid API key",
    resolution: "Send the header `Authorization: Bearer <API key>` with a key from the console",
    challenge: "Bearer realm=\"pdf-transform\""
  })

/** A submit that was sent and got no answer: a task may exist.
 * @since 0.1.0
 * @category constructors */
export const submitOutcomeUnknown = (options: {
  readonly format?: Contract.Format | undefined
  readonly reason?: string | undefined
} = {}): PdfTransformError.SubmitOutcomeUnknown =>
  new PdfTransformError.SubmitOutcomeUnknown({
    format: options.format ?? "markdown",
    reason: options.reason ?? "read ECONNRESET"
  })

/** A status the contract does not name for the operation (a 5xx by default), with a body excerpt.
 * @since 0.1.0
 * @category constructors */
export const unexpectedResponse = (options: {
  readonly operation?: PdfTransformError.Operation | undefined
  readonly status?: number | undefined
  readonly body?: string | undefined
  readonly contentType?: string | undefined
} = {}): PdfTransformError.UnexpectedResponse =>
  new PdfTransformError.UnexpectedResponse({
    operation: options.operation ?? "submit",
    status: options.status ?? 503,
    bodyExcerpt: options.body ?? "Service Temporarily Unavailable",
    contentType: options.contentType ?? "text/html"
  })
