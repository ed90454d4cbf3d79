/**
 * Batch events as text: one plain line per event (pipes, CI logs), the lasting lines the live view
 * prints above itself (a document's end), and one JSON object per event for scripts.
 */
import type { BatchEvent } from "@pdf-transform/stream/BatchEvent"
import * as Messages from "../Messages.js"
import type { Style } from "./view/style.js"
import { printable } from "./view/width.js"

/** How paths and errors are shown. */
export interface Display {
  /** A path as the person reads it (relative to the working folder when inside it). */
  readonly path: (path: string) => string
  readonly messages: Messages.Context
}

/** Sizes in SI units, as file managers show them: `812 B`, `84.0 kB`, `1.2 MB`. */
export const bytes = (count: number): string => {
  if (count < 1_000) return `${count} B`
  const units = ["kB", "MB", "GB", "TB"]
  let value = count / 1_000
  let unit = 0
  while (value >= 1_000 && unit < units.length - 1) {
    value /= 1_000
    unit++
  }
  return `${value.toFixed(1)} ${units[unit]}`
}

const name = (event: { readonly job: { readonly name: string } }, display: Display) =>
  printable(display.path(event.job.name))

const skippedText = (event: Extract<BatchEvent, { _tag: "Skipped" }>, display: Display): string => {
  switch (event.previous) {
    case "completed":
      return `already converted${event.output === undefined ? "" : ` (${display.path(event.output)})`}`
    case "failed":
      return `failed in an earlier run${
        event.reason === undefined ? "" : `: ${event.reason}`
      } (--retry-failed tries again)`
    case "duplicate":
      return event.reason ?? "a duplicate"
  }
}

/**
 * The line of an event that ends a document, or of the batch's own news; none for the others, nor
 * for documents not started (the stop's line and the total say it once).
 */
export const lasting = (event: BatchEvent, display: Display, style: Style): string | undefined => {
  switch (event._tag) {
    case "Completed":
      return `${style.green("✓")} ${name(event, display)} → ${display.path(event.output)} ${
        style.dim(`(${bytes(event.bytes)})`)
      }`
    case "Failed":
      return `${style.red("✗")} ${name(event, display)}: ${Messages.sentence(event.error, display.messages)}`
    case "Skipped":
      return `${style.dim("=")} ${name(event, display)}: ${skippedText(event, display)}`
    case "Ambiguous":
      return `${style.yellow("?")} ${
        name(event, display)
      }: ${event.reason}; not submitted again (--resubmit-ambiguous does)`
    case "Stopped":
      return style.yellow(
        event.stop._tag === "Unreachable" ?
          `Stopped (${event.reason}): nothing more can be done now; submitted tasks stay in the journal, and ` +
          `the same command resumes them.` :
          `Stopped (${event.reason}): no new documents start; the running ones are followed to their end.`
      )
    case "ServiceReachable":
      return style.green(`The service answers again (unreachable for ${seconds(event.downMs)}).`)
    case "JournalProblem":
      return style.yellow(`Journal line ${event.line} cannot be read (${event.problem}); it is kept and ignored.`)
    default:
      return undefined
  }
}

const tags: Record<BatchEvent["_tag"], string> = {
  Queued: "queued",
  Uploading: "uploading",
  Uploaded: "uploaded",
  Submitted: "submitted",
  Progress: "progress",
  Completed: "converted",
  Failed: "failed",
  Skipped: "skipped",
  Ambiguous: "ambiguous",
  NotAttempted: "not-started",
  Stopped: "stopped",
  ServiceUnreachable: "unreachable",
  ServiceReachable: "reachable",
  JournalProblem: "journal"
}

/** One plain line per event: a fixed word first, so logs can be searched (`grep '^failed'`). */
export const plain = (event: BatchEvent, display: Display): string => {
  const tag = tags[event._tag].padEnd(11)
  switch (event._tag) {
    case "Queued":
      return `${tag} ${name(event, display)}`
    case "Uploading":
      return `${tag} ${name(event, display)} ${bytes(event.sent)} of ${bytes(event.total)}`
    case "Uploaded":
      return `${tag} ${name(event, display)} (${bytes(event.bytes)})`
    case "Submitted":
      return `${event.resumed ? "resumed".padEnd(11) : tag} ${name(event, display)} (task ${event.sessionId})`
    case "Progress":
      return `${tag} ${name(event, display)} ${Math.floor(event.progress)}%`
    case "Completed":
      return `${tag} ${name(event, display)} -> ${display.path(event.output)} (${bytes(event.bytes)})`
    case "Failed":
      return `${tag} ${name(event, display)}: ${Messages.sentence(event.error, display.messages)}`
    case "Skipped":
      return `${tag} ${name(event, display)}: ${skippedText(event, display)}`
    case "Ambiguous":
      return `${tag} ${name(event, display)}: ${event.reason}; not submitted again (--resubmit-ambiguous does)`
    case "NotAttempted":
      return `${tag} ${name(event, display)}: ${event.reason}`
    case "Stopped":
      return `${tag} ${event.reason}`
    case "ServiceUnreachable":
      return `${tag} ${unreachable(event.error.reason, event.retryInMs)}`
    case "ServiceReachable":
      return `${tag} after ${seconds(event.downMs)}`
    case "JournalProblem":
      return `${tag} line ${event.line}: ${event.problem}`
  }
}

/** Whole seconds, at least one: `8 s`. */
export const seconds = (ms: number): string => `${Math.max(1, Math.round(ms / 1_000))} s`

/** The live view's and the plain line's words for a service that cannot be reached. */
export const unreachable = (reason: string, retryInMs: number | undefined): string =>
  `service unreachable (${reason})${retryInMs === undefined ? "" : `, next try in ${seconds(retryInMs)}`}`

/** One JSON object per event; errors as their tag and the sentence a person would read. */
export const json = (event: BatchEvent, display: Display): Record<string, unknown> => {
  switch (event._tag) {
    case "Stopped": {
      const stop = event.stop
      return {
        event: event._tag,
        reason: event.reason,
        stop: stop._tag,
        ...("error" in stop ?
          { error: { tag: stop.error._tag, message: Messages.sentence(stop.error, display.messages) } } :
          {})
      }
    }
    case "ServiceUnreachable":
      return {
        event: event._tag,
        reason: event.error.reason,
        since: event.since,
        answeredBefore: event.answeredBefore,
        ...(event.retryInMs === undefined ? {} : { retryInMs: event.retryInMs })
      }
    case "ServiceReachable":
      return { event: event._tag, downMs: event.downMs }
    case "JournalProblem":
      return { event: event._tag, line: event.line, problem: event.problem }
    case "Failed": {
      const { _tag, error, job, ...rest } = event
      return {
        event: _tag,
        ...job,
        ...rest,
        error: { tag: error._tag, message: Messages.sentence(error, display.messages) }
      }
    }
    default: {
      const { _tag, job, ...rest } = event
      return { event: _tag, ...job, ...rest }
    }
  }
}
