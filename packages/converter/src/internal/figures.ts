/**
 * Images a page paints: their placement (how much of the page they cover tells a scan) and, for
 * EPUB figures, their bytes: copied from the PDF where they make a JPEG or PNG file as they are,
 * decoded to PNG otherwise.
 */
import type * as Document from "../Document.js"
import { copied } from "./copiedImages.js"
import type { PlacedFigure } from "./layout.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import type { Channels } from "./png.js"
import { downscale, encodePng } from "./png.js"
import type { StreamDictionaries } from "./streamDictionaries.js"
import type { MarkedFigure } from "./tagged/model.js"

const imageObject = 3
const formObject = 5
/** Images smaller than this (either side, in pixels) are rules, bullets or noise, not figures. */
const minFigurePixels = 48
/** Decoded figures are scaled down to this many pixels on the longer side to bound EPUB size and memory. */
const maxFigurePixels = 1400
/**
 * An image's own bytes are copied up to this size on its longer side: they are already compressed
 * (an EPUB gets no larger than the PDF's own image); larger ones are decoded and scaled down.
 */
const copiedSize = { min: minFigurePixels, max: 2 * maxFigurePixels }
/** Form XObjects nested deeper than this are not searched for images. */
const maxFormDepth = 8

/**
 * An image object's decoded pixels (FPDFImageObj_GetBitmap: grey, BGR, BGRx or BGRA) as a PNG
 * figure of as few channels as the bitmap has (grey, RGB, or RGBA when it has alpha).
 */
const decodedFigure = (m: Pdfium, object: number): Document.Figure | undefined => {
  const bitmap = m.FPDFImageObj_GetBitmap(object)
  if (bitmap === 0) return undefined
  try {
    const width = m.FPDFBitmap_GetWidth(bitmap)
    const height = m.FPDFBitmap_GetHeight(bitmap)
    if (width < minFigurePixels || height < minFigurePixels) return undefined
    const format = m.FPDFBitmap_GetFormat(bitmap)
    const sourceChannels = format === 1 ? 1 : format === 2 ? 3 : format === 3 || format === 4 ? 4 : 0
    if (sourceChannels === 0) return undefined
    const channels: Channels = format === 1 ? 1 : format === 4 ? 4 : 3
    const stride = m.FPDFBitmap_GetStride(bitmap)
    const buffer = m.FPDFBitmap_GetBuffer(bitmap)
    const source = m.pdfium.HEAPU8.subarray(buffer, buffer + stride * height)
    const pixels = new Uint8Array(width * height * channels)
    for (let y = 0; y < height; y++) {
      if (channels === 1) {
        pixels.set(source.subarray(y * stride, y * stride + width), y * width)
        continue
      }
      for (let x = 0; x < width; x++) {
        const i = y * stride + x * sourceChannels
        const o = (y * width + x) * channels
        pixels[o] = source[i + 2]!
        pixels[o + 1] = source[i + 1]!
        pixels[o + 2] = source[i]!
        if (channels === 4) pixels[o + 3] = source[i + 3]!
      }
    }
    const scale = Math.min(1, maxFigurePixels / Math.max(width, height))
    const w = Math.max(1, Math.round(width * scale))
    const h = Math.max(1, Math.round(height * scale))
    const scaled = scale === 1 ? pixels : downscale(pixels, width, height, w, h, channels)
    return { _tag: "Figure", data: encodePng(scaled, w, h, channels), mediaType: "image/png", width: w, height: h }
  } finally {
    m.FPDFBitmap_Destroy(bitmap)
  }
}

/**
 * A figure copied from a Flate stream whose check has not answered yet: if it answers `false`,
 * the image at `path` is decoded from the page instead (`decodedAt`).
 */
export interface FigureCheck {
  readonly placed: PlacedFigure
  /** The image object's index on the page, then in each form it is nested in. */
  readonly path: ReadonlyArray<number>
  readonly valid: Promise<boolean>
}

/**
 * The images of a loaded page: the largest share of the page one covers and, when the document's
 * `dictionaries` are given, each as a figure placed in top-down page coordinates: its own bytes when they can be copied
 * (some still to be checked: `checks`), its decoded pixels as PNG otherwise.
 */
export const pageFigures = (
  m: Pdfium,
  page: number,
  width: number,
  height: number,
  /** Given (the figures are wanted): what the document's stream dictionaries say of an image's rows. */
  dictionaries: StreamDictionaries | undefined,
  /** Given (a tagged page): each figure is a `MarkedFigure` with its object's marked content. */
  marked?: (object: number) => number
): {
  readonly figures: Array<PlacedFigure>
  readonly imageCoverage: number
  readonly checks: Array<FigureCheck>
} =>
  P.withBuffer(m, 16, (out) => {
    const figures: Array<PlacedFigure> = []
    const checks: Array<FigureCheck> = []
    let imageCoverage = 0
    // An image in a form is tagged by the marked content around the form on the page.
    const visit = (count: number, get: (index: number) => number, path: ReadonlyArray<number>, outer: number) => {
      for (let i = 0; i < count; i++) {
        const object = get(i)
        const tagObject = path.length === 0 ? object : outer
        const type = m.FPDFPageObj_GetType(object)
        if (type === formObject && path.length < maxFormDepth) {
          visit(m.FPDFFormObj_CountObjects(object), (j) => m.FPDFFormObj_GetObject(object, j), [...path, i], tagObject)
        }
        if (type !== imageObject || !m.FPDFPageObj_GetBounds(object, out, out + 4, out + 8, out + 12)) continue
        const [left, bottom, right, top] = P.floats(m, out, 4)
        const box = { x0: left!, x1: right!, y0: height - top!, y1: height - bottom! }
        const visibleWidth = Math.min(box.x1, width) - Math.max(box.x0, 0)
        const visibleHeight = Math.min(box.y1, height) - Math.max(box.y0, 0)
        if (visibleWidth > 0 && visibleHeight > 0) {
          imageCoverage = Math.max(imageCoverage, (visibleWidth * visibleHeight) / (width * height))
        }
        if (dictionaries === undefined) continue
        const copy = copied(m, object, page, copiedSize, dictionaries)
        if (copy === "too small") continue
        const figure = copy?.figure ?? decodedFigure(m, object)
        if (figure === undefined) continue
        const placed: PlacedFigure | MarkedFigure = marked === undefined
          ? { figure, ...box }
          : { figure, ...box, mcid: marked(tagObject) }
        figures.push(placed)
        if (copy?.valid !== undefined) checks.push({ placed, path: [...path, i], valid: copy.valid })
      }
    }
    visit(m.FPDFPage_CountObjects(page), (i) => m.FPDFPage_GetObject(page, i), [], 0)
    return { figures, imageCoverage, checks }
  })

/** The image object at `path` on a loaded page (see `FigureCheck`) decoded as a PNG figure. */
export const decodedAt = (m: Pdfium, page: number, path: ReadonlyArray<number>): Document.Figure | undefined => {
  let object = m.FPDFPage_GetObject(page, path[0]!)
  for (const index of path.slice(1)) object = m.FPDFFormObj_GetObject(object, index)
  return object === 0 ? undefined : decodedFigure(m, object)
}
