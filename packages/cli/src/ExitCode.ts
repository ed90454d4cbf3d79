/**
 * The exit codes of `pdf-transform`, and the one function that picks a batch's.
 *
 * @since 0.1.0
 */
import type * as Batch from "@pdf-transform/stream/Batch"
import type { CliError } from "./CliError.js"

/**
 * The exit codes, as the README's table explains them (`interrupted` is 128 + SIGINT, as shells expect).
 *
 * @since 0.1.0
 * @category constants
 */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  unauthenticated: 3,
  limited: 4,
  unreachable: 5,
  interrupted: 130
} as const

/**
 * @since 0.1.0
 * @category models
 */
export type ExitCode = typeof ExitCode[keyof typeof ExitCode]

/**
 * How a run ended besides its summary: whether the person asked it to stop.
 *
 * @since 0.1.0
 * @category models
 */
export interface Ending {
  /** Ctrl-C was pressed (once or twice). */
  readonly stoppedByUser: boolean
  /** Jobs that never reached a final event (the batch was interrupted). */
  readonly unfinished: number
}

const isTag = (tag: string) => (error: { readonly _tag: string } | undefined): boolean => error?._tag === tag

/**
 * The exit code of a batch: the refused key first (nothing can work until it is fixed), then a
 * spent quota or rate limit, then a service that cannot be reached, then the person's Ctrl-C, then
 * failures of single documents.
 *
 * @since 0.1.0
 * @category exit codes
 */
export const ofBatch = (summary: Batch.Summary, ending: Ending): ExitCode => {
  const stop = summary.stopped?.stop
  const errors = [
    ...summary.failed.map((event) => event.error),
    stop !== undefined && "error" in stop ? stop.error : undefined
  ]
  if (errors.some(isTag("Unauthenticated"))) return ExitCode.unauthenticated
  if (errors.some(isTag("RateLimited"))) return ExitCode.limited
  if (stop?._tag === "Unreachable") return ExitCode.unreachable
  const incomplete = summary.failed.length + summary.ambiguous.length + summary.notAttempted.length +
    ending.unfinished +
    summary.skipped.filter((event) => event.previous === "failed").length
  if (ending.stoppedByUser && incomplete > 0) return ExitCode.interrupted
  return incomplete > 0 ? ExitCode.failed : ExitCode.ok
}

/**
 * The exit code of an error of the command itself.
 *
 * @since 0.1.0
 * @category exit codes
 */
export const ofError = (error: CliError | { readonly _tag: string }): ExitCode => {
  switch (error._tag) {
    case "UsageError":
      return ExitCode.usage
    case "Unauthenticated":
      return ExitCode.unauthenticated
    case "RateLimited":
      return ExitCode.limited
    case "TransportError":
      // Nothing was sent: no connection could be made.
      return "sent" in error && error.sent === false ? ExitCode.unreachable : ExitCode.failed
    default:
      return ExitCode.failed
  }
}
