/** The errors of the batch package itself; the client's errors (`PdfTransformError`) reach the caller unchanged.
 * @since 0.1.0 */
import type * as PdfTransformClient from "@pdf-transform/core/PdfTransformClient"
import type * as PdfTransformError from "@pdf-transform/core/PdfTransformError"
import type * as Uploader from "@pdf-transform/core/Uploader"
import * as Schema from "effect/Schema"

/** A local source that cannot be read (missing, unreadable, not a file).
 * @since 0.1.0
 * @category errors */
export class SourceUnreadable extends Schema.TaggedError<SourceUnreadable>("@pdf-transform/stream/SourceUnreadable")(
  "SourceUnreadable",
  { path: Schema.String, reason: Schema.String }
) {
  get message(): string {
    return `cannot read ${this.path}: ${this.reason}`
  }
}

/** A local file or bytes to convert, and no `Uploader` in the context to turn them into a URL.
 * @since 0.1.0
 * @category errors */
export class UploaderMissing extends Schema.TaggedError<UploaderMissing>("@pdf-transform/stream/UploaderMissing")(
  "UploaderMissing",
  { source: Schema.String }
) {
  get message(): string {
    return `${this.source} is not a URL and no Uploader is provided (provide a layer of core's Uploader tag)`
  }
}

/** The output could not be written; nothing was left at `path`.
 * @since 0.1.0
 * @category errors */
export class OutputFailed extends Schema.TaggedError<OutputFailed>("@pdf-transform/stream/OutputFailed")(
  "OutputFailed",
  { path: Schema.String, reason: Schema.String }
) {
  get message(): string {
    return `cannot write ${this.path}: ${this.reason}`
  }
}

/** The journal could not be read or written; the batch stops at once, as it can no longer avoid double submits.
 * @since 0.1.0
 * @category errors */
export class JournalFailed extends Schema.TaggedError<JournalFailed>("@pdf-transform/stream/JournalFailed")(
  "JournalFailed",
  { path: Schema.String, operation: Schema.Literal("open", "read", "write"), reason: Schema.String }
) {
  get message(): string {
    return `journal ${this.path}: cannot ${this.operation}: ${this.reason}`
  }
}

/** Why one job failed: the client's errors, the upload's, or the batch's own.
 * @since 0.1.0
 * @category errors */
export type JobError =
  | PdfTransformClient.SubmitError
  | PdfTransformClient.AwaitError
  | PdfTransformError.DownloadFailed
  | Uploader.UploadError
  | SourceUnreadable
  | UploaderMissing
  | OutputFailed
