/**
 * Typed errors as sentences a person can act on: what happened, then what to do. One line each
 * (the summary table and the plain output put one reason per line); stack traces never.
 *
 * @since 0.1.0
 */
import type * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type * as PdfTransformError from "@pdf-transform/core/PdfTransformError"
import type { JobError, JournalFailed, OutputFailed } from "@pdf-transform/stream/BatchError"
import type { CliError } from "./CliError.js"
import { short } from "./internal/duration.js"

/**
 * Every error the command explains.
 *
 * @since 0.1.0
 * @category models
 */
export type Explainable =
  | JobError
  | PdfTransformClient.StatusError
  | PdfTransformError.PdfTransformError
  | JournalFailed
  | OutputFailed
  | CliError

/**
 * An error explained: `what` happened, and `todo`, what the person can do about it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Explained {
  readonly what: string
  readonly todo?: string | undefined
}

/**
 * Where the service is, for messages about reaching it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Context {
  readonly service?: string | undefined
}

const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim()

const excerpt = (text: string): string => {
  const line = oneLine(text)
  return line === "" ? "" : `: ${line.length > 160 ? `${line.slice(0, 159)}…` : line}`
}

const rateLimited = (error: PdfTransformError.RateLimited): Explained => {
  const when = error.retryAt === undefined ? undefined : new Date(error.retryAt).toLocaleString()
  switch (error.reason) {
    case "quota_exceeded":
      return {
        what: "The service's quota for this API key is spent",
        todo: when === undefined
          ? "Try again later: the journal resumes where this run stopped"
          : `Try again after ${when}`
      }
    case "concurrency_exceeded":
      return {
        what: `The service kept refusing new tasks while too many were running (${error.attempts} attempts)`,
        todo: "Lower --concurrency, or run the same command again later: the journal resumes"
      }
    default:
      return {
        what: `The service kept refusing submits as too frequent (${error.attempts} attempts)`,
        todo: "Run the same command again later (the journal resumes), or lower --concurrency"
      }
  }
}

const unexpected = (error: PdfTransformError.UnexpectedResponse): Explained => {
  const what = `The service answered HTTP ${error.status} to the ${error.operation}${excerpt(error.bodyExcerpt)}`
  if (error.status === 413) return { what, todo: "The file is larger than the service accepts" }
  if (error.status >= 500) return { what, todo: "The service has a problem: try again later" }
  return { what }
}

const journalVerbs: Record<JournalFailed["operation"], string> = { open: "opened", read: "read", write: "written" }

/**
 * Explains an error; `context.service` names the service in messages about reaching it.
 *
 * @since 0.1.0
 * @category explaining
 */
export const explain = (error: Explainable, context: Context = {}): Explained => {
  const at = context.service === undefined ? "" : ` at ${context.service}`
  switch (error._tag) {
    case "Unauthenticated":
      return {
        what: `The service${at} refused the API key${excerpt(error.message)}`,
        todo: "Check the key given with --api-key or PDF_TRANSFORM_API_KEY"
      }
    case "RateLimited":
      return rateLimited(error)
    case "ConversionFailed":
      return { what: `The service could not convert it${excerpt(error.reason)}` }
    case "PollTimeout": {
      const last = error.lastStatus?.progress === undefined ? "" : ` (at ${Math.round(error.lastStatus.progress)}%)`
      return {
        what: `Still converting after ${short(error.waitedMs)}${last}; the task goes on at the service`,
        todo: "Run the same command again to pick it up, or allow more time with --timeout"
      }
    }
    case "TaskNotFound":
      return {
        what: `The service does not know task ${error.sessionId} (${error.format})${excerpt(error.detail ?? "")}`,
        todo: "It may have expired, or belong to the other format (--to)"
      }
    case "SubmitOutcomeUnknown":
      return {
        what: `The submit was sent and no answer came back (${oneLine(error.reason)}): a task may exist and be billed`,
        todo: "It is not sent again on its own: run again with --resubmit-ambiguous to submit it anyway"
      }
    case "UnexpectedResponse":
      return unexpected(error)
    case "InvalidResponse":
      return {
        what: `The answer to the ${error.operation} does not follow the service's contract: ${oneLine(error.problem)}`,
        todo: "Check that --base-url is the address of a PDF conversion service"
      }
    case "InvalidRequest":
      return { what: `The ${error.operation} request is not valid: ${oneLine(error.problem)}` }
    case "TransportError":
      return {
        what: `Cannot reach the service${at}: ${oneLine(error.reason)}`,
        todo: "Check --base-url and the network, then run the same command again"
      }
    case "DownloadFailed":
      return {
        what: `The output of task ${error.sessionId} could not be downloaded: ${oneLine(error.reason)}`,
        todo: "Run the same command again: the task is done and only its download is repeated"
      }
    case "UploadFailed":
      return {
        what: `The upload of ${error.name} failed${
          error.step === "part" && error.part !== undefined ? ` at part ${error.part}` : ` at its ${error.step} step`
        }${error.status === undefined ? "" : ` (HTTP ${error.status})`} after ${error.attempts} attempt(s): ${
          oneLine(error.reason)
        }`,
        todo: "Run the same command again: nothing was submitted for it"
      }
    case "UploadTooLarge":
      return {
        what: `${error.name} is too large for the service (${error.bytes} bytes${
          error.maxBytes === undefined ? "" : `, the limit is ${error.maxBytes}`
        })`,
        todo: "Split the PDF, or convert it on this machine"
      }
    case "SourceUnreadable":
      return { what: `Cannot read ${error.path}: ${oneLine(error.reason)}` }
    case "UploaderMissing":
      return {
        what: `${error.source} is a local file and this backend has no way to upload it`,
        todo: "Give an http(s) URL of the PDF, or convert on this machine"
      }
    case "OutputFailed":
      return {
        what: `Cannot write ${error.path}: ${oneLine(error.reason)}`,
        todo: "Check that the output folder (--out) is writable and has room"
      }
    case "JournalFailed":
      return {
        what: `The journal ${error.path} cannot be ${journalVerbs[error.operation]}: ${oneLine(error.reason)}`,
        todo: "Check that its folder is writable and has room, or choose another file with --journal"
      }
    case "UsageError":
      return { what: oneLine(error.message) }
    case "BackendFailed":
      return {
        what: oneLine(error.message),
        todo: "Run again with --verbose to see why, or convert through a service with --base-url"
      }
  }
}

/**
 * The explanation as one sentence: `what. todo`.
 *
 * @since 0.1.0
 * @category explaining
 */
export const sentence = (error: Explainable, context: Context = {}): string => {
  const { todo, what } = explain(error, context)
  const end = (text: string) => `${text.replace(/[.\s]+$/, "")}.`
  return todo === undefined ? end(what) : `${end(what)} ${end(todo)}`
}
