/**
 * The errors of the command itself, before or around a batch: each one is a sentence a person can
 * act on, and each maps to an exit code.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * The command line cannot run as written (a missing file, an option that needs another, no PDF
 * found). Exit code 2.
 *
 * @since 0.1.0
 * @category errors
 */
export class UsageError extends Schema.TaggedError<UsageError>("@pdf-transform/cli/UsageError")("UsageError", {
  message: Schema.String
}) {}

/**
 * The embedded reference server or the local converter could not start. Exit code 1.
 *
 * @since 0.1.0
 * @category errors
 */
export class BackendFailed extends Schema.TaggedError<BackendFailed>("@pdf-transform/cli/BackendFailed")(
  "BackendFailed",
  { reason: Schema.String }
) {
  get message(): string {
    return `The local conversion server could not start: ${this.reason}`
  }
}

/**
 * Every error of the command.
 *
 * @since 0.1.0
 * @category errors
 */
export type CliError = UsageError | BackendFailed
