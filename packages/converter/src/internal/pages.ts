/**
 * The page loop: each page read from PDFium, put in reading order, and, when it is a scan or its
 * text layer is junk, rendered and handed to OCR, which runs on tesseract's own thread while the
 * next pages are read.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Scope from "effect/Scope"
import type * as Converter from "../Converter.js"
import type { PdfPageFailed } from "../Converter.js"
import { OcrFailed } from "../Converter.js"
import type { EngineOptions } from "./engine.js"
import type { OrderedPage, TextItem } from "./layout.js"
import { hasText, isBetterReading, isJunkTextLayer, orderPage } from "./layout.js"
import * as Ocr from "./ocr.js"
import * as OcrPool from "./ocrPool.js"
import * as Pdf from "./pdf.js"
import type { PageVerdict, TaggedPage } from "./tagged/page.js"
import { arrangePage, isTaggedPage } from "./tagged/page.js"
import { measure } from "./tagged/sound.js"

/** A page whose text layer is empty and which is mostly covered by an image is a scan. */
const scanCoverage = 0.5
/** Renderings waiting for OCR at most: the page loop waits for the oldest beyond that. */
const maxPendingOcr = 2

/** Resumes after the event loop has run its pending callbacks once. */
const eventLoopTurn = Effect.async<void>((resume) => {
  const immediate = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(immediate))
})

export interface ReadPages {
  readonly pages: Array<OrderedPage | TaggedPage>
  readonly warnings: Array<Converter.ConversionWarning>
  readonly ocrPages: Array<number>
  /** What was judged of each page that has a structure tree (a tagged document's). */
  readonly tagged: Array<PageVerdict>
}

/** Why a page goes to OCR, which decides what its reading must prove to be kept. */
type OcrReason = "scan" | "junk"

export const readPages = (
  open: Pdf.OpenDocument,
  options: EngineOptions & { readonly models: ReadonlyMap<string, string>; readonly figures: boolean }
): Effect.Effect<ReadPages, Converter.PdfPageFailed | Converter.OcrFailed, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const warnings: Array<Converter.ConversionWarning> = []
    const ocrPages: Array<number> = []
    const tagged: Array<PageVerdict> = []
    // Whether the page before ended in a contents (`contents`); a page waiting for its figures is taken as not.
    let contentsGoesOn = false
    const arrange = (n: number, content: Pdf.PageContent, goesOn = false) =>
      arrangePage({ page: n, ...content, contentsGoesOn: goesOn }, content.tagged, tagged)
    const made = (done: { readonly content: Pdf.PageContent; readonly failed: PdfPageFailed | undefined }) => {
      if (done.failed !== undefined) warnings.push(done.failed)
      return done.content
    }
    // A tagged page's artifacts are made into figures only when its tree is not what it is read by.
    const arrangeDeferred = (n: number, content: Pdf.PageContent) => {
      if (content.deferred.length === 0) return Effect.succeed(arrange(n, content))
      const unmade = new Set(content.deferred.map(({ placed }) => placed))
      const read = arrange(n, { ...content, figures: content.figures.filter((placed) => !unmade.has(placed)) })
      if (isTaggedPage(read)) return Effect.succeed(read)
      return Effect.map(Pdf.makeDeferred(open, n, content), (done) => orderPage({ page: n, ...made(done) }))
    }
    const pages: Array<OrderedPage | TaggedPage | Fiber.Fiber<OrderedPage | TaggedPage, OcrFailed>> = []
    const pending: Array<Fiber.Fiber<OrderedPage, OcrFailed>> = []
    /** tesseract's workers for this conversion, the first started by the first page that needs it. */
    let tesseract: Effect.Effect<Ocr.Ocr> | undefined
    const ocrFailure = (page: number, reason: string) =>
      Effect.gen(function*() {
        const error = new OcrFailed({ page, reason })
        if (!options.ignoreOcrErrors) return yield* Effect.fail(error)
        warnings.push(error)
      })
    const recognise = (n: number, content: Pdf.PageContent, reason: OcrReason) =>
      Effect.gen(function*() {
        ocrPages.push(n)
        const rendering = Pdf.render(open, n)
        tesseract ??= yield* Effect.cached(
          OcrPool.make(Ocr.make(options.models), options.ocrWorkers ?? OcrPool.defaultWorkers()).pipe(
            Scope.extend(scope)
          )
        )
        const worker = tesseract
        const fallback = orderPage({ page: n, ...content })
        const work = Effect.gen(function*() {
          if (Either.isLeft(rendering)) return yield* Effect.fail(rendering.left.reason)
          const words = yield* Effect.flatMap(worker, (started) => started.recognize(rendering.right.image))
          const scale = rendering.right.scale
          const items = words.map((word): TextItem => ({
            text: word.text,
            x: word.x / scale,
            y: word.y / scale,
            width: word.width / scale,
            size: word.size / scale,
            rtl: false,
            style: 0
          }))
          const keep = reason === "scan" ? !Ocr.isNoise(words) : isBetterReading(items, content.items)
          // A scan read as text is its text; a scan read as noise (artwork) is only its image.
          if (!keep) return fallback
          return orderPage({ page: n, ...content, items, figures: reason === "scan" ? [] : content.figures })
        }).pipe(
          Effect.catchAll((reason) => Effect.as(ocrFailure(n, reason), fallback))
        )
        const fiber = yield* Effect.forkIn(work, scope)
        pending.push(fiber)
        if (pending.length > maxPendingOcr) yield* Fiber.await(pending.shift()!)
        return fiber
      })
    yield* options.onProgress({ pagesDone: 0, pagesTotal: open.pages })
    for (let n = 1; n <= open.pages; n++) {
      const read = Pdf.readPage(open, n, { figures: options.figures })
      if (Either.isLeft(read)) {
        if (!options.ignorePdfErrors) return yield* Effect.fail(read.left)
        warnings.push(read.left)
        pages.push({ page: n, height: 0, items: [] })
      } else {
        const content = read.right
        const reason: OcrReason | undefined = !hasText(content.items) && content.imageCoverage >= scanCoverage
          ? "scan"
          : isJunkTextLayer(content.items, content.junk)
          ? "junk"
          : undefined
        // Figures are made off this thread while the next pages are read; the page is ordered once they are.
        const settled = Effect.map(Pdf.settleFigures(open, n, content), made)
        if (reason !== undefined) {
          if (content.tagged !== undefined) tagged.push({ page: n, measures: measure(content.tagged), unsound: "ocr" })
          const all = yield* Effect.flatMap(settled, (settled) => Pdf.makeDeferred(open, n, settled))
          pages.push(yield* recognise(n, made(all), reason))
        } else if (content.pending.length === 0 && content.deferred.length === 0) {
          pages.push(arrange(n, content, contentsGoesOn))
        } else {
          pages.push(yield* Effect.forkIn(Effect.flatMap(settled, (settled) => arrangeDeferred(n, settled)), scope))
        }
      }
      const last = pages[pages.length - 1]!
      contentsGoesOn = !Fiber.isFiber(last) && !isTaggedPage(last) && last.contentsOpen === true
      open.refresh()
      yield* options.onProgress({ pagesDone: n, pagesTotal: open.pages })
      // A page is a few Effect operations around long synchronous PDFium calls, so this fiber
      // would reach Effect's yield count (2,048 operations) only after whole documents: in a
      // worker, the fiber that posts progress to the caller would run once, at the end.
      yield* Effect.yieldNow()
      // Figures made off this thread come back in libuv's callbacks, which Effect's yields do not run.
      if (open.figures.offThread > 0) yield* eventLoopTurn
    }
    const ordered = yield* Effect.forEach(
      pages,
      (page) => Fiber.isFiber(page) ? Fiber.join(page) : Effect.succeed(page)
    )
    return { pages: ordered, warnings, ocrPages, tagged: tagged.sort((a, b) => a.page - b.page) }
  })
