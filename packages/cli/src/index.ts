/**
 * The `pdf-transform` command line, as modules another program can reuse.
 *
 * @since 0.1.0
 */

/**
 * The command tree and its runner.
 *
 * @since 0.1.0
 */
export * as Cli from "./Cli.js"

/**
 * The errors of the command itself.
 *
 * @since 0.1.0
 */
export * as CliError from "./CliError.js"

/**
 * The exit codes and how a batch's is chosen.
 *
 * @since 0.1.0
 */
export * as ExitCode from "./ExitCode.js"

/**
 * Typed errors as sentences a person can act on.
 *
 * @since 0.1.0
 */
export * as Messages from "./Messages.js"
