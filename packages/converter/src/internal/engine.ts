/**
 * The conversion itself, independent of where it runs (in-process or in a worker thread):
 * pages read one at a time, OCR where a page is a scan or its text layer is unreadable, layout,
 * then Markdown or EPUB.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Scope from "effect/Scope"
import type * as Converter from "../Converter.js"
import { OcrFailed } from "../Converter.js"
import type * as Document from "../Document.js"
import * as Epub from "../Epub.js"
import * as Markdown from "../Markdown.js"
import type { OrderedPage, TextItem } from "./layout.js"
import { hasText, isBetterReading, isJunkTextLayer, layout, orderPage } from "./layout.js"
import * as Ocr from "./ocr.js"
import * as Pdf from "./pdf.js"

/** The output formats. */
export type Format = "markdown" | "epub"

/** Options once defaults are applied and secrets unwrapped (they may cross a thread boundary). */
export interface EngineOptions {
  readonly ignorePdfErrors: boolean
  readonly ignoreOcrErrors: boolean
  readonly filename: string | undefined
  readonly password: string | undefined
  /**
   * Whether the PDF bytes may be handed to pdf.js, which detaches them: true only where nobody
   * else reads them (a worker's private copy). Otherwise pdf.js gets a copy.
   */
  readonly transferBytes: boolean
  /**
   * A full garbage collection, run with pdf.js's cache cleanup every `cleanupEvery` pages where
   * available (conversion workers). V8 lets the garbage of page reading pile up well past the
   * live heap: on a 2,000-page document peak RSS varied 381-434 MB without it, 370-372 with it.
   */
  readonly collectGarbage?: (() => void) | undefined
  readonly onProgress: (progress: Converter.Progress) => Effect.Effect<void>
}

/** Errors the engine can end with (the time limit is applied by the caller). */
export type EngineError = Exclude<Converter.ConverterError, Converter.ConversionTimeout>

/** A page whose text layer is empty and which is mostly covered by an image is a scan. */
const scanCoverage = 0.5

/**
 * pdf.js keeps parsed fonts for the whole document; dropping them now and then bounds memory on
 * long documents (a font used again is parsed again, which costs little at this interval).
 */
const cleanupEvery = 100

/** Reads and lays out the whole document; warnings collect what was skipped. */
export const readDocument = (
  pdf: Uint8Array,
  options: EngineOptions,
  format: Format
): Effect.Effect<
  {
    readonly document: Document.Document
    readonly warnings: Array<Converter.ConversionWarning>
    /** Pages that were read by OCR (rendered and recognised), whether its reading was kept or not. */
    readonly ocrPages: ReadonlyArray<number>
    /** The running heads and folios the layout removed. */
    readonly removedLines: ReadonlyArray<string>
  },
  EngineError
> =>
  Effect.scoped(Effect.gen(function*() {
    const open = yield* Pdf.open(pdf, options.password, { lenient: false, transfer: options.transferBytes })
    const total = Pdf.pageCount(open)
    const outline = yield* Pdf.outline(open)
    const title = yield* Pdf.title(open)
    const scope = yield* Effect.scope
    const warnings: Array<Converter.ConversionWarning> = []
    // Only the lines in reading order are kept per page, not pdf.js's items: bounded memory.
    const pages: Array<OrderedPage> = []
    const heights = new Map<number, number>()
    const ocrPages: Array<number> = []
    let ocr: Ocr.Ocr | undefined
    let lenient: Pdf.OpenDocument | null | undefined
    const ocrFailure = (page: number, reason: string) =>
      Effect.gen(function*() {
        const error = new OcrFailed({ page, reason })
        if (!options.ignoreOcrErrors) return yield* Effect.fail(error)
        warnings.push(error)
      })
    /** The page read by OCR in PDF units, or undefined when OCR failed (and that is tolerated). */
    const recognise = (page: number) =>
      Effect.gen(function*() {
        if (ocr === undefined) {
          const started = yield* Effect.either(Ocr.make.pipe(Scope.extend(scope)))
          if (Either.isRight(started)) ocr = started.right
          else yield* ocrFailure(page, started.left)
        }
        if (ocr === undefined) return undefined
        const engine = ocr
        ocrPages.push(page)
        const recognised = yield* Effect.either(
          Effect.scoped(Pdf.renderPng(open, page)).pipe(
            Effect.mapError((error) => `rendering failed: ${error instanceof Error ? error.message : String(error)}`),
            Effect.flatMap(({ png, scale }) =>
              Effect.map(engine.recognize(png), (words) =>
                words.map((word): TextItem => ({
                  text: word.text,
                  x: word.x / scale,
                  y: word.y / scale,
                  width: word.width / scale,
                  size: word.size / scale,
                  rtl: false
                })))
            )
          )
        )
        if (Either.isRight(recognised)) return recognised.right
        yield* ocrFailure(page, recognised.left)
        return undefined
      })
    yield* options.onProgress({ pagesDone: 0, pagesTotal: total })
    for (let n = 1; n <= total; n++) {
      let read = yield* Effect.either(Effect.scoped(Pdf.readPage(open, n, { figures: format === "epub" })))
      if (Either.isLeft(read)) {
        if (!options.ignorePdfErrors) return yield* Effect.fail(read.left)
        warnings.push(read.left)
        // The page is reported either way; a lenient parse may still recover some of its text.
        // The bytes come back from pdf.js: the first parse may have been given the only copy.
        lenient ??= yield* Pdf.data(open).pipe(
          Effect.flatMap((bytes) => Pdf.open(bytes, options.password, { lenient: true, transfer: true })),
          Scope.extend(scope),
          Effect.orElseSucceed(() => null)
        )
        if (lenient !== null) {
          read = yield* Effect.either(Effect.scoped(Pdf.readPage(lenient, n, { figures: false })))
        }
      }
      if (Either.isLeft(read)) {
        pages.push({ page: n, height: 0, items: [] })
      } else {
        const content = read.right
        heights.set(n, content.height)
        let items = content.items
        if (!hasText(content.items) && content.imageCoverage >= scanCoverage) {
          items = (yield* recognise(n)) ?? items
        } else if (isJunkTextLayer(content.items)) {
          // Glyphs without a Unicode mapping: what pdf.js reads is not text, but the page renders
          // and can be read like a scan. The layer stays when OCR does no better.
          const recognised = yield* recognise(n)
          if (recognised !== undefined && isBetterReading(recognised, content.items)) items = recognised
        }
        pages.push(
          orderPage({ page: n, width: content.width, height: content.height, items, figures: content.figures })
        )
      }
      if (n % cleanupEvery === 0) {
        yield* Pdf.cleanup(open)
        if (options.collectGarbage !== undefined) yield* Effect.sync(options.collectGarbage)
      }
      yield* options.onProgress({ pagesDone: n, pagesTotal: total })
    }
    const { document, removedLines } = layout({
      pages,
      outline: Pdf.outlineTopDown(outline, heights),
      title,
      filename: options.filename
    })
    return { document, warnings, ocrPages, removedLines }
  }))

/** A finished conversion in one of the formats. */
export interface EngineResult {
  readonly output: string | Uint8Array
  readonly pages: number
  readonly warnings: ReadonlyArray<Converter.ConversionWarning>
}

/** Converts to the format asked. */
export const convert = (
  pdf: Uint8Array,
  format: Format,
  options: EngineOptions
): Effect.Effect<EngineResult, EngineError> =>
  Effect.map(readDocument(pdf, options, format), ({ document, warnings }) => ({
    output: format === "markdown" ? Markdown.render(document) : Epub.build(document),
    pages: document.pages,
    warnings
  }))
