/** The "file upload operation" the contract leaves out: a local PDF to a `pdfURL`.
 * @since 0.1.0 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Mailbox from "effect/Mailbox"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type {
  InvalidRequest,
  InvalidResponse,
  TransportError,
  Unauthenticated,
  UnexpectedResponse
} from "./PdfTransformError.js"

/** A PDF in memory.
 * @since 0.1.0
 * @category models */
export interface UploadFile {
  /** A file name, used for display and for the stored object's suffix. */
  readonly name: string
  readonly bytes: Uint8Array
}

/** A PDF on disk, read through @effect/platform's `FileSystem` as it is sent: never whole in memory.
 * @since 0.1.0
 * @category models */
export interface UploadPath {
  readonly path: string
  /** A file name for display (default: the path's last segment). */
  readonly name?: string | undefined
}

/** What an upload takes.
 * @since 0.1.0
 * @category models */
export type UploadSource = (UploadFile | UploadPath) & { readonly resume?: string | undefined }

/** Bytes sent so far of `total`; `sent` goes down when a part is sent again.
 * @since 0.1.0
 * @category models */
export interface Progress {
  readonly _tag: "Progress"
  readonly sent: number
  readonly total: number
}

/** The end of an upload: the URL to submit as `pdfURL`, and the file's size.
 * @since 0.1.0
 * @category models */
export interface Uploaded {
  readonly _tag: "Uploaded"
  readonly url: string
  readonly bytes: number
}

/** What `uploadWithProgress` reports: `Progress` events, then one `Uploaded`.
 * @since 0.1.0
 * @category models */
export type UploadEvent = Progress | Uploaded

/** The step of an upload that failed: reading the file, `init`, a part, or `url`.
 * @since 0.1.0
 * @category errors */
export const UploadStep = Schema.Literal("read", "init", "part", "url")

/** @since 0.1.0
 * @category errors */
export type UploadStep = typeof UploadStep.Type

/** An upload failed at one step after its retries, with the `uploadId` to resume when known.
 * @since 0.1.0
 * @category errors */
export class UploadFailed extends Schema.TaggedError<UploadFailed>("@pdf-transform/core/UploadFailed")(
  "UploadFailed",
  {
    /** The file's name. */
    name: Schema.String,
    step: UploadStep,
    /** The part that failed (1-based), for step `part`. */
    part: Schema.optional(Schema.Number),
    /** The HTTP status of the last answer, when there was one. */
    status: Schema.optional(Schema.Number),
    /** The first bytes of the last answer's body, as text. */
    bodyExcerpt: Schema.optional(Schema.String),
    reason: Schema.String,
    /** Attempts made at this step. */
    attempts: Schema.Number,
    /** The upload to resume (`UploadSource.resume`) with its received parts kept. */
    uploadId: Schema.optional(Schema.String),
    cause: Schema.optional(Schema.Defect)
  }
) {
  get message(): string {
    const where = this.step === "part" && this.part !== undefined ? `part ${this.part}` : this.step
    const status = this.status === undefined ? "" : ` (HTTP ${this.status})`
    const resume = this.uploadId === undefined ? "" : `; resume upload ${this.uploadId}`
    return `Upload of ${this.name} failed at ${where}${status} after ${this.attempts} attempt(s): ${this.reason}${resume}`
  }
}

/** The file is larger than the server accepts.
 * @since 0.1.0
 * @category errors */
export class UploadTooLarge extends Schema.TaggedError<UploadTooLarge>("@pdf-transform/core/UploadTooLarge")(
  "UploadTooLarge",
  {
    name: Schema.String,
    bytes: Schema.Number,
    /** The server's limit, when known. */
    maxBytes: Schema.optional(Schema.Number)
  }
) {
  get message(): string {
    const limit = this.maxBytes === undefined ? "the server's limit" : `the limit of ${this.maxBytes} bytes`
    return `${this.name} (${this.bytes} bytes) is over ${limit}`
  }
}

/** The errors an upload can end with (`InvalidRequest`: unreadable, empty or not a PDF).
 * @since 0.1.0
 * @category errors */
export type UploadError =
  | InvalidRequest
  | Unauthenticated
  | UnexpectedResponse
  | InvalidResponse
  | TransportError
  | UploadFailed
  | UploadTooLarge

/** @since 0.1.0
 * @category models */
export interface Service {
  /** Uploads the file and answers the URL to submit as `pdfURL`. */
  readonly upload: (source: UploadSource) => Effect.Effect<string, UploadError>
  /** The same upload, reported as it goes: `Progress` events, then `Uploaded` with the URL. */
  readonly uploadWithProgress: (source: UploadSource) => Stream.Stream<UploadEvent, UploadError>
}

/** @since 0.1.0
 * @category tags */
export class Uploader extends Context.Tag("@pdf-transform/core/Uploader")<Uploader, Service>() {}

/** Builds the service from one function that uploads and reports progress (the latest kept).
 * @since 0.1.0
 * @category constructors */
export const make = (
  run: (
    source: UploadSource,
    report: (progress: Progress) => Effect.Effect<void>
  ) => Effect.Effect<Uploaded, UploadError>
): Service => ({
  upload: (source) => Effect.map(run(source, () => Effect.void), (uploaded) => uploaded.url),
  uploadWithProgress: (source) =>
    Stream.unwrapScoped(Effect.gen(function*() {
      // Sliding: a slow reader loses intermediate progress, never the final `Uploaded` (the newest).
      const mailbox = yield* Mailbox.make<UploadEvent, UploadError>({ capacity: 64, strategy: "sliding" })
      const upload = Effect.flatMap(
        run(source, (progress) => Effect.asVoid(mailbox.offer(progress))),
        (done) => mailbox.offer(done)
      )
      yield* Effect.forkScoped(Mailbox.into(upload, mailbox))
      return Mailbox.toStream(mailbox)
    }))
})

/** The display name of a source: its `name`, else the path's last segment.
 * @since 0.1.0
 * @category getters */
export const nameOf = (source: UploadSource): string =>
  source.name ?? ("path" in source ? source.path.split(/[\\/]/).pop() ?? source.path : "document.pdf")
