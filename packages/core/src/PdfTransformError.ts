/** The typed errors of the client: each carries what a caller needs to decide what to do next.
 * @since 0.1.0 */
import * as Schema from "effect/Schema"
import { Format, SessionId } from "./Contract.js"
import { RateLimitInfo } from "./RateLimit.js"

/** Which client operation an error comes from.
 * @since 0.1.0
 * @category models */
export const Operation = Schema.Literal("submit", "status", "download", "upload")

/** @since 0.1.0
 * @category models */
export type Operation = typeof Operation.Type

/** A snapshot of the last status seen while polling, kept on errors so that no task is lost.
 * @since 0.1.0
 * @category models */
export const LastStatus = Schema.Struct({
  state: Schema.String,
  progress: Schema.optional(Schema.Number)
})

/** @since 0.1.0
 * @category models */
export type LastStatus = typeof LastStatus.Type

/** 401: the credential is missing or invalid. Never retried.
 * @since 0.1.0
 * @category errors */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>("@pdf-transform/core/Unauthenticated")(
  "Unauthenticated",
  {
    operation: Operation,
    /** The server's explanation. */
    message: Schema.String,
    /** How to authenticate, from the server. */
    resolution: Schema.String,
    /** The `WWW-Authenticate` bearer challenge, when sent. */
    challenge: Schema.optional(Schema.String)
  }
) {}

/** 429 on a submit, no task created: the delay asked for (validated, capped) and the policies.
 * @since 0.1.0
 * @category errors */
export class RateLimited extends Schema.TaggedError<RateLimited>("@pdf-transform/core/RateLimited")("RateLimited", {
  format: Format,
  /** `rate_exceeded`, `quota_exceeded`, `concurrency_exceeded`, or another string the server sent. */
  reason: Schema.optional(Schema.String),
  /** The delay before a retry may succeed, in milliseconds, when the server said. */
  retryAfterMs: Schema.optional(Schema.Number),
  /** Epoch milliseconds at which a retry may succeed, when known. */
  retryAt: Schema.optional(Schema.Number),
  /** Submit attempts made before giving up. */
  attempts: Schema.Number,
  rateLimit: RateLimitInfo
}) {
  get message(): string {
    const after = this.retryAfterMs === undefined ? "" : `; retry after ${Math.ceil(this.retryAfterMs / 1000)} s`
    return `Rate limited (${this.reason ?? "no reason given"}) after ${this.attempts} attempt(s)${after}`
  }
}

/** The task ended as `failed`. The reason is the server's free text.
 * @since 0.1.0
 * @category errors */
export class ConversionFailed
  extends Schema.TaggedError<ConversionFailed>("@pdf-transform/core/ConversionFailed")("ConversionFailed", {
    format: Format,
    sessionId: SessionId,
    reason: Schema.String,
    /** The highest progress seen, if any. */
    progress: Schema.optional(Schema.Number)
  })
{
  get message(): string {
    return `Conversion ${this.sessionId} (${this.format}) failed: ${this.reason}`
  }
}

/** The deadline passed while the task was still processing. The task is not lost: resume with the sessionId.
 * @since 0.1.0
 * @category errors */
export class PollTimeout extends Schema.TaggedError<PollTimeout>("@pdf-transform/core/PollTimeout")("PollTimeout", {
  format: Format,
  sessionId: SessionId,
  waitedMs: Schema.Number,
  lastStatus: Schema.optional(LastStatus)
}) {
  get message(): string {
    const last = this.lastStatus
      ? ` (last state ${this.lastStatus.state}${
        this.lastStatus.progress === undefined ? "" : `, progress ${this.lastStatus.progress}`
      })`
      : ""
    return `Task ${this.sessionId} (${this.format}) not finished after ${
      Math.round(this.waitedMs / 1000)
    } s${last}; it can be resumed`
  }
}

/** 404 on a result: the id is unknown, expired, or belongs to the other format. Terminal.
 * @since 0.1.0
 * @category errors */
export class TaskNotFound extends Schema.TaggedError<TaskNotFound>("@pdf-transform/core/TaskNotFound")("TaskNotFound", {
  format: Format,
  sessionId: SessionId,
  detail: Schema.optional(Schema.String)
}) {
  get message(): string {
    return `Task ${this.sessionId} (${this.format}) not found${this.detail ? `: ${this.detail}` : ""}`
  }
}

/** A submit was sent and no usable answer came: a task may exist, so it is never retried blindly.
 * @since 0.1.0
 * @category errors */
export class SubmitOutcomeUnknown
  extends Schema.TaggedError<SubmitOutcomeUnknown>("@pdf-transform/core/SubmitOutcomeUnknown")("SubmitOutcomeUnknown", {
    format: Format,
    reason: Schema.String,
    cause: Schema.optional(Schema.Defect)
  })
{
  get message(): string {
    return `Submit (${this.format}) was sent but its outcome is unknown: ${this.reason}. A task may exist; not retried`
  }
}

/** A status the contract does not name for this operation (5xx, 402, ...). The body is kept.
 * @since 0.1.0
 * @category errors */
export class UnexpectedResponse
  extends Schema.TaggedError<UnexpectedResponse>("@pdf-transform/core/UnexpectedResponse")("UnexpectedResponse", {
    operation: Operation,
    status: Schema.Number,
    contentType: Schema.optional(Schema.String),
    /** The first bytes of the body, as text. */
    bodyExcerpt: Schema.String,
    /** A delay the server asked for (Retry-After), validated and capped. */
    retryAfterMs: Schema.optional(Schema.Number)
  })
{
  get message(): string {
    return `Unexpected HTTP ${this.status} on ${this.operation} (${this.contentType ?? "no content type"}): ${
      this.bodyExcerpt.slice(0, 200)
    }`
  }
}

/** A 2xx answer whose body does not match the contract's Schema.
 * @since 0.1.0
 * @category errors */
export class InvalidResponse
  extends Schema.TaggedError<InvalidResponse>("@pdf-transform/core/InvalidResponse")("InvalidResponse", {
    operation: Operation,
    status: Schema.Number,
    /** What is wrong, from the Schema decoder. */
    problem: Schema.String,
    bodyExcerpt: Schema.String,
    /** The contract state the body announced, when it named one (`completed` without a valid `downloadURL`). */
    claimedState: Schema.optional(Schema.String)
  })
{
  get message(): string {
    return `Invalid ${this.operation} response (HTTP ${this.status}): ${this.problem}`
  }
}

/** The request failed validation before anything was sent.
 * @since 0.1.0
 * @category errors */
export class InvalidRequest
  extends Schema.TaggedError<InvalidRequest>("@pdf-transform/core/InvalidRequest")("InvalidRequest", {
    operation: Operation,
    problem: Schema.String
  })
{
  get message(): string {
    return `Invalid ${this.operation} request: ${this.problem}`
  }
}

/** The network failed (refused, reset, timed out) where retrying is safe or already exhausted.
 * @since 0.1.0
 * @category errors */
export class TransportError
  extends Schema.TaggedError<TransportError>("@pdf-transform/core/TransportError")("TransportError", {
    operation: Operation,
    reason: Schema.String,
    /** Whether the request is known not to have reached the server. */
    sent: Schema.Boolean,
    cause: Schema.optional(Schema.Defect)
  })
{
  get message(): string {
    return `Transport error on ${this.operation}${this.sent ? "" : " (nothing was sent)"}: ${this.reason}`
  }
}

/** A download did not deliver the whole file; a short file is never a success.
 * @since 0.1.0
 * @category errors */
export class DownloadFailed
  extends Schema.TaggedError<DownloadFailed>("@pdf-transform/core/DownloadFailed")("DownloadFailed", {
    sessionId: SessionId,
    reason: Schema.String,
    status: Schema.optional(Schema.Number),
    expectedBytes: Schema.optional(Schema.Number),
    receivedBytes: Schema.optional(Schema.Number),
    cause: Schema.optional(Schema.Defect)
  })
{
  get message(): string {
    return `Download of ${this.sessionId} failed: ${this.reason}`
  }
}

/** Every error of this package.
 * @since 0.1.0
 * @category errors */
export type PdfTransformError =
  | Unauthenticated
  | RateLimited
  | ConversionFailed
  | PollTimeout
  | TaskNotFound
  | SubmitOutcomeUnknown
  | UnexpectedResponse
  | InvalidResponse
  | InvalidRequest
  | TransportError
  | DownloadFailed
