/**
 * EPUB figures copied from the PDF: a JPEG, or a Flate stream with PNG predictors wrapped as a
 * PNG, instead of decoding the pixels and compressing them again.
 */
import * as Zlib from "node:zlib"
import type * as Document from "../Document.js"
import type { ImageObject } from "./imageObject.js"
import { copiableColourSpaces } from "./imageObject.js"
import { readFrame } from "./jpeg.js"
import { pngAround } from "./png.js"
import type { Rows } from "./streamDictionaries.js"

/** A copied figure, a candidate until `valid` (the check of its rows, if any) answers `true`. */
export interface Copy {
  readonly figure: Document.Figure
  readonly valid: Promise<boolean> | undefined
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
 * byte (0 to 4): on libuv's threads, in chunks, so no whole image is held; unreadable is `false`.
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
 * A FlateDecode image whose rows may carry PNG predictors: its stream is then a PNG's image data
 * as it stands. Its dictionary in the file (`rows`) says so; where it cannot be read, inflating
 * the stream tells (`valid`).
 */
const copiedFlate = (data: Uint8Array, image: ImageObject, rows: Rows | undefined): Copy | undefined => {
  const channels = image.bitsPerPixel / 8
  if (channels !== 1 && channels !== 3) return undefined
  if (rows?._tag === "Plain") return undefined
  const said = rows?._tag === "Predicted"
  if (said && (rows.columns !== image.width || rows.colors !== channels || rows.bitsPerComponent !== 8)) {
    return undefined
  }
  return {
    figure: {
      _tag: "Figure",
      data: pngAround(data, image.width, image.height, channels, image.palette),
      mediaType: "image/png",
      width: image.width,
      height: image.height
    },
    valid: said ? undefined : predictedRows(data, 1 + image.width * channels, image.height)
  }
}

/**
 * An image as its own compressed bytes, when they make a file a reader can show; `undefined` when
 * it must be decoded instead (another filter, CMYK, indexed colours, another depth, too large).
 */
export const copied = (
  image: ImageObject,
  data: Uint8Array,
  maxSize: number,
  rows: Rows | undefined
): Copy | undefined => {
  if (image.filter !== "DCTDecode" && image.filter !== "FlateDecode") return undefined
  const shown = copiableColourSpaces.has(image.colourSpace) || image.palette !== undefined
  if (!shown || Math.max(image.width, image.height) > maxSize) return undefined
  if (image.filter === "FlateDecode") return copiedFlate(data, image, rows)
  const jpeg = copiedJpeg(data)
  return jpeg === undefined ? undefined : { figure: jpeg, valid: undefined }
}
