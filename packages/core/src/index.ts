/** A typed Effect client for the PDF Conversion Service v1: contract, client, errors, polling, uploads.
 * @since 0.1.0 */

/** Files written whole or not at all.
 * @since 0.2.0 */
export * as AtomicFile from "./AtomicFile.js"

/** The `Uploader` of the chunked, resumable upload protocol.
 * @since 0.1.0 */
export * as ChunkedUploader from "./ChunkedUploader.js"

/** The v1 contract as Schemas.
 * @since 0.1.0 */
export * as Contract from "./Contract.js"

/** Content types, file extensions and what counts as a PDF.
 * @since 0.1.0 */
export * as Media from "./Media.js"

/** The client service: submit, poll, await, watch, convert, download.
 * @since 0.1.0 */
export * as PdfTransformClient from "./PdfTransformClient.js"

/** The client's typed errors.
 * @since 0.1.0 */
export * as PdfTransformError from "./PdfTransformError.js"

/** The Schedules the client polls with.
 * @since 0.1.0 */
export * as Polling from "./Polling.js"

/** The one retry policy: capped, jittered backoff and which failures are transient.
 * @since 0.1.0 */
export * as Retry from "./Retry.js"

/** Parsing of `RateLimit-Policy`, `RateLimit`, `Retry-After` and `retryAfterMs`.
 * @since 0.1.0 */
export * as RateLimit from "./RateLimit.js"

/** The rules a server limits submits by, and the RateLimit fields that announce them.
 * @since 0.2.0 */
export * as RateLimitRule from "./RateLimitRule.js"

/** The `Uploader` of the reference server's single-request upload.
 * @since 0.1.0 */
export * as ServerUploader from "./ServerUploader.js"

/** The upload service: a local PDF in, a `pdfURL` out.
 * @since 0.1.0 */
export * as Uploader from "./Uploader.js"

/** The chunked upload protocol as Schemas.
 * @since 0.1.0 */
export * as UploadProtocol from "./UploadProtocol.js"
