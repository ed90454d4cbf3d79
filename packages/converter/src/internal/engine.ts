/**
 * The conversion, wherever it runs: pages read one at a time, OCR where the text layer fails (on
 * tesseract's thread, while the next pages are read), layout, then Markdown or EPUB.
 */
import * as Effect from "effect/Effect"
import type * as Converter from "../Converter.js"
import { OcrLanguageUnavailable } from "../Converter.js"
import type * as Document from "../Document.js"
import * as Epub from "../Epub.js"
import * as Markdown from "../Markdown.js"
import { layout } from "./layout.js"
import * as Ocr from "./ocr.js"
import { readPages } from "./pages.js"
import * as Pdf from "./pdf.js"
import type { PageVerdict } from "./tagged/page.js"

export type Format = "markdown" | "epub"

/** Options once defaults are applied and secrets unwrapped (they may cross a thread boundary). */
export interface EngineOptions {
  readonly ignorePdfErrors: boolean
  readonly ignoreOcrErrors: boolean
  readonly filename: string | undefined
  readonly password: string | undefined
  readonly ocrLanguages: ReadonlyArray<string>
  readonly ocrDataPath: string | undefined
  /** tesseract workers a conversion may run at once (default: this machine's cores, at most 2). */
  readonly ocrWorkers?: number | undefined
  /** A full garbage collection, where available (conversion workers): see `convert`. */
  readonly collectGarbage?: (() => void) | undefined
  /** Whether a tagged document's structure tree is read (default true; benches compare without it). */
  readonly readStructure?: boolean | undefined
  /** Markdown as UTF-8 bytes rather than a string (a worker moves bytes to the caller's thread). */
  readonly markdownAsUtf8?: boolean | undefined
  readonly onProgress: (progress: Converter.Progress) => Effect.Effect<void>
}

/** Errors the engine can end with (the time limit is applied by the caller). */
export type EngineError = Exclude<Converter.ConverterError, Converter.ConversionTimeout>

/** A document read and laid out, with what the conversion reports besides. */
export interface ReadDocument {
  readonly document: Document.Document
  readonly warnings: Array<Converter.ConversionWarning>
  /** Pages that were read by OCR (rendered and recognised), whether its reading was kept or not. */
  readonly ocrPages: ReadonlyArray<number>
  /** The running heads and folios the layout removed (and a tagged page's artifacts). */
  readonly removedLines: ReadonlyArray<string>
  /** Whether the document is tagged, and the verdict on each page that has a structure tree. */
  readonly structure: { readonly tagged: boolean; readonly pages: ReadonlyArray<PageVerdict> }
}

/** Reads and lays out the whole document; warnings collect what was skipped. */
export const readDocument = (
  pdf: Uint8Array,
  options: EngineOptions,
  format: Format
): Effect.Effect<ReadDocument, EngineError> =>
  Effect.scoped(Effect.gen(function*() {
    // A language without a model is the caller's mistake: said before any work.
    const models = Ocr.findModels(options.ocrLanguages, options.ocrDataPath)
    if ("missing" in models) {
      return yield* new OcrLanguageUnavailable({ language: models.missing, searched: models.searched })
    }
    const open = yield* Pdf.open(pdf, options.password, options.readStructure !== false)
    const outline = yield* Pdf.outline(open)
    const title = yield* Pdf.title(open)
    const read = yield* readPages(open, { ...options, models: models.files, figures: format === "epub" })
    const heights = new Map(read.pages.filter((page) => page.height > 0).map((page) => [page.page, page.height]))
    const laid = layout({
      pages: read.pages,
      outline: Pdf.outlineTopDown(outline, heights),
      title,
      filename: options.filename
    })
    return {
      document: laid.document,
      warnings: read.warnings,
      ocrPages: read.ocrPages,
      removedLines: laid.removedLines,
      structure: { tagged: open.tagged, pages: read.tagged }
    }
  }))

export interface EngineResult {
  readonly output: string | Uint8Array
  readonly pages: number
  readonly ocrPages: ReadonlyArray<number>
  readonly warnings: ReadonlyArray<Converter.ConversionWarning>
}

/** Documents of this many pages or more get the two collections of `convert`. */
const collectFrom = 100

/**
 * Converts to the format asked. On a long document, a full collection after layout and after writing
 * frees what just became garbage before the next step allocates: the peak stays near the live data.
 */
export const convert = (
  pdf: Uint8Array,
  format: Format,
  options: EngineOptions
): Effect.Effect<EngineResult, EngineError> => {
  const collect = (pages: number) =>
    Effect.sync(() => {
      if (pages >= collectFrom) options.collectGarbage?.()
    })
  return readDocument(pdf, options, format).pipe(
    Effect.tap(({ document }) => collect(document.pages)),
    Effect.map(({ document, ocrPages, warnings }) => ({
      output: format === "epub"
        ? Epub.build(document)
        : options.markdownAsUtf8 === true
        ? Markdown.renderUtf8(document)
        : Markdown.render(document),
      pages: document.pages,
      ocrPages,
      warnings
    })),
    Effect.tap((result) => collect(result.pages))
  )
}
