/** The hosted service's chunked upload protocol as Schemas: `init`, a `PUT` per part, `url`.
 * @since 0.1.0 */
import * as Schema from "effect/Schema"

/** The hosted service's upload base, separate from its API base URL.
 * @since 0.1.0
 * @category endpoints */
export const hostedUploadBaseUrl = "https://llm.oomol.com/api/tasks/files/remote-cache"

/** The body of `POST {uploadBase}/init`.
 * @since 0.1.0
 * @category requests */
export const InitRequest = Schema.Struct({
  /** `.pdf` (the dot and the case do not matter to the reference server). */
  file_extension: Schema.String.pipe(Schema.maxLength(32)),
  /** The file's size in bytes. */
  size: Schema.Int.pipe(Schema.positive()),
  /** Resumes this upload (an addition of the reference server): its received parts are reported, not asked again. */
  upload_id: Schema.optional(Schema.String.pipe(Schema.maxLength(100)))
}).annotations({ identifier: "UploadInitRequest" })

/** @since 0.1.0
 * @category requests */
export type InitRequest = typeof InitRequest.Type

/** What `init` describes: the parts and where to send them.
 * @since 0.1.0
 * @category responses */
export const InitData = Schema.Struct({
  upload_id: Schema.String.pipe(Schema.minLength(1)),
  part_size: Schema.Int.pipe(Schema.positive()),
  total_parts: Schema.Int.pipe(Schema.positive()),
  /** Parts already received, ascending. */
  uploaded_parts: Schema.Array(Schema.Int),
  /** A signed `PUT` URL per part still missing, keyed by part number (1-based). */
  presigned_urls: Schema.Record({ key: Schema.String, value: Schema.String }),
  /** When the upload and its part URLs expire if it is not finished. */
  expires_at: Schema.String
}).annotations({ identifier: "UploadInitData" })

/** @since 0.1.0
 * @category responses */
export type InitData = typeof InitData.Type

/** The answer of `init` as the reference server sends it.
 * @since 0.1.0
 * @category responses */
export const InitResponse = Schema.Struct({ data: InitData }).annotations({ identifier: "UploadInitResponse" })

/** The answer of `init` as a client reads it: in `data` or not, with optional fields derived.
 * @since 0.1.0
 * @category responses */
export const InitAnswer = Schema.Struct({
  upload_id: InitData.fields.upload_id,
  part_size: InitData.fields.part_size,
  total_parts: Schema.optional(InitData.fields.total_parts),
  uploaded_parts: Schema.optionalWith(InitData.fields.uploaded_parts, { default: () => [] }),
  presigned_urls: InitData.fields.presigned_urls,
  expires_at: Schema.optional(Schema.String)
})

/** @since 0.1.0
 * @category responses */
export type InitAnswer = typeof InitAnswer.Type

/** The answer of a part `PUT` on the reference server (any 2xx is success for a client).
 * @since 0.1.0
 * @category responses */
export const PartResponse = Schema.Struct({
  data: Schema.Struct({ part_number: Schema.Int, size: Schema.Int })
}).annotations({ identifier: "UploadPartResponse" })

/** The answer of `GET {uploadBase}/{upload_id}/url`.
 * @since 0.1.0
 * @category responses */
export const UrlResponse = Schema.Struct({
  data: Schema.Struct({ url: Schema.String })
}).annotations({ identifier: "UploadUrlResponse" })

/** The 409 of `url` before every part is there.
 * @since 0.1.0
 * @category responses */
export const IncompleteUpload = Schema.Struct({
  error: Schema.Literal("upload_incomplete"),
  message: Schema.String,
  missing_parts: Schema.Array(Schema.Int)
}).annotations({ identifier: "IncompleteUpload" })

/** The 413 of `init` when the declared size is over the server's limit, which it names.
 * @since 0.1.0
 * @category responses */
export const TooLarge = Schema.Struct({
  error: Schema.String,
  message: Schema.optional(Schema.String),
  max_bytes: Schema.Int.pipe(Schema.nonNegative())
}).annotations({ identifier: "UploadTooLarge" })

/** The part numbers of a file of `size` bytes cut in parts of `partSize`: 1 to `ceil(size / partSize)`.
 * @since 0.1.0
 * @category parts */
export const partCount = (size: number, partSize: number): number => Math.ceil(size / partSize)

/** Where part `n` (1-based) starts and how long it is: `partSize` bytes, the last one shorter.
 * @since 0.1.0
 * @category parts */
export const partRange = (
  size: number,
  partSize: number,
  part: number
): { readonly offset: number; readonly length: number } => {
  const offset = (part - 1) * partSize
  return { offset, length: Math.max(0, Math.min(partSize, size - offset)) }
}

/** The `cache://` URL of a finished upload, as the reference server and the fakes answer it.
 * @since 0.1.0
 * @category responses */
export const cacheUrl = (uploadId: string): string => `cache://${uploadId}.pdf`
