/** A page rendered in grey for OCR, in bands, as a PNG. */
import type * as Either from "effect/Either"
import * as Zlib from "node:zlib"
import type { PdfPageFailed } from "../Converter.js"
import type { OpenDocument } from "./pdfDocument.js"
import { withPage } from "./pdfPage.js"
import { pngAround } from "./png.js"

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
