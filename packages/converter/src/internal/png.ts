/** PNG encoding of grey, RGB or RGBA pixels (for EPUB figures), and box-filter downscaling to bound their size. */
import * as Zlib from "node:zlib"

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

/**
 * Pixels of `channels` 8-bit channels (grey, RGB or RGBA; rows without padding) as a PNG file. Fewer
 * channels are fewer bytes to compress: an opaque image is not given an alpha channel to deflate.
 */
export const encodePng = (pixels: Uint8Array, width: number, height: number, channels: Channels = 4): Uint8Array => {
  const row = width * channels
  const rows = new Uint8Array(height * (row + 1))
  for (let y = 0; y < height; y++) rows.set(pixels.subarray(y * row, (y + 1) * row), y * (row + 1) + 1)
  return pngAround(Zlib.deflateSync(rows, { level: 6 }), width, height, channels)
}

/**
 * A PNG file around image data already compressed: a zlib stream of rows of `channels` 8-bit
 * channels, each row led by its filter byte (as a PDF's FlateDecode image with PNG predictors is).
 */
export const pngAround = (zlib: Uint8Array, width: number, height: number, channels: Channels): Uint8Array => {
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header[8] = 8
  header[9] = colourType[channels]
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
    chunk("IHDR", header),
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

/** Pixels of `channels` channels scaled down to `width` x `height` by averaging the source pixels each covers. */
export const downscale = (
  pixels: Uint8Array,
  sourceWidth: number,
  sourceHeight: number,
  width: number,
  height: number,
  channels: Channels = 4
): Uint8Array => {
  const out = new Uint8Array(width * height * channels)
  const sum = new Float64Array(channels)
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * sourceHeight / height)
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sourceHeight / height))
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * sourceWidth / width)
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sourceWidth / width))
      sum.fill(0)
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * sourceWidth + sx) * channels
          for (let c = 0; c < channels; c++) sum[c]! += pixels[i + c]!
        }
      }
      const count = (y1 - y0) * (x1 - x0)
      for (let c = 0; c < channels; c++) out[(y * width + x) * channels + c] = Math.round(sum[c]! / count)
    }
  }
  return out
}
