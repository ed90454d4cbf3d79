/** One page of an open document: its text items, images, rules and structure, and its figures once made. */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { PdfPageFailed } from "../Converter.js"
import type * as Document from "../Document.js"
import { pagePaths, shapeBullets } from "./bullets.js"
import type { DeferredFigure, PendingFigure } from "./figures.js"
import { decodedAt, figureAt, pageFigures } from "./figures.js"
import type { PlacedFigure, TextItem } from "./layout.js"
import type { Box, Rule } from "./layout/model.js"
import { ruledSpans } from "./layout/ruledTables.js"
import { pageText } from "./pageText.js"
import type { OpenDocument } from "./pdfDocument.js"
import * as StructTree from "./structTree.js"
import type { TaggedContent } from "./tagged/model.js"

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
export const withPage = <A>(
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
