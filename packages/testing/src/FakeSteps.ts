/** The scripted answers of `FakeServer`: status timelines, submit, download and part steps, faults, raw answers.
 * @since 0.1.0 */
import type * as Duration from "effect/Duration"

/** The output of a task: bytes, or text sent as UTF-8.
 * @since 0.1.0
 * @category models */
export type Output = Uint8Array | string

/** A task still converting: HTTP 200, or 202 as the hosted service answers.
 * @since 0.1.0
 * @category steps */
export interface ProcessingStep {
  readonly state: "processing"
  readonly progress?: number | undefined
  readonly httpStatus?: 200 | 202 | undefined
}

/** A finished task; the fake fills in `data.downloadURL`. Progress defaults to 100.
 * @since 0.1.0
 * @category steps */
export interface CompletedStep {
  readonly state: "completed"
  readonly progress?: number | undefined
}

/** A failed conversion: HTTP 200 with `success: false` and the reason.
 * @since 0.1.0
 * @category steps */
export interface FailedStep {
  readonly state: "failed"
  readonly error: string
  readonly progress?: number | undefined
}

/** Any answer the contract does not describe, sent after the credential has been checked.
 * @since 0.1.0
 * @category steps */
export interface RawStep {
  readonly state: "raw"
  readonly response: RawResponse
}

/** A fault in place of the answer (see {@link Fault}).
 * @since 0.1.0
 * @category steps */
export interface FaultStep {
  readonly state: "fault"
  readonly fault: Fault
}

/** What one result poll answers.
 * @since 0.1.0
 * @category steps */
export type StatusStep = ProcessingStep | CompletedStep | FailedStep | RawStep | FaultStep

/** The statuses of a task over time.
 * @since 0.1.0
 * @category steps */
export type Timeline = ReadonlyArray<{ readonly after: Duration.DurationInput; readonly status: StatusStep }>

/** An HTTP answer given as is. A string body is sent as UTF-8; no content type is added.
 * @since 0.1.0
 * @category steps */
export interface RawResponse {
  readonly status: number
  readonly headers?: Record<string, string> | undefined
  readonly body?: string | Uint8Array | undefined
}

/** A failure in place of an answer. Two kinds.
 * @since 0.1.0
 * @category steps */
export type Fault =
  /** HTTP 503 (or `status`) with an HTML body, `text/html`. */
  | { readonly _tag: "ServerError"; readonly status?: number | undefined }
  /** HTTP 200, `application/json`, a body that fails the Schema: `{"success":"yes"}`. */
  | { readonly _tag: "InvalidBody" }
  /** HTTP 200, `application/json`, body `<html>oops`. */
  | { readonly _tag: "NotJson" }
  /** `RequestError` (Transport), cause an `Error` with code `ECONNREFUSED`: nothing reached the server. */
  | { readonly _tag: "ResetBeforeSend" }
  /** `RequestError` (Transport), cause an `Error` with code `ECONNRESET`: handled, answer lost. */
  | { readonly _tag: "ResetAfterSend" }
  /** The correct status and headers at once, the body only after `delay` of Clock time. */
  | { readonly _tag: "SlowBody"; readonly delay: Duration.DurationInput }
  /** Any answer, from something in front of the server. */
  | { readonly _tag: "Raw"; readonly response: RawResponse }

/** What one submit request gets.
 * @since 0.1.0
 * @category steps */
export type SubmitStep =
  /** Creates the task (with this timeline, `sessionId` and output when given) and answers 200. */
  | {
    readonly _tag: "Accept"
    readonly timeline?: Timeline | undefined
    readonly sessionId?: string | undefined
    readonly output?: Output | undefined
  }
  /** HTTP 429; no task is created. */
  | {
    readonly _tag: "RateLimited"
    readonly reason?: string | undefined
    readonly retryAfterMs?: unknown
    readonly retryAfter?: string | undefined
    readonly date?: string | undefined
    readonly policy?: string | undefined
    readonly state?: string | undefined
    readonly body?: unknown
  }
  | { readonly _tag: "Fault"; readonly fault: Fault }

/** What one download request gets.
 * @since 0.1.0
 * @category steps */
export type DownloadStep =
  /** HTTP 200 whose `Content-Length` is the full size but whose body ends after half of it. */
  | { readonly _tag: "Truncated" }
  /** HTTP 410: the signed URL has expired. */
  | { readonly _tag: "Expired" }
  /** This status with a short `text/plain` body. */
  | { readonly _tag: "Status"; readonly status: number }
  | { readonly _tag: "Fault"; readonly fault: Fault }

/** What one `PUT` of a part gets instead of 200; `ServerError`, `ResetBeforeSend` and `Raw` store nothing.
 * @since 0.1.0
 * @category steps */
export type PartStep = { readonly _tag: "Fault"; readonly fault: Fault } | {
  readonly _tag: "ResetMidPart"
  readonly fault?: undefined
}
