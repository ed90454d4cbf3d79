/**
 * The messages between the caller and a conversion worker: one request per document, answered
 * by a stream of progress events and a final result.
 */
import * as Transferable from "@effect/platform/Transferable"
import * as Schema from "effect/Schema"
import { OcrFailed, OcrLanguageUnavailable, PdfInvalid, PdfPageFailed, PdfPasswordRequired } from "../Converter.js"

/** Pages done so far. */
export class ProgressEvent extends Schema.TaggedClass<ProgressEvent>()("Progress", {
  pagesDone: Schema.Number,
  pagesTotal: Schema.Number
}) {}

/**
 * The finished conversion. Bytes (an EPUB, or Markdown as UTF-8) are moved to the caller's thread,
 * not copied: a copy of a large output would briefly sit in both threads.
 */
export class DoneEvent extends Schema.TaggedClass<DoneEvent>()("Done", {
  output: Schema.Union(Schema.String, Transferable.Uint8Array),
  pages: Schema.Number,
  ocrPages: Schema.Array(Schema.Number),
  warnings: Schema.Array(Schema.Union(PdfPageFailed, OcrFailed))
}) {}

/** Every way the engine itself fails a conversion: the one list, for the request and for the caller's check. */
export const EngineFailure = Schema.Union(
  PdfPasswordRequired,
  PdfInvalid,
  PdfPageFailed,
  OcrFailed,
  OcrLanguageUnavailable
)

/**
 * Convert one document. The PDF bytes are moved to the worker, not cloned: the caller gives a
 * copy of its own (see `ConverterLive`), so that no second copy of a large PDF stays in the
 * caller's thread for the whole conversion.
 */
export class ConvertRequest extends Schema.TaggedRequest<ConvertRequest>()("Convert", {
  failure: EngineFailure,
  success: Schema.Union(ProgressEvent, DoneEvent),
  payload: {
    pdf: Transferable.Uint8Array,
    format: Schema.Literal("markdown", "epub"),
    ignorePdfErrors: Schema.Boolean,
    ignoreOcrErrors: Schema.Boolean,
    filename: Schema.optional(Schema.String),
    password: Schema.optional(Schema.String),
    ocrLanguages: Schema.Array(Schema.String),
    ocrDataPath: Schema.optional(Schema.String)
  }
}) {}
