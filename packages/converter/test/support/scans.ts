/**
 * Scans made on the spot: a PDF page rendered by the converter's own PDFium rendering, then placed
 * as the only content (an image covering the page) of a new PDF, as a scanner would produce it.
 */
import { Effect } from "effect"
import { PDFDocument } from "pdf-lib"
import * as Pdf from "../../src/internal/pdf.js"

/** Width and height of a PNG file: in its header chunk, after the signature and the chunk's length and type. */
export const pngSize = (png: Uint8Array): readonly [width: number, height: number] => {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  return [view.getUint32(16), view.getUint32(20)]
}

/** The first page of `pdf` as an image-only page, at the resolution the converter renders for OCR. */
export const scanOf = (pdf: Uint8Array): Effect.Effect<Uint8Array> =>
  Effect.gen(function*() {
    const rendering = yield* Effect.scoped(Effect.flatMap(Pdf.open(pdf, undefined), (open) => Pdf.render(open, 1)))
    const [width, height] = pngSize(rendering.image)
    return yield* Effect.promise(async () => {
      const document = await PDFDocument.create()
      const image = await document.embedPng(rendering.image)
      const pageWidth = width / rendering.scale
      const pageHeight = height / rendering.scale
      document.addPage([pageWidth, pageHeight]).drawImage(image, { x: 0, y: 0, width: pageWidth, height: pageHeight })
      return document.save()
    })
  }).pipe(Effect.orDie)
