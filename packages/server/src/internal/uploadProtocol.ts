/**
 * The bodies of the chunked upload protocol (`/v1/uploads`) as the hosted service's clients send
 * and read them, for the handlers and the OpenAPI document.
 */
import * as Schema from "effect/Schema"

export const InitRequest = Schema.Struct({
  /** `.pdf` (the dot and the case do not matter); anything else is refused. */
  file_extension: Schema.String.pipe(Schema.maxLength(32)),
  /** The file's size in bytes. */
  size: Schema.Int.pipe(Schema.positive()),
  /** Resumes this upload (an addition to the hosted protocol): its received parts are reported, not asked again. */
  upload_id: Schema.optional(Schema.String.pipe(Schema.maxLength(100)))
}).annotations({ identifier: "UploadInitRequest" })

export const InitResponse = Schema.Struct({
  data: Schema.Struct({
    upload_id: Schema.String,
    part_size: Schema.Int,
    total_parts: Schema.Int,
    /** Parts already received, ascending. */
    uploaded_parts: Schema.Array(Schema.Int),
    /** A signed `PUT` URL per part still missing, keyed by part number (1-based). */
    presigned_urls: Schema.Record({ key: Schema.String, value: Schema.String }),
    /** When the upload and its part URLs expire if it is not finished. */
    expires_at: Schema.String
  })
}).annotations({ identifier: "UploadInitResponse" })

export const PartResponse = Schema.Struct({
  data: Schema.Struct({ part_number: Schema.Int, size: Schema.Int })
}).annotations({ identifier: "UploadPartResponse" })

export const UrlResponse = Schema.Struct({
  data: Schema.Struct({ url: Schema.String })
}).annotations({ identifier: "UploadUrlResponse" })

export const IncompleteUpload = Schema.Struct({
  error: Schema.Literal("upload_incomplete"),
  message: Schema.String,
  missing_parts: Schema.Array(Schema.Int)
}).annotations({ identifier: "IncompleteUpload" })
