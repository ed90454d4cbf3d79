/**
 * EPUB figures decoded by PDFium (`FPDFImageObj_GetBitmap`: any filter and colour space it reads)
 * and written as PNG with as few channels as the bitmap has (grey, RGB, or RGBA when it has
 * alpha), scaled down to bound the book's size and memory.
 */
import type * as Document from "../Document.js"
import { pngRowsOf } from "./bitmaps.js"
import type { Pdfium } from "./pdfium.js"
import type { Channels } from "./png.js"
import { pngOfRows, pngOfRowsOffThread } from "./png.js"

/** Decoded figures are scaled down to this many pixels on the longer side. */
export const maxDecodedPixels = 1400

/** An image's decoded pixels as PNG rows, ready to be compressed. */
interface Pixels {
  readonly rows: Uint8Array
  readonly width: number
  readonly height: number
  readonly channels: Channels
}

/** The image object's pixels, scaled down; `undefined` when PDFium cannot decode it or it is under `minSize` a side. */
const decode = (m: Pdfium, object: number, minSize: number): Pixels | undefined => {
  const bitmap = m.FPDFImageObj_GetBitmap(object)
  if (bitmap === 0) return undefined
  try {
    const width = m.FPDFBitmap_GetWidth(bitmap)
    const height = m.FPDFBitmap_GetHeight(bitmap)
    if (width < minSize || height < minSize) return undefined
    const format = m.FPDFBitmap_GetFormat(bitmap)
    const sourceChannels = format === 1 ? 1 : format === 2 ? 3 : format === 3 || format === 4 ? 4 : 0
    if (sourceChannels === 0) return undefined
    const channels: Channels = format === 1 ? 1 : format === 4 ? 4 : 3
    const stride = m.FPDFBitmap_GetStride(bitmap)
    const buffer = m.FPDFBitmap_GetBuffer(bitmap)
    const bytes = m.pdfium.HEAPU8.subarray(buffer, buffer + stride * height)
    const scale = Math.min(1, maxDecodedPixels / Math.max(width, height))
    const w = Math.max(1, Math.round(width * scale))
    const h = Math.max(1, Math.round(height * scale))
    return {
      rows: pngRowsOf({ bytes, width, height, stride, sourceChannels }, channels, w, h),
      width: w,
      height: h,
      channels
    }
  } finally {
    m.FPDFBitmap_Destroy(bitmap)
  }
}

const figure = (decoded: Pixels, data: Uint8Array): Document.Figure => ({
  _tag: "Figure",
  data,
  mediaType: "image/png",
  width: decoded.width,
  height: decoded.height
})

/** The image object decoded as a PNG figure. */
export const decoded = (m: Pdfium, object: number, minSize: number): Document.Figure | undefined => {
  const pixels = decode(m, object, minSize)
  return pixels && figure(pixels, pngOfRows(pixels.rows, pixels.width, pixels.height, pixels.channels))
}

/** `decoded`, compressed off this thread (PDFium decodes on it). */
export const decodedOffThread = (
  m: Pdfium,
  object: number,
  minSize: number
): Promise<Document.Figure | undefined> | undefined => {
  const pixels = decode(m, object, minSize)
  return pixels &&
    pngOfRowsOffThread(pixels.rows, pixels.width, pixels.height, pixels.channels).then((data) => figure(pixels, data))
}
