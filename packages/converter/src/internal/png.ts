/** PNG encoding of grey, RGB or RGBA pixels (for EPUB figures), or around image data already compressed. */
import { promisify } from "node:util"
import * as Zlib from "node:zlib"

const deflate = promisify(Zlib.deflate)

/** Below zlib's default: much less time for a few more bytes (see the converter's README). */
const level = 3

/**
 * zlib's output buffer for `bytes` of input: Node's default (16 KiB) makes a large image hundreds
 * of round trips between zlib and JavaScript, each costing the conversion's thread.
 */
export const chunkSize = (bytes: number): number => Math.max(Zlib.constants.Z_MIN_CHUNK, Math.min(bytes, 1 << 20))

const chunk = (type: string, data: Uint8Array): Uint8Array => {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i)
  out.set(data, 8)
  view.setUint32(8 + data.length, Zlib.crc32(out.subarray(4, 8 + data.length)))
  return out
}

/** Channels a pixel has, by PNG colour type: grey, RGB, RGBA. */
export type Channels = 1 | 3 | 4

const colourType = { 1: 0, 3: 2, 4: 6 } as const

/** Pixels of `channels` 8-bit channels (rows without padding) as PNG rows, each led by filter byte 0. */
export const rowsOf = (pixels: Uint8Array, width: number, height: number, channels: Channels): Uint8Array => {
  const row = width * channels
  const rows = new Uint8Array(height * (row + 1))
  for (let y = 0; y < height; y++) rows.set(pixels.subarray(y * row, (y + 1) * row), y * (row + 1) + 1)
  return rows
}

/** `rowsOf` made in place when the pixels' buffer has room for the filter bytes (else `undefined`): no second buffer. */
export const rowsInPlace = (
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: Channels
): Uint8Array | undefined => {
  const row = width * channels
  const size = height * (row + 1)
  // Exactly the rows' size: the pixels' own buffer, not a pool others share (a pool is larger).
  if (pixels.byteOffset !== 0 || pixels.length !== height * row || pixels.buffer.byteLength !== size) return undefined
  const rows = new Uint8Array(pixels.buffer, 0, size)
  for (let y = height - 1; y >= 0; y--) {
    rows.copyWithin(y * (row + 1) + 1, y * row, (y + 1) * row)
    rows[y * (row + 1)] = 0
  }
  return rows
}

/** PNG rows (each led by its filter byte) as a PNG file, compressed on libuv's threads while this thread goes on. */
export const pngOfRowsOffThread = async (
  rows: Uint8Array,
  width: number,
  height: number,
  channels: Channels,
  palette?: Uint8Array
): Promise<Uint8Array> =>
  pngAround(await deflate(rows, { level, chunkSize: chunkSize(rows.length) }), width, height, channels, palette)

/** `pngOfRowsOffThread` on this thread. */
export const pngOfRows = (
  rows: Uint8Array,
  width: number,
  height: number,
  channels: Channels,
  palette?: Uint8Array
): Uint8Array =>
  pngAround(Zlib.deflateSync(rows, { level, chunkSize: chunkSize(rows.length) }), width, height, channels, palette)

/**
 * Pixels of `channels` 8-bit channels (grey, RGB or RGBA; rows without padding) as a PNG file. Fewer
 * channels are fewer bytes to compress: an opaque image is not given an alpha channel to deflate.
 */
export const encodePng = (pixels: Uint8Array, width: number, height: number, channels: Channels = 4): Uint8Array => {
  return pngOfRows(rowsOf(pixels, width, height, channels), width, height, channels)
}

/**
 * A PNG file around image data already compressed: a zlib stream of rows of `channels` 8-bit
 * channels, each row led by its filter byte (as a PDF's FlateDecode image with PNG predictors is).
 * Given a `palette` (RGB triples), the rows are one byte of index a pixel (colour type 3).
 */
export const pngAround = (
  zlib: Uint8Array,
  width: number,
  height: number,
  channels: Channels,
  palette?: Uint8Array
): Uint8Array => {
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header[8] = 8
  header[9] = palette === undefined ? colourType[channels] : 3
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
    chunk("IHDR", header),
    ...(palette === undefined ? [] : [chunk("PLTE", palette)]),
    chunk("IDAT", zlib),
    chunk("IEND", new Uint8Array(0))
  ]
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    png.set(part, offset)
    offset += part.length
  }
  return png
}
