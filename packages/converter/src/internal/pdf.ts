/**
 * PDF access through PDFium: open a document (closed with its scope), read its title and outline,
 * and read pages one at a time as positioned text items, placed images and, for OCR, a rendering.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Scope from "effect/Scope"
import * as Zlib from "node:zlib"
import { PdfInvalid, PdfPageFailed, PdfPasswordRequired } from "../Converter.js"
import type * as Document from "../Document.js"
import { pagePaths, shapeBullets } from "./bullets.js"
import type { DeferredFigure, DocumentFigures, PendingFigure } from "./figures.js"
import { decodedAt, documentFigures, figureAt, pageFigures } from "./figures.js"
import type { OutlineEntry, PlacedFigure, TextItem } from "./layout.js"
import type { Box, Rule } from "./layout/model.js"
import { ruledSpans } from "./layout/ruledTables.js"
import { pageText } from "./pageText.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import { pngAround } from "./png.js"
import * as StructTree from "./structTree.js"
import type { TaggedContent } from "./tagged/model.js"
import type { Type3Font } from "./type3Fonts.js"
import { lazyType3Fonts } from "./type3Fonts.js"

/** FPDF_GetLastError's codes. */
const reasons: Record<number, string> = {
  1: "unknown error",
  2: "file not found or could not be opened",
  3: "not a PDF, or damaged beyond repair",
  4: "password required or incorrect",
  5: "unsupported security scheme",
  6: "page not found or content error"
}
const passwordError = 4

/**
 * PDFium keeps every object it parsed until the document closes, and the heap never shrinks: after
 * this many pages or this much growth, the file is opened afresh, so a long document's heap stays near a short one's.
 */
const pagesPerOpening = 100
const maxHeapGrowth = 16 * 1024 * 1024

/** An open document: the module that holds it and PDFium's handle, which `refresh` may replace. */
export class OpenDocument {
  private heapAtOpen: number
  private pagesRead = 0
  constructor(
    readonly module: Pdfium,
    readonly pages: number,
    private handle: number,
    private readonly reopen: () => number,
    /** What its figures share: its streams' dictionaries (PDFium does not give an image's parameters), figures made. */
    readonly figures: DocumentFigures,
    /** Whether it has a structure tree (its pages' trees and marked content are then read). */
    readonly tagged: boolean,
    readonly type3Fonts: () => ReadonlyArray<Type3Font>
  ) {
    this.heapAtOpen = module.pdfium.HEAPU8.length
  }

  get document(): number {
    return this.handle
  }

  /** After each page: reopens the document when it has cached enough; if that fails, the current one goes on. */
  refresh(): void {
    const heap = this.module.pdfium.HEAPU8.length
    if (++this.pagesRead < pagesPerOpening && heap - this.heapAtOpen <= maxHeapGrowth) return
    const fresh = this.reopen()
    if (fresh !== 0) {
      this.module.FPDF_CloseDocument(this.handle)
      this.handle = fresh
    }
    this.heapAtOpen = heap
    this.pagesRead = 0
  }

  close(): void {
    this.module.FPDF_CloseDocument(this.handle)
  }
}

/** Opens the PDF from the caller's bytes (read in place, never written); closed with the scope. */
export const open = (
  bytes: Uint8Array,
  password: string | undefined,
  /** Whether a tagged document's structure is read (benches compare the reading without it). */
  structure = true
): Effect.Effect<OpenDocument, PdfPasswordRequired | PdfInvalid, Scope.Scope> =>
  Effect.acquireRelease(P.acquire, P.release).pipe(
    Effect.flatMap((module) =>
      Effect.acquireRelease(
        Effect.sync(() => P.openFile(module, bytes)),
        (file) => Effect.sync(() => P.closeFile(module, file))
      ).pipe(
        Effect.flatMap((file) => {
          const load = () => module.FPDF_LoadCustomDocument(file, password ?? "")
          return Effect.acquireRelease(
            Effect.suspend((): Effect.Effect<OpenDocument, PdfPasswordRequired | PdfInvalid> => {
              const document = load()
              if (document !== 0) {
                return Effect.succeed(
                  new OpenDocument(
                    module,
                    module.FPDF_GetPageCount(document),
                    document,
                    load,
                    documentFigures(bytes),
                    structure && StructTree.isTagged(module, document),
                    lazyType3Fonts(bytes)
                  )
                )
              }
              const code = module.FPDF_GetLastError()
              return code === passwordError
                ? Effect.fail(new PdfPasswordRequired({ wrongPassword: password !== undefined }))
                : Effect.fail(new PdfInvalid({ reason: reasons[code] ?? `PDFium error ${code}` }))
            }),
            (open) => Effect.sync(() => open.close())
          )
        })
      )
    ),
    Effect.filterOrFail(
      (open) => open.pages > 0,
      () => new PdfInvalid({ reason: "The document has no pages" })
    )
  )

/** The title from the document information dictionary, when it has a usable one. */
export const title = (open: OpenDocument): Effect.Effect<string | undefined> =>
  Effect.sync(() => {
    const value = P.readString(open.module, (buffer, length) =>
      open.module.FPDF_GetMetaText(open.document, "Title", buffer, length)).trim()
    return value === "" ? undefined : value
  })

/** Bookmarks deeper or more numerous than this are a malformed (or hostile) outline. */
const maxOutlineDepth = 32
const maxOutlineEntries = 100_000

/** Where a bookmark leads: its page (1-based) and, when the destination gives one, its top (PDF space). */
const destination = (open: OpenDocument, bookmark: number): { page: number; top: number | undefined } | undefined => {
  const m = open.module
  let dest = m.FPDFBookmark_GetDest(open.document, bookmark)
  if (dest === 0) {
    const action = m.FPDFBookmark_GetAction(bookmark)
    if (action !== 0) dest = m.FPDFAction_GetDest(open.document, action)
  }
  if (dest === 0) return undefined
  const index = m.FPDFDest_GetDestPageIndex(open.document, dest)
  if (index < 0) return undefined
  return P.withBuffer(m, 24, (out) => {
    const ok = m.FPDFDest_GetLocationInPage(dest, out, out + 4, out + 8, out + 12, out + 16, out + 20)
    const [, hasY] = P.ints(m, out, 2)
    const y = P.floats(m, out + 16, 1)[0]!
    return { page: index + 1, top: ok && hasY ? y : undefined }
  })
}

/** The bookmarks flattened with their depth and resolved to pages; an unreadable outline is none. */
export const outline = (open: OpenDocument): Effect.Effect<Array<OutlineEntry>> => Effect.sync(() => outlineOf(open))

const outlineOf = (open: OpenDocument): Array<OutlineEntry> => {
  const m = open.module
  const entries: Array<OutlineEntry> = []
  const seen = new Set<number>()
  const visit = (first: number, level: number) => {
    for (let bookmark = first; bookmark !== 0; bookmark = m.FPDFBookmark_GetNextSibling(open.document, bookmark)) {
      if (seen.has(bookmark) || seen.size >= maxOutlineEntries) return
      seen.add(bookmark)
      const title = P.readString(m, (buffer, length) => m.FPDFBookmark_GetTitle(bookmark, buffer, length))
      const target = destination(open, bookmark)
      if (target !== undefined && title.trim() !== "") entries.push({ title, level, ...target })
      if (level < maxOutlineDepth) visit(m.FPDFBookmark_GetFirstChild(open.document, bookmark), level + 1)
    }
  }
  visit(m.FPDFBookmark_GetFirstChild(open.document, 0), 1)
  return entries
}

/** The outline's `top` is in PDF space; the layout works top-down from the page's top. */
export const outlineTopDown = (entries: ReadonlyArray<OutlineEntry>, heights: ReadonlyMap<number, number>) =>
  entries.map((entry) => {
    const height = heights.get(entry.page)
    return entry.top === undefined || height === undefined ? entry : { ...entry, top: height - entry.top }
  })

export interface PageContent {
  readonly width: number
  readonly height: number
  readonly items: Array<TextItem>
  readonly figures: Array<PlacedFigure>
  /** Figures not made yet: being made off this thread, or copies still checked (see `settleFigures`). */
  readonly pending: ReadonlyArray<PendingFigure>
  /** Figures of a tagged page's artifacts, standing in `figures` unmade (see `makeDeferred`). */
  readonly deferred: ReadonlyArray<DeferredFigure>
  /** Share of the page area covered by images. */
  readonly imageCoverage: number
  /** Characters that are not text, of fonts that give no letter or digit (see `fontJunk`). */
  readonly junk: number
  /** Thin paths: a table's rules. */
  readonly rules: ReadonlyArray<Rule>
  /** Shaded boxes and frames a listing may be set on. */
  readonly panels: ReadonlyArray<Box>
  /** The page's structure tree and its runs' marked content, when the document is tagged and the page has a tree. */
  readonly tagged: TaggedContent | undefined
}

/** Runs `f` on the loaded page, closed afterwards; a page PDFium cannot load is a `PdfPageFailed`. */
const withPage = <A>(
  open: OpenDocument,
  pageNumber: number,
  f: (page: number) => A
): Either.Either<A, PdfPageFailed> => {
  const c = open.module.direct
  const page = c.FPDF_LoadPage(open.document, pageNumber - 1)
  if (page === 0) return Either.left(new PdfPageFailed({ page: pageNumber, reason: "PDFium could not load the page" }))
  try {
    return Either.right(f(page))
  } finally {
    c.FPDF_ClosePage(page)
  }
}

/**
 * Reads one page: its text items in top-down page coordinates and, when asked (EPUB) or when the
 * text layer is empty (a scan?), the images it paints.
 */
export const readPage = (
  open: OpenDocument,
  pageNumber: number,
  options: { readonly figures: boolean }
): Either.Either<PageContent, PdfPageFailed> =>
  withPage(open, pageNumber, (page) => {
    const m = open.module
    const width = m.direct.FPDF_GetPageWidthF(page)
    const height = m.direct.FPDF_GetPageHeightF(page)
    const tree = open.tagged ? StructTree.readTree(m, page) : []
    const marked = tree.length > 0 ? StructTree.markedContent(m) : undefined
    const paths = pagePaths(m, page, width, height)
    const text = pageText(m, page, width, height, marked, ruledSpans(paths.rules, width), open.type3Fonts)
    const tagged = text.mcids === undefined ? undefined : { tree, items: text.items.slice(), mcids: text.mcids }
    text.items.push(...shapeBullets(paths.shapes, text.items))
    const empty = !text.items.some((item) => /[\p{L}\p{N}]/u.test(item.text))
    const images = options.figures || empty
      ? pageFigures(m, page, width, height, options.figures ? open.figures : undefined, marked)
      : { figures: [], imageCoverage: 0, pending: [], deferred: [] }
    return {
      width,
      height,
      items: text.items,
      junk: text.junk,
      rules: paths.rules,
      panels: paths.panels,
      tagged,
      ...images
    }
  })

/**
 * The page's figures once its pending ones are made: one that could not be (a copy that failed
 * its check, samples zlib could not read) is decoded from the page again (the document is still
 * open), or dropped with a warning if the page cannot be loaded any more.
 */
export const settleFigures = (
  open: OpenDocument,
  pageNumber: number,
  content: PageContent
): Effect.Effect<{ readonly content: PageContent; readonly failed: PdfPageFailed | undefined }> =>
  content.pending.length === 0
    ? Effect.succeed({ content, failed: undefined })
    : Effect.map(Effect.promise(() => Promise.all(content.pending.map((pending) => pending.figure))), (made) => {
      const failed = content.pending.filter((_, i) => made[i] === undefined)
      const decoded = failed.length === 0 ? Either.right([]) : withPage(
        open,
        pageNumber,
        (page) => failed.map((pending) => decodedAt(open.module, page, pending.path))
      )
      const replacements = new Map<PlacedFigure, Document.Figure | undefined>(
        content.pending.map((pending, i) => [pending.placed, made[i]])
      )
      failed.forEach((pending, i) =>
        replacements.set(pending.placed, Either.isRight(decoded) ? decoded.right[i] : undefined)
      )
      const figures = content.figures.flatMap((placed) => {
        if (!replacements.has(placed)) return [placed]
        const figure = replacements.get(placed)
        return figure === undefined ? [] : [{ ...placed, figure }]
      })
      return {
        content: { ...content, figures, pending: [] },
        failed: Either.isLeft(decoded) ? decoded.left : undefined
      }
    })

/**
 * The page's content with its deferred figures made (the page loaded again), as its other figures
 * are: when its structure tree is not what it is read by, its artifacts are figures like any other.
 */
export const makeDeferred = (
  open: OpenDocument,
  pageNumber: number,
  content: PageContent
): Effect.Effect<{ readonly content: PageContent; readonly failed: PdfPageFailed | undefined }> => {
  if (content.deferred.length === 0) return Effect.succeed({ content, failed: undefined })
  const made = withPage(
    open,
    pageNumber,
    (page) => content.deferred.map(({ path }) => figureAt(open.module, page, path, pageNumber, open.figures))
  )
  const deferred = new Set(content.deferred.map(({ placed }) => placed))
  if (Either.isLeft(made)) {
    const figures = content.figures.filter((placed) => !deferred.has(placed))
    return Effect.succeed({ content: { ...content, figures, deferred: [] }, failed: made.left })
  }
  const ready = new Map(content.deferred.map(({ placed }, i) => [placed, made.right[i]]))
  const pending = content.deferred.flatMap(({ path, placed }, i) => {
    const figure = made.right[i]
    return figure instanceof Promise ? [{ placed, path, figure }] : []
  })
  const figures = content.figures.flatMap((placed) => {
    if (!ready.has(placed)) return [placed]
    const figure = ready.get(placed)
    return figure === undefined ? [] : figure instanceof Promise ? [placed] : [{ ...placed, figure }]
  })
  return settleFigures(open, pageNumber, {
    ...content,
    figures,
    pending: [...content.pending, ...pending],
    deferred: []
  })
}

/** Dots per inch for OCR: what tesseract reads best. */
const ocrDpi = 300
/** Rows of a page drawn at once for OCR (see `render`). */
const bandRows = 256
/** Caps the rendering so a poster-sized page does not take gigabytes. */
const maxOcrPixels = 4200

/** A page rendered for OCR: a grey PNG file, and the scale from page points to pixels. */
export interface Rendering {
  readonly image: Uint8Array
  readonly scale: number
}

/**
 * The rows of the last rendering (each led by its PNG filter byte), kept for the next: page-sized buffers
 * freed per page stay in the C allocator's arenas and raise the RSS (README).
 */
let rows = new Uint8Array(0)

/** Renders the page in grey at `ocrDpi` (annotations included) as a PNG, deflated at the fastest level. */
export const render = (open: OpenDocument, pageNumber: number): Either.Either<Rendering, PdfPageFailed> =>
  withPage(open, pageNumber, (page) => {
    const m = open.module
    const width = m.direct.FPDF_GetPageWidthF(page)
    const height = m.direct.FPDF_GetPageHeightF(page)
    const scale = Math.min(ocrDpi / 72, maxOcrPixels / Math.max(width, height))
    // 792 * (300 / 72) is 3300.0000000000005 in floating point: a plain ceil adds a row of
    // pixels, which makes PDFium resample a 300 dpi scan and blurs what tesseract reads.
    const pixels = (points: number) => Math.max(1, Math.ceil(points * scale - 1e-6))
    const w = pixels(width)
    const h = pixels(height)
    // In bands, as PDFium's memory never shrinks back: a band's pixels differ from the whole page's
    // only at its edges, a few levels apart, which OCR does not notice.
    const band = Math.min(h, bandRows)
    const bitmap = m.FPDFBitmap_Create(w, band, 0)
    try {
      const size = (w + 1) * h
      if (rows.length < size) rows = new Uint8Array(size)
      const stride = m.FPDFBitmap_GetStride(bitmap)
      for (let top = 0, o = 0; top < h; top += band) {
        m.FPDFBitmap_FillRect(bitmap, 0, 0, w, band, 0xFFFFFFFF)
        // FPDF_ANNOT: form fields and stamps are part of what a reader sees.
        m.FPDF_RenderPageBitmap(bitmap, page, 0, -top, w, h, 0, 0x01)
        // Read after drawing: the module's memory may have grown (and its views moved) meanwhile.
        const start = m.FPDFBitmap_GetBuffer(bitmap)
        const bgrx = m.pdfium.HEAPU8.subarray(start, start + stride * band)
        for (let y = 0; y < Math.min(band, h - top); y++) {
          rows[o++] = 0
          for (let x = 0, i = y * stride; x < w; x++, i += 4, o++) {
            // BGRx to luma (ITU-R BT.601 weights, integer arithmetic).
            rows[o] = (bgrx[i]! * 29 + bgrx[i + 1]! * 150 + bgrx[i + 2]! * 77) >> 8
          }
        }
      }
      return { image: pngAround(Zlib.deflateSync(rows.subarray(0, size), { level: 1 }), w, h, 1), scale }
    } finally {
      m.FPDFBitmap_Destroy(bitmap)
    }
  })
