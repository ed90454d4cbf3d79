/**
 * Images a page paints: their placement (how much of the page they cover tells a scan) and, for
 * EPUB figures, their bytes: copied from the PDF where they make a JPEG or PNG file as they are,
 * decoded to PNG otherwise.
 */
import * as Zlib from "node:zlib"
import type * as Document from "../Document.js"
import { readFrame } from "./jpeg.js"
import type { PlacedFigure } from "./layout.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import type { Channels } from "./png.js"
import { downscale, encodePng, pngAround } from "./png.js"

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
const maxCopiedPixels = 2 * maxFigurePixels
/** Form XObjects nested deeper than this are not searched for images. */
const maxFormDepth = 8
/** PDFium's colour spaces an image file shows as they are: grey and RGB (device, calibrated or ICC-based). */
const copiableColourSpaces = new Set([1, 2, 4, 5, 7])

const ascii = new TextDecoder("latin1")

/** The name of an image's only filter (`DCTDecode` for a JPEG), or `undefined` when it has none or several. */
const onlyFilter = (m: Pdfium, object: number): string | undefined => {
  if (m.FPDFImageObj_GetImageFilterCount(object) !== 1) return undefined
  const length = m.FPDFImageObj_GetImageFilter(object, 0, 0, 0)
  if (length <= 1 || length > 64) return undefined
  return P.withBuffer(m, length, (buffer) => {
    m.FPDFImageObj_GetImageFilter(object, 0, buffer, length)
    return ascii.decode(m.pdfium.HEAPU8.subarray(buffer, buffer + length - 1))
  })
}

interface ImageMetadata {
  readonly width: number
  readonly height: number
  readonly bitsPerPixel: number
  readonly colourSpace: number
}

/** What PDFium reads of an image on `page` (`FPDF_IMAGEOBJ_METADATA`), or `undefined`. */
const metadata = (m: Pdfium, object: number, page: number): ImageMetadata | undefined =>
  P.withBuffer(m, 28, (out) => {
    if (!m.FPDFImageObj_GetImageMetadata(object, page, out)) return undefined
    const [width, height] = P.ints(m, out, 2)
    return { width: width!, height: height!, bitsPerPixel: P.int(m, out + 16), colourSpace: P.int(m, out + 20) }
  })

/** The image's stream as the PDF holds it (still compressed). */
const rawData = (m: Pdfium, object: number): Uint8Array | undefined => {
  const size = m.FPDFImageObj_GetImageDataRaw(object, 0, 0)
  if (size <= 0) return undefined
  return P.withBuffer(m, size, (buffer) =>
    m.FPDFImageObj_GetImageDataRaw(object, buffer, size) === size
      ? m.pdfium.HEAPU8.slice(buffer, buffer + size)
      : undefined)
}

/** A JPEG (DCTDecode) as it is, when its own header says a reader can show it: 8-bit grey or RGB. */
const copiedJpeg = (data: Uint8Array): Document.Figure | undefined => {
  const frame = readFrame(data)
  if (frame === undefined || !frame.common || frame.precision !== 8) return undefined
  if (frame.components !== 1 && frame.components !== 3) return undefined
  return { _tag: "Figure", data, mediaType: "image/jpeg", width: frame.width, height: frame.height }
}

/**
 * A FlateDecode image whose rows carry PNG predictors (`/Predictor` 10-15, which PDF producers
 * write for screenshots and diagrams): its stream is a PNG's image data as it stands, so the PNG
 * is built around it, with no byte recompressed. The stream is inflated once, to check that it
 * holds one filter byte and the pixels for every row.
 */
const copiedFlate = (data: Uint8Array, image: ImageMetadata): Document.Figure | undefined => {
  const channels = image.bitsPerPixel / 8
  if (channels !== 1 && channels !== 3) return undefined
  const row = 1 + image.width * channels
  const expected = image.height * row
  let rows: Uint8Array
  try {
    // Node's zlib, several times faster than fflate's; it stops one byte past the size expected.
    rows = Zlib.inflateSync(data, { maxOutputLength: expected + 1 })
  } catch {
    // Not a stream of that size that zlib reads whole (PDFium is more lenient): decoded instead.
    return undefined
  }
  if (rows.length !== expected) return undefined
  for (let at = 0; at < rows.length; at += row) if (rows[at]! > 4) return undefined
  return {
    _tag: "Figure",
    data: pngAround(data, image.width, image.height, channels),
    mediaType: "image/png",
    width: image.width,
    height: image.height
  }
}

/**
 * An image as its own compressed bytes, when they make a file a reader can show: a JPEG, or a
 * Flate stream with PNG predictors wrapped as a PNG. `"too small"` for an image under the figure
 * size; `undefined` when it must be decoded instead (another filter or several, CMYK, Lab,
 * indexed colours, another depth, too large).
 */
const copied = (m: Pdfium, object: number, page: number): Document.Figure | "too small" | undefined => {
  const filter = onlyFilter(m, object)
  if (filter !== "DCTDecode" && filter !== "FlateDecode") return undefined
  const image = metadata(m, object, page)
  if (image === undefined || !copiableColourSpaces.has(image.colourSpace)) return undefined
  if (image.width < minFigurePixels || image.height < minFigurePixels) return "too small"
  if (Math.max(image.width, image.height) > maxCopiedPixels) return undefined
  const data = rawData(m, object)
  if (data === undefined) return undefined
  return filter === "DCTDecode" ? copiedJpeg(data) : copiedFlate(data, image)
}

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

/** An image object as an EPUB figure: its own bytes when they can be copied, the decoded pixels as PNG otherwise. */
const toFigure = (m: Pdfium, object: number, page: number): Document.Figure | undefined => {
  const figure = copied(m, object, page)
  if (figure === "too small") return undefined
  return figure ?? decodedFigure(m, object)
}

/**
 * The images of a loaded page: the largest share of the page one covers and, when `withPixels`,
 * each as a figure placed in top-down page coordinates.
 */
export const pageFigures = (
  m: Pdfium,
  page: number,
  width: number,
  height: number,
  withPixels: boolean
): { readonly figures: Array<PlacedFigure>; readonly imageCoverage: number } =>
  P.withBuffer(m, 16, (out) => {
    const figures: Array<PlacedFigure> = []
    let imageCoverage = 0
    const visit = (count: number, get: (index: number) => number, depth: number) => {
      for (let i = 0; i < count; i++) {
        const object = get(i)
        const type = m.FPDFPageObj_GetType(object)
        if (type === formObject && depth < maxFormDepth) {
          visit(m.FPDFFormObj_CountObjects(object), (j) => m.FPDFFormObj_GetObject(object, j), depth + 1)
        }
        if (type !== imageObject || !m.FPDFPageObj_GetBounds(object, out, out + 4, out + 8, out + 12)) continue
        const [left, bottom, right, top] = P.floats(m, out, 4)
        const box = { x0: left!, x1: right!, y0: height - top!, y1: height - bottom! }
        const visibleWidth = Math.min(box.x1, width) - Math.max(box.x0, 0)
        const visibleHeight = Math.min(box.y1, height) - Math.max(box.y0, 0)
        if (visibleWidth > 0 && visibleHeight > 0) {
          imageCoverage = Math.max(imageCoverage, (visibleWidth * visibleHeight) / (width * height))
        }
        if (!withPixels) continue
        const figure = toFigure(m, object, page)
        if (figure !== undefined) figures.push({ figure, ...box })
      }
    }
    visit(m.FPDFPage_CountObjects(page), (i) => m.FPDFPage_GetObject(page, i), 0)
    return { figures, imageCoverage }
  })
