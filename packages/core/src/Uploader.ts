/**
 * The "file upload operation" the contract leaves out: turns a local PDF into a `pdfURL`.
 * Only the tag lives here; the reference server and the hosted service provide layers.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type {
  InvalidRequest,
  InvalidResponse,
  TransportError,
  Unauthenticated,
  UnexpectedResponse
} from "./PdfTransformError.js"

/**
 * A PDF to upload.
 *
 * @since 0.1.0
 * @category models
 */
export interface UploadFile {
  /** A file name, used for display and for the stored object's suffix. */
  readonly name: string
  readonly bytes: Uint8Array
}

/**
 * The errors an upload can end with.
 *
 * @since 0.1.0
 * @category errors
 */
export type UploadError = InvalidRequest | Unauthenticated | UnexpectedResponse | InvalidResponse | TransportError

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Uploads the file and answers the URL to submit as `pdfURL`. */
  readonly upload: (file: UploadFile) => Effect.Effect<string, UploadError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Uploader extends Context.Tag("@pdf-transform/core/Uploader")<Uploader, Service>() {}
