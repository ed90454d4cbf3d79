/**
 * Images a page paints: their placement (how much of the page they cover tells a scan) and, for
 * EPUB figures, their pixels as PNG.
 */
import type * as Document from "../Document.js"
import type { PlacedFigure } from "./layout.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import { downscale, encodePng } from "./png.js"

const imageObject = 3
const formObject = 5
/** Images smaller than this (either side, in pixels) are rules, bullets or noise, not figures. */
const minFigurePixels = 48
/** Figures are scaled down to this many pixels on the longer side to bound EPUB size and memory. */
const maxFigurePixels = 1400
/** Form XObjects nested deeper than this are not searched for images. */
const maxFormDepth = 8

/** An image object's decoded pixels (FPDFImageObj_GetBitmap: grey, BGR, BGRx or BGRA) as a PNG figure. */
const toFigure = (m: Pdfium, object: number): Document.Figure | undefined => {
  const bitmap = m.FPDFImageObj_GetBitmap(object)
  if (bitmap === 0) return undefined
  try {
    const width = m.FPDFBitmap_GetWidth(bitmap)
    const height = m.FPDFBitmap_GetHeight(bitmap)
    if (width < minFigurePixels || height < minFigurePixels) return undefined
    const format = m.FPDFBitmap_GetFormat(bitmap)
    const channels = format === 1 ? 1 : format === 2 ? 3 : format === 3 || format === 4 ? 4 : 0
    if (channels === 0) return undefined
    const stride = m.FPDFBitmap_GetStride(bitmap)
    const buffer = m.FPDFBitmap_GetBuffer(bitmap)
    const source = m.pdfium.HEAPU8.subarray(buffer, buffer + stride * height)
    const rgba = new Uint8Array(width * height * 4)
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * stride + x * channels
        const o = (y * width + x) * 4
        if (channels === 1) {
          rgba[o] = rgba[o + 1] = rgba[o + 2] = source[i]!
        } else {
          rgba[o] = source[i + 2]!
          rgba[o + 1] = source[i + 1]!
          rgba[o + 2] = source[i]!
        }
        rgba[o + 3] = format === 4 ? source[i + 3]! : 255
      }
    }
    const scale = Math.min(1, maxFigurePixels / Math.max(width, height))
    if (scale === 1) return { _tag: "Figure", png: encodePng(rgba, width, height), width, height }
    const w = Math.max(1, Math.round(width * scale))
    const h = Math.max(1, Math.round(height * scale))
    return { _tag: "Figure", png: encodePng(downscale(rgba, width, height, w, h), w, h), width: w, height: h }
  } finally {
    m.FPDFBitmap_Destroy(bitmap)
  }
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
        const figure = toFigure(m, object)
        if (figure !== undefined) figures.push({ figure, ...box })
      }
    }
    visit(m.FPDFPage_CountObjects(page), (i) => m.FPDFPage_GetObject(page, i), 0)
    return { figures, imageCoverage }
  })
