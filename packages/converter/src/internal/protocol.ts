/** The messages between the caller and a conversion worker: a request, progress events, a result. */
import * as Transferable from "@effect/platform/Transferable"
import * as Schema from "effect/Schema"
import { OcrFailed, OcrLanguageUnavailable, PdfInvalid, PdfPageFailed, PdfPasswordRequired } from "../Converter.js"

export class ProgressEvent extends Schema.TaggedClass<ProgressEvent>()("Progress", {
  pagesDone: Schema.Number,
  pagesTotal: Schema.Number
}) {}

/** The finished conversion; its bytes are moved to the caller's thread, never held in both. */
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

/** Convert one document; the PDF bytes (the caller's own copy) are moved to the worker, not cloned. */
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
