/** Batch conversion of whole PDF collections.
 * @since 0.1.0 */

/** The batch pipeline: `convert` (a stream of events), `run` (a summary).
 * @since 0.1.0 */
export * as Batch from "./Batch.js"

/** The batch's default figures, in a module that loads nothing of the batch (for command lines).
 * @since 0.1.0 */
export * as BatchDefaults from "./BatchDefaults.js"

/** The errors of the batch package.
 * @since 0.1.0 */
export * as BatchError from "./BatchError.js"

/** What a batch reports as it runs.
 * @since 0.1.0 */
export * as BatchEvent from "./BatchEvent.js"

/** The jobs of a batch.
 * @since 0.1.0 */
export * as Job from "./Job.js"

/** The crash-safe record of a batch.
 * @since 0.1.0 */
export * as Journal from "./Journal.js"

/** Writing outputs whole or not at all.
 * @since 0.1.0 */
export * as Output from "./Output.js"
