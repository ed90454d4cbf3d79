/**
 * EPUB figures copied from the PDF: an image's own compressed bytes, where they make a file a
 * reader shows as it is (a JPEG; a Flate stream with PNG predictors, wrapped as a PNG), instead
 * of decoding the pixels and compressing them again.
 */
import * as Zlib from "node:zlib"
import type * as Document from "../Document.js"
import { readFrame } from "./jpeg.js"
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import { pngAround } from "./png.js"
import type { Rows, StreamDictionaries } from "./streamDictionaries.js"

/**
 * A copied figure, and for a Flate stream the check that its rows do carry PNG predictors: until
 * it answers `true` the figure is only a candidate (`undefined`: nothing to check).
 */
export interface Copy {
  readonly figure: Document.Figure
  readonly valid: Promise<boolean> | undefined
}

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
 * Whether `data` inflates to exactly `rows` rows of `rowLength` bytes, each led by a PNG filter
 * byte (0 to 4). Inflated on libuv's threads a quarter megabyte at a time, so the conversion
 * reads the next pages meanwhile and no whole image is held; a stream zlib cannot read is `false`
 * (the image is then decoded by PDFium, which is more lenient).
 */
export const predictedRows = (data: Uint8Array, rowLength: number, rows: number): Promise<boolean> =>
  new Promise((resolve) => {
    const expected = rowLength * rows
    const inflate = Zlib.createInflate({ chunkSize: 1 << 18 })
    let seen = 0
    inflate.on("data", (chunk: Buffer) => {
      let valid = seen + chunk.length <= expected
      // The first row start in this chunk, then every row length.
      for (let at = (rowLength - (seen % rowLength)) % rowLength; valid && at < chunk.length; at += rowLength) {
        valid = chunk[at]! <= 4
      }
      seen += chunk.length
      if (!valid) {
        inflate.destroy()
        resolve(false)
      }
    })
    inflate.on("error", () => resolve(false))
    inflate.on("end", () => resolve(seen === expected))
    inflate.end(data)
  })

/**
 * A FlateDecode image whose rows may carry PNG predictors (`/Predictor` 10-15, which PDF
 * producers write for screenshots and diagrams): then its stream is a PNG's image data as it
 * stands, and the PNG is built around it, with no byte recompressed. PDFium does not give the
 * parameters; the stream's dictionary, found in the file (`rows`), says; when it cannot be found
 * (an encrypted file, parameters in another object), inflating the stream tells, once `valid` settles.
 */
const copiedFlate = (data: Uint8Array, image: ImageMetadata, rows: Rows | undefined): Copy | undefined => {
  const channels = image.bitsPerPixel / 8
  if (channels !== 1 && channels !== 3) return undefined
  // Its dictionary says: rows without predictors are decoded; rows with them, as this image's
  // pixels are laid out, are copied with nothing to check.
  if (rows?._tag === "Plain") return undefined
  const said = rows?._tag === "Predicted"
  if (said && (rows.columns !== image.width || rows.colors !== channels || rows.bitsPerComponent !== 8)) {
    return undefined
  }
  return {
    figure: {
      _tag: "Figure",
      data: pngAround(data, image.width, image.height, channels),
      mediaType: "image/png",
      width: image.width,
      height: image.height
    },
    valid: said ? undefined : predictedRows(data, 1 + image.width * channels, image.height)
  }
}

/**
 * An image as its own compressed bytes, when they make a file a reader can show: a JPEG, or a
 * Flate stream wrapped as a PNG (to be checked: see `copiedFlate`). `"too small"` for an image
 * under `size.min` pixels a side; `undefined` when it must be decoded instead (another filter or
 * several, CMYK, Lab, indexed colours, another depth, over `size.max`).
 */
export const copied = (
  m: Pdfium,
  object: number,
  page: number,
  size: { readonly min: number; readonly max: number },
  dictionaries: StreamDictionaries
): Copy | "too small" | undefined => {
  const filter = onlyFilter(m, object)
  if (filter !== "DCTDecode" && filter !== "FlateDecode") return undefined
  const image = metadata(m, object, page)
  if (image === undefined || !copiableColourSpaces.has(image.colourSpace)) return undefined
  if (image.width < size.min || image.height < size.min) return "too small"
  if (Math.max(image.width, image.height) > size.max) return undefined
  const data = rawData(m, object)
  if (data === undefined) return undefined
  if (filter === "FlateDecode") return copiedFlate(data, image, dictionaries.rowsOf(data))
  const jpeg = copiedJpeg(data)
  return jpeg === undefined ? undefined : { figure: jpeg, valid: undefined }
}
