/** Images a page paints: their placement (a scan?) and EPUB figures (copied, inflated or decoded; made once). */
import * as Crypto from "node:crypto"
import type * as Document from "../Document.js"
import { copied } from "./copiedImages.js"
import { decoded, decodedOffThread, maxDecodedPixels } from "./decodedImages.js"
import type { ImageObject } from "./imageObject.js"
import { describedIn, imageObject, rawDataOrKnown } from "./imageObject.js"
import { describedIndexed } from "./indexedImages.js"
import { inflatable, inflated, inflatedOffThread } from "./inflatedImages.js"
import type { PlacedFigure } from "./layout.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import * as PdfObjects from "./pdfObjects.js"
import * as StreamDictionaries from "./streamDictionaries.js"
import type { MarkedFigure } from "./tagged/model.js"
import { artifact } from "./tagged/model.js"

const imageType = 3
const formType = 5
/** Images smaller than this (either side, in pixels) are rules, bullets or noise, not figures. */
const minFigurePixels = 48
/** Own samples (copied or inflated) are kept up to this size a side: larger ones are scaled down. */
const maxKeptPixels = 2 * maxDecodedPixels
/** Form XObjects nested deeper than this are not searched for images. */
const maxFormDepth = 8
/**
 * Bytes of pixels being made into figures off the conversion's thread (libuv's pool) at most, so
 * they do not pile up; past it a figure is made on the thread, which then waits for it. A count
 * instead sent a page of many small figures to the thread.
 */
const maxOffThreadBytes = 32 * 1024 * 1024

/** A figure, or one being made off this thread (`undefined` then: decode it at its place instead). */
export type Made = Document.Figure | Promise<Document.Figure | undefined>

/** What a document's figures share: its stream dictionaries, and the figures already made of its images. */
export interface DocumentFigures {
  readonly dictionaries: StreamDictionaries.StreamDictionaries
  /** The file's objects, read for an Indexed image's palette. */
  readonly objects: PdfObjects.PdfObjects
  readonly made: Map<string, Made | undefined>
  offThread: number
  offThreadBytes: number
}

/** The figures context of a document whose bytes are `pdf` (`encrypted`: see `PdfObjects.make`). */
export const documentFigures = (pdf: Uint8Array, encrypted?: boolean): DocumentFigures => ({
  dictionaries: StreamDictionaries.make(pdf),
  objects: PdfObjects.make(pdf, encrypted),
  made: new Map(),
  offThread: 0,
  offThreadBytes: 0
})

/** What makes a figure what it is: its stream's bytes and dictionary, and what they say of the image. */
const identity = (image: ImageObject, data: Uint8Array, dictionary: string | undefined): string | undefined => {
  if (dictionary === undefined) return undefined
  const hash = Crypto.createHash("sha256").update(data).digest("base64")
  return `${hash} ${image.width}x${image.height} ${image.bitsPerPixel} ${image.colourSpace} ${dictionary}`
}

/** Where an image's stream is in the file: the same place is the same stream, known without hashing it again. */
const placeOf = (context: DocumentFigures, data: Uint8Array): string | undefined => {
  const start = context.dictionaries.startOf(data)
  return start === undefined ? undefined : `@${start} ${data.byteLength}`
}

/** Makes a figure of `bytes` of pixels off this thread while `maxOffThreadBytes` allows (or none is), on it otherwise. */
const offThread = (
  context: DocumentFigures,
  bytes: number,
  there: () => Promise<Document.Figure | undefined> | undefined,
  here: () => Document.Figure | undefined
): Made | undefined => {
  if (context.offThread > 0 && context.offThreadBytes + bytes > maxOffThreadBytes) return here()
  const made = there()
  if (made === undefined) return undefined
  context.offThread++
  context.offThreadBytes += bytes
  return made.catch(() => undefined).finally(() => {
    context.offThread--
    context.offThreadBytes -= bytes
  })
}

/** The most bytes of pixels PDFium's decoding of an image of `width` x `height` gives (BGRA, scaled down). */
const decodedBytes = (width: number, height: number): number => {
  const scale = Math.min(1, maxDecodedPixels / Math.max(width, height))
  return Math.ceil(width * scale) * Math.ceil(height * scale) * 4
}

/** The figure of an image object (see the module's comment); `undefined` for none (too small, unreadable). */
const figureOf = (m: Pdfium, object: number, page: number, context: DocumentFigures): Made | undefined => {
  const decode = (bytes = decodedBytes(maxDecodedPixels, maxDecodedPixels)) =>
    offThread(
      context,
      bytes,
      () => decodedOffThread(m, object, minFigurePixels),
      () => decoded(m, object, minFigurePixels)
    )
  // A stream painted again (a slide's background on every page) is found by its place, not copied.
  const raw = rawDataOrKnown(m, object, (view) => {
    const place = placeOf(context, view)
    return place !== undefined && context.made.has(place) ? { made: context.made.get(place) } : undefined
  })
  if (raw?._tag === "Known") return raw.known.made
  const data = raw?.data
  const dictionary = data === undefined ? undefined : context.dictionaries.dictionaryOf(data)
  const image = (dictionary === undefined
    ? undefined
    : describedIn(dictionary) ?? describedIndexed(dictionary, context.objects)) ?? imageObject(m, object, page)
  if (image === undefined) return decode()
  if (image.width < minFigurePixels || image.height < minFigurePixels) return undefined
  if (data === undefined) return decode(decodedBytes(image.width, image.height))
  const key = identity(image, data, dictionary)
  const place = key === undefined ? undefined : placeOf(context, data)
  const remember = (made: Made | undefined) => {
    if (key !== undefined) context.made.set(key, made)
    if (place !== undefined) context.made.set(place, made)
    return made
  }
  if (key !== undefined && context.made.has(key)) return remember(context.made.get(key))
  const rows = image.filter === "FlateDecode" ? context.dictionaries.rowsOf(data) : undefined
  const copy = copied(image, data, maxKeptPixels, rows)
  // A copy still to be checked is not shared: where it fails, it is decoded at its place.
  if (copy?.valid !== undefined) return copy.valid.then((valid) => valid ? copy.figure : undefined)
  const samples = image.width * image.height * image.bitsPerPixel / 8
  const made = copy?.figure ?? (inflatable(image, dictionary, maxKeptPixels)
    ? offThread(context, samples, () => inflatedOffThread(image, data), () => inflated(image, data)) ??
      decode(decodedBytes(image.width, image.height))
    : decode(decodedBytes(image.width, image.height)))
  return remember(made)
}

/** A figure not made yet: if it comes out `undefined`, the image at `path` is decoded there (`decodedAt`). */
export interface PendingFigure {
  readonly placed: PlacedFigure
  /** The object's index on the page, then in each form it is nested in. */
  readonly path: ReadonlyArray<number>
  readonly figure: Promise<Document.Figure | undefined>
}

/** An image a tagged page marks as an artifact: made only if the page is not read by its tree (`figureAt`). */
export interface DeferredFigure {
  readonly placed: PlacedFigure
  readonly path: ReadonlyArray<number>
}

/** Stands in the page's figures for a pending or deferred one until it is made. */
const notYet: Document.Figure = { _tag: "Figure", data: new Uint8Array(0), mediaType: "image/png", width: 0, height: 0 }

const objectAt = (m: Pdfium, page: number, path: ReadonlyArray<number>): number => {
  let object = m.FPDFPage_GetObject(page, path[0]!)
  for (const index of path.slice(1)) object = m.FPDFFormObj_GetObject(object, index)
  return object
}

/** The figure of the image object at `path` on a loaded page (see `DeferredFigure`). */
export const figureAt = (
  m: Pdfium,
  page: number,
  path: ReadonlyArray<number>,
  pageNumber: number,
  context: DocumentFigures
): Made | undefined => {
  const object = objectAt(m, page, path)
  return object === 0 ? undefined : figureOf(m, object, pageNumber, context)
}

/** The largest share of a loaded page an image covers and, given `context`, its figures placed top-down. */
export const pageFigures = (
  m: Pdfium,
  page: number,
  width: number,
  height: number,
  context: DocumentFigures | undefined,
  /** Given (a tagged page): each figure is a `MarkedFigure` with its object's marked content. */
  marked?: (object: number) => number
): {
  readonly figures: Array<PlacedFigure>
  readonly imageCoverage: number
  readonly pending: Array<PendingFigure>
  readonly deferred: Array<DeferredFigure>
} =>
  P.withBuffer(m, 16, (out) => {
    const figures: Array<PlacedFigure> = []
    const pending: Array<PendingFigure> = []
    const deferred: Array<DeferredFigure> = []
    let imageCoverage = 0
    // An image in a form is tagged by the marked content around the form on the page.
    const visit = (count: number, get: (index: number) => number, path: ReadonlyArray<number>, outer: number) => {
      for (let i = 0; i < count; i++) {
        const object = get(i)
        const tagObject = path.length === 0 ? object : outer
        const type = m.direct.FPDFPageObj_GetType(object)
        if (type === formType && path.length < maxFormDepth) {
          visit(m.FPDFFormObj_CountObjects(object), (j) => m.FPDFFormObj_GetObject(object, j), [...path, i], tagObject)
        }
        if (type !== imageType || !m.direct.FPDFPageObj_GetBounds(object, out, out + 4, out + 8, out + 12)) continue
        const [left, bottom, right, top] = P.floats(m, out, 4)
        const box = { x0: left!, x1: right!, y0: height - top!, y1: height - bottom! }
        const visibleWidth = Math.min(box.x1, width) - Math.max(box.x0, 0)
        const visibleHeight = Math.min(box.y1, height) - Math.max(box.y0, 0)
        if (visibleWidth > 0 && visibleHeight > 0) {
          imageCoverage = Math.max(imageCoverage, (visibleWidth * visibleHeight) / (width * height))
        }
        if (context === undefined) continue
        const mcid = marked?.(tagObject)
        if (mcid === artifact) {
          const placed: MarkedFigure = { figure: notYet, ...box, mcid }
          figures.push(placed)
          deferred.push({ placed, path: [...path, i] })
          continue
        }
        const made = figureOf(m, object, page, context)
        if (made === undefined) continue
        const ready = !(made instanceof Promise)
        const figure = ready ? made : notYet
        const placed: PlacedFigure | MarkedFigure = mcid === undefined ? { figure, ...box } : { figure, ...box, mcid }
        figures.push(placed)
        if (!ready) pending.push({ placed, path: [...path, i], figure: made })
      }
    }
    visit(m.direct.FPDFPage_CountObjects(page), (i) => m.direct.FPDFPage_GetObject(page, i), [], 0)
    return { figures, imageCoverage, pending, deferred }
  })

/** The image object at `path` on a loaded page (see `PendingFigure`) decoded as a PNG figure. */
export const decodedAt = (m: Pdfium, page: number, path: ReadonlyArray<number>): Document.Figure | undefined => {
  const object = objectAt(m, page, path)
  return object === 0 ? undefined : decoded(m, object, minFigurePixels)
}
