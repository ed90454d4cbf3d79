/**
 * EPUB figures from Flate images without PNG predictors: zlib inflates their samples (the pixels
 * as they stand) into a PNG's rows off the thread, instead of PDFium decoding them on it.
 */
import { promisify } from "node:util"
import * as Zlib from "node:zlib"
import type * as Document from "../Document.js"
import type { ImageObject } from "./imageObject.js"
import { copiableColourSpaces } from "./imageObject.js"
import type { Channels } from "./png.js"
import * as Png from "./png.js"
import { pngOfRows, pngOfRowsOffThread } from "./png.js"
import { rowsIn } from "./streamDictionaries.js"

const inflate = promisify(Zlib.inflate)

/** One output buffer (no copy joining zlib's chunks) with a byte a row of room for `rowsInPlace`. */
const wholeChunk = (image: ImageObject): number =>
  Math.max(Zlib.constants.Z_MIN_CHUNK, image.height * (1 + image.width * image.bitsPerPixel / 8))

/** A `/Decode` array (not `/DecodeParms`) remaps samples: PDFium applies it. */
const decodeArray = /\/Decode(?![A-Za-z])/

/** Whether the image's samples are its pixels as they stand (plain 8-bit grey or RGB rows, nothing remapping them). */
export const inflatable = (image: ImageObject, dictionary: string | undefined, maxSize: number): boolean => {
  const channels = image.bitsPerPixel / 8
  return image.filter === "FlateDecode" && dictionary !== undefined && (channels === 1 || channels === 3) &&
    (copiableColourSpaces.has(image.colourSpace) || image.palette !== undefined) &&
    Math.max(image.width, image.height) <= maxSize &&
    rowsIn(dictionary)?._tag === "Plain" && !decodeArray.test(dictionary)
}

/** The samples as PNG rows: in their own buffer where zlib left room, else copied. */
const rowsOf = (samples: Uint8Array, image: ImageObject, channels: Channels): Uint8Array =>
  Png.rowsInPlace(samples, image.width, image.height, channels) ??
    Png.rowsOf(samples, image.width, image.height, channels)

const figure = (image: ImageObject, data: Uint8Array): Document.Figure => ({
  _tag: "Figure",
  data,
  mediaType: "image/png",
  width: image.width,
  height: image.height
})

/** The samples as a PNG figure, made off this thread; `undefined` unless zlib reads exactly them (PDFium decodes it). */
export const inflatedOffThread = async (image: ImageObject, data: Uint8Array): Promise<Document.Figure | undefined> => {
  const channels = image.bitsPerPixel / 8 as Channels
  const expected = image.width * image.height * channels
  const samples = await inflate(data, { maxOutputLength: expected + 1, chunkSize: wholeChunk(image) }).catch(
    () => undefined
  )
  if (samples?.length !== expected) return undefined
  const rows = rowsOf(samples, image, channels)
  return figure(image, await pngOfRowsOffThread(rows, image.width, image.height, channels, image.palette))
}

/** `inflatedOffThread` on this thread. */
export const inflated = (image: ImageObject, data: Uint8Array): Document.Figure | undefined => {
  const channels = image.bitsPerPixel / 8 as Channels
  const expected = image.width * image.height * channels
  let samples: Buffer
  try {
    samples = Zlib.inflateSync(data, { maxOutputLength: expected + 1, chunkSize: wholeChunk(image) })
  } catch {
    return undefined
  }
  return samples.length === expected
    ? figure(image, pngOfRows(rowsOf(samples, image, channels), image.width, image.height, channels, image.palette))
    : undefined
}
