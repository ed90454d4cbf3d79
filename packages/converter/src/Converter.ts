/**
 * The conversion engine as a service: PDF bytes in, Markdown or EPUB 3 out; it knows nothing of HTTP.
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"

/**
 * The document needs a user password (none or a wrong one was given).
 * @since 0.1.0
 * @category errors
 */
export class PdfPasswordRequired
  extends Schema.TaggedError<PdfPasswordRequired>("@pdf-transform/converter/PdfPasswordRequired")(
    "PdfPasswordRequired",
    { wrongPassword: Schema.Boolean }
  )
{
  get message(): string {
    return this.wrongPassword ? "The PDF password is wrong" : "The PDF is encrypted and needs a password"
  }
}

/**
 * The file is not a readable PDF.
 * @since 0.1.0
 * @category errors
 */
export class PdfInvalid extends Schema.TaggedError<PdfInvalid>("@pdf-transform/converter/PdfInvalid")("PdfInvalid", {
  reason: Schema.String
}) {
  get message(): string {
    return `Not a readable PDF: ${this.reason}`
  }
}

/**
 * One page could not be read: fatal when `ignorePdfErrors` is false, else a warning and the page skipped.
 * @since 0.1.0
 * @category errors
 */
export class PdfPageFailed
  extends Schema.TaggedError<PdfPageFailed>("@pdf-transform/converter/PdfPageFailed")("PdfPageFailed", {
    page: Schema.Number,
    reason: Schema.String
  })
{
  get message(): string {
    return `Page ${this.page} could not be read: ${this.reason}`
  }
}

/**
 * OCR of a page failed. Fatal only when `ignoreOcrErrors` is false.
 * @since 0.1.0
 * @category errors
 */
export class OcrFailed extends Schema.TaggedError<OcrFailed>("@pdf-transform/converter/OcrFailed")("OcrFailed", {
  page: Schema.Number,
  reason: Schema.String
}) {
  get message(): string {
    return `OCR of page ${this.page} failed: ${this.reason}`
  }
}

/**
 * An OCR language whose model is not installed (no package, nothing in `ocrDataPath`), before any page is read.
 * @since 0.1.0
 * @category errors
 */
export class OcrLanguageUnavailable
  extends Schema.TaggedError<OcrLanguageUnavailable>("@pdf-transform/converter/OcrLanguageUnavailable")(
    "OcrLanguageUnavailable",
    { language: Schema.String, searched: Schema.String }
  )
{
  get message(): string {
    return `No OCR model for "${this.language}" (searched: ${this.searched})`
  }
}

/**
 * The document took longer than its time limit.
 * @since 0.1.0
 * @category errors
 */
export class ConversionTimeout
  extends Schema.TaggedError<ConversionTimeout>("@pdf-transform/converter/ConversionTimeout")("ConversionTimeout", {
    timeoutMs: Schema.Number
  })
{
  get message(): string {
    return `Conversion did not finish within ${Math.round(this.timeoutMs / 1000)} s`
  }
}

/**
 * Every error a conversion can end with.
 * @since 0.1.0
 * @category errors
 */
export type ConverterError =
  | PdfPasswordRequired
  | PdfInvalid
  | PdfPageFailed
  | OcrFailed
  | OcrLanguageUnavailable
  | ConversionTimeout

/**
 * A non-fatal problem: a page or OCR error that was ignored as the options asked.
 * @since 0.1.0
 * @category models
 */
export type ConversionWarning = PdfPageFailed | OcrFailed

/**
 * Pages done out of the total, reported as the conversion goes.
 * @since 0.1.0
 * @category models
 */
export interface Progress {
  readonly pagesDone: number
  readonly pagesTotal: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ConvertOptions {
  /** Skip pages that fail to parse instead of failing (default true, as the contract). */
  readonly ignorePdfErrors?: boolean | undefined
  /** Keep going when OCR of a page fails (default true, as the contract). */
  readonly ignoreOcrErrors?: boolean | undefined
  /** Output name without extension; also the EPUB title when the PDF has none. */
  readonly filename?: string | undefined
  /** The user password of an encrypted PDF. */
  readonly password?: Redacted.Redacted<string> | undefined
  /** Called as pages are done (a pool's worker coalesces, but always reports the first and last). */
  readonly onProgress?: ((progress: Progress) => Effect.Effect<void>) | undefined
  /** Time limit for this document (default from the layer). */
  readonly timeout?: Duration.DurationInput | undefined
  /**
   * Languages OCR reads, as tesseract names them (default `["eng"]`); each needs its model installed
   * (`@tesseract.js-data/<language>` or in `ocrDataPath`), else `OcrLanguageUnavailable`.
   */
  readonly ocrLanguages?: ReadonlyArray<string> | undefined
  /** A directory of tesseract models searched before the installed packages (e.g. Debian's tessdata). */
  readonly ocrDataPath?: string | undefined
}

/**
 * A finished conversion.
 * @since 0.1.0
 * @category models
 */
export interface Conversion<A> {
  readonly output: A
  readonly pages: number
  readonly warnings: ReadonlyArray<ConversionWarning>
  /** The pages read by OCR (1-based), whether its reading was kept or not; absent from converters that do no OCR. */
  readonly ocrPages?: ReadonlyArray<number> | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly toMarkdown: (pdf: Uint8Array, options?: ConvertOptions) => Effect.Effect<Conversion<string>, ConverterError>
  readonly toEpub: (pdf: Uint8Array, options?: ConvertOptions) => Effect.Effect<Conversion<Uint8Array>, ConverterError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Converter extends Context.Tag("@pdf-transform/converter/Converter")<Converter, Service>() {}
