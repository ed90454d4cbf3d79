/**
 * Scans made on the spot: a PDF page rendered by the converter's own PDFium rendering, then placed
 * as the only content (an image covering the page) of a new PDF, as a scanner would produce it.
 */
import { Effect } from "effect"
import { PDFDocument } from "pdf-lib"
import * as Pdf from "../../src/internal/pdf.js"
import { encodePng } from "../../src/internal/png.js"

/** The first page of `pdf` as an image-only page, at the resolution the converter renders for OCR. */
export const scanOf = (pdf: Uint8Array): Effect.Effect<Uint8Array> =>
  Effect.gen(function*() {
    const rendering = yield* Effect.scoped(Effect.flatMap(Pdf.open(pdf, undefined), (open) => Pdf.render(open, 1)))
    // A binary PGM: "P5\n<w> <h>\n255\n" then one grey byte a pixel.
    const header = new TextDecoder().decode(rendering.image.subarray(0, 32)).split("\n")
    const [width, height] = header[1]!.split(" ").map(Number) as [number, number]
    const offset = header.slice(0, 3).join("\n").length + 1
    const rgba = new Uint8Array(width * height * 4)
    for (let i = 0; i < width * height; i++) {
      const grey = rendering.image[offset + i]!
      rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = grey
      rgba[i * 4 + 3] = 255
    }
    return yield* Effect.promise(async () => {
      const document = await PDFDocument.create()
      const image = await document.embedPng(encodePng(rgba, width, height))
      const pageWidth = width / rendering.scale
      const pageHeight = height / rendering.scale
      document.addPage([pageWidth, pageHeight]).drawImage(image, { x: 0, y: 0, width: pageWidth, height: pageHeight })
      return document.save()
    })
  }).pipe(Effect.orDie)
