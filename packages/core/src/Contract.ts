/** The v1 contract as Schemas: one source for the client, the reference server and the fakes.
 * @since 0.1.0 */
import * as Schema from "effect/Schema"

/** The two output formats; each has its own submit and result endpoints.
 * @since 0.1.0
 * @category formats */
export const Format = Schema.Literal("markdown", "epub")

/** @since 0.1.0
 * @category formats */
export type Format = typeof Format.Type

/** The task identifier returned by a submit (`sessionID`). Only known to be a non-empty string.
 * @since 0.1.0
 * @category identifiers */
export const SessionId = Schema.NonEmptyString.pipe(Schema.brand("@pdf-transform/core/SessionId"))

/** @since 0.1.0
 * @category identifiers */
export type SessionId = typeof SessionId.Type

/** The only conversion model of v1.
 * @since 0.1.0
 * @category request */
export const Model = Schema.Literal("gundam")

/** An absolute http(s) URL.
 * @since 0.1.0
 * @category request */
export const HttpUrl = Schema.String.pipe(
  Schema.filter((s) => {
    if (!URL.canParse(s)) return "must be an absolute URL"
    const protocol = new URL(s).protocol
    return protocol === "http:" || protocol === "https:" || `must be an http(s) URL, not ${protocol}`
  }, { identifier: "HttpUrl" })
)

/** A submit's `pdfURL`: an absolute http(s) URL, or a chunked upload's `cache://` URL.
 * @since 0.1.0
 * @category request */
export const PdfUrl = Schema.String.pipe(
  Schema.filter((s) => {
    if (!URL.canParse(s)) return "must be an absolute URL"
    const url = new URL(s)
    if (url.protocol === "cache:") return url.host !== "" || "must name the uploaded file (cache://<name>.pdf)"
    return url.protocol === "http:" || url.protocol === "https:" ||
      `must be an http(s) URL or the cache:// URL of an upload, not ${url.protocol}`
  }, { identifier: "PdfUrl" })
)

/** The body of both submits (contract 2.1); decoding fills the defaults.
 * @since 0.1.0
 * @category request */
export const ConversionRequest = Schema.Struct({
  pdfURL: PdfUrl,
  model: Schema.optionalWith(Model, { default: () => "gundam" as const }),
  filename: Schema.optional(Schema.String),
  ignore_pdf_errors: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  ignore_ocr_errors: Schema.optionalWith(Schema.Boolean, { default: () => true })
}).annotations({ identifier: "ConversionRequest" })

/** A conversion request with its defaults applied.
 * @since 0.1.0
 * @category request */
export type ConversionRequest = typeof ConversionRequest.Type

/** What a caller writes: only `pdfURL` is required.
 * @since 0.1.0
 * @category request */
export type ConversionRequestInput = typeof ConversionRequest.Encoded

/** The success body of a submit (contract 2.2).
 * @since 0.1.0
 * @category responses */
export const SubmittedTask = Schema.Struct({
  success: Schema.Literal(true),
  sessionID: SessionId
}).annotations({ identifier: "SubmittedTask" })

/** @since 0.1.0
 * @category responses */
export type SubmittedTask = typeof SubmittedTask.Type

/** What every status answer holds; each state adds its own fields. */
const statusFields = <const Success extends boolean, const State extends string>(success: Success, state: State) => ({
  success: Schema.Literal(success),
  state: Schema.Literal(state),
  progress: Schema.optional(Schema.Number)
})

/** A task still converting (contract 2.3).
 * @since 0.1.0
 * @category responses */
export const ProcessingStatus = Schema.Struct(statusFields(true, "processing")).annotations({
  identifier: "ProcessingStatus"
})

/** @since 0.1.0
 * @category responses */
export type ProcessingStatus = typeof ProcessingStatus.Type

/** A finished task; `data.downloadURL` is where the output is fetched (contract 2.3).
 * @since 0.1.0
 * @category responses */
export const CompletedStatus = Schema.Struct({
  ...statusFields(true, "completed"),
  data: Schema.Struct({ downloadURL: HttpUrl })
}).annotations({ identifier: "CompletedStatus" })

/** @since 0.1.0
 * @category responses */
export type CompletedStatus = typeof CompletedStatus.Type

/** A failed conversion, reported with HTTP 200 and `success: false` (contract 2.3, 7.3).
 * @since 0.1.0
 * @category responses */
export const FailedStatus = Schema.Struct({
  ...statusFields(false, "failed"),
  error: Schema.String
}).annotations({ identifier: "FailedStatus" })

/** @since 0.1.0
 * @category responses */
export type FailedStatus = typeof FailedStatus.Type

/** The success body of a result operation: exactly one of three shapes, told apart by `state`.
 * @since 0.1.0
 * @category responses */
export const TaskStatus = Schema.Union(ProcessingStatus, CompletedStatus, FailedStatus).annotations({
  identifier: "TaskStatus"
})

/** @since 0.1.0
 * @category responses */
export type TaskStatus = typeof TaskStatus.Type

/** The task states of the contract.
 * @since 0.1.0
 * @category responses */
export type TaskState = TaskStatus["state"]

/** The 404 body for an unknown or expired task id (not in the contract; docs/contract.md).
 * @since 0.1.0
 * @category errors */
export const NotFoundBody = Schema.Struct({
  success: Schema.Literal(false),
  state: Schema.Literal("not_found"),
  error: Schema.String
}).annotations({ identifier: "NotFoundBody" })

/** @since 0.1.0
 * @category errors */
export type NotFoundBody = typeof NotFoundBody.Type

/** The 401 body (contract 7.1).
 * @since 0.1.0
 * @category errors */
export const UnauthenticatedBody = Schema.Struct({
  error: Schema.String,
  code: Schema.Literal("UNAUTHENTICATED"),
  message: Schema.String,
  resolution: Schema.String
}).annotations({ identifier: "UnauthenticatedBody" })

/** @since 0.1.0
 * @category errors */
export type UnauthenticatedBody = typeof UnauthenticatedBody.Type

/** Why a submit was rejected with 429 (contract 7.2).
 * @since 0.1.0
 * @category errors */
export const RateLimitReason = Schema.Literal("rate_exceeded", "quota_exceeded", "concurrency_exceeded")

/** @since 0.1.0
 * @category errors */
export type RateLimitReason = typeof RateLimitReason.Type

/** The 429 body (contract 7.2).
 * @since 0.1.0
 * @category errors */
export const RateLimitedBody = Schema.Struct({
  error: Schema.Literal("rate_limited"),
  reason: Schema.optional(RateLimitReason),
  retryAfterMs: Schema.optional(Schema.Number.pipe(Schema.nonNegative()))
}).annotations({ identifier: "RateLimitedBody" })

/** @since 0.1.0
 * @category errors */
export type RateLimitedBody = typeof RateLimitedBody.Type

/** The endpoint paths, relative to a base URL that already ends in `/v1`.
 * @since 0.1.0
 * @category endpoints */
export const paths = {
  markdownSubmit: "/pdf-transform-markdown/submit",
  epubSubmit: "/pdf-transform-epub/submit",
  markdownResult: "/pdf-transform-markdown/result/{taskId}",
  epubResult: "/pdf-transform-epub/result/{taskId}"
} as const

/** The submit path of a format.
 * @since 0.1.0
 * @category endpoints */
export const submitPath = (format: Format): string => format === "markdown" ? paths.markdownSubmit : paths.epubSubmit

/** The result path of a task; the id is percent-encoded so it can never change the path.
 * @since 0.1.0
 * @category endpoints */
export const resultPath = (format: Format, sessionId: string): string =>
  (format === "markdown" ? paths.markdownResult : paths.epubResult).replace("{taskId}", encodeURIComponent(sessionId))

/** The version prefix that every base URL ends in.
 * @since 0.1.0
 * @category endpoints */
export const versionPrefix = "/v1"
