/**
 * The submit body as the server enforces it: core's `ConversionRequest`, `model` required as the
 * contract says (core defaults it for callers), strings bounded, unknown keys ignored as the hosted service does.
 */
import * as Contract from "@pdf-transform/core/Contract"
import * as Schema from "effect/Schema"
import { jsonBodyDecoder } from "./jsonBody.js"

export const SubmitBody = Schema.Struct({
  ...Contract.ConversionRequest.fields,
  pdfURL: Contract.PdfUrl.pipe(Schema.maxLength(4096)),
  model: Contract.Model,
  filename: Schema.optional(Schema.String.pipe(Schema.maxLength(255)))
})

export type SubmitBody = typeof SubmitBody.Type

/** The decoded body, or the 400 that names what is wrong. */
export const parseSubmitBody = jsonBodyDecoder(SubmitBody)
