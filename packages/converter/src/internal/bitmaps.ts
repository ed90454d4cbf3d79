/**
 * PDFium's bitmaps (grey, BGR, BGRx or BGRA rows with a stride) as PNG pixels, scaled down by
 * averaging in the same pass: no full-size copy before scaling.
 */
import type { Channels } from "./png.js"

/** A bitmap as PDFium lays it out. */
export interface Bitmap {
  readonly bytes: Uint8Array
  readonly width: number
  readonly height: number
  readonly stride: number
  readonly sourceChannels: 1 | 3 | 4
}

/** For each target column or row, the first source one it covers (and, at `size`, the end). */
const spans = (source: number, size: number): Int32Array => {
  const starts = new Int32Array(size + 1)
  for (let i = 0; i < size; i++) starts[i] = Math.floor(i * source / size)
  starts[size] = source
  // A target cell covers at least one source cell, as `Math.max(x0 + 1, ...)` gives.
  for (let i = 1; i <= size; i++) if (starts[i]! <= starts[i - 1]!) starts[i] = starts[i - 1]! + 1
  return starts
}

/** The bitmap's pixels in `channels`, scaled to `width` x `height`: each the rounded mean of those it covers. */
export const pixelsOf = (bitmap: Bitmap, channels: Channels, width: number, height: number): Uint8Array =>
  rowsLed(bitmap, channels, width, height, 0)

/** `pixelsOf` as PNG rows, each led by its filter byte (0): what is deflated, made without a copy of the pixels. */
export const pngRowsOf = (bitmap: Bitmap, channels: Channels, width: number, height: number): Uint8Array =>
  rowsLed(bitmap, channels, width, height, 1)

/** The pixels with `lead` zero bytes before each row. */
const rowsLed = (bitmap: Bitmap, channels: Channels, width: number, height: number, lead: 0 | 1): Uint8Array => {
  if (width === bitmap.width && height === bitmap.height) return converted(bitmap, channels, lead)
  const { bytes, stride, sourceChannels } = bitmap
  const out = new Uint8Array(height * (width * channels + lead))
  const xs = spans(bitmap.width, width)
  const ys = spans(bitmap.height, height)
  // Source channel read for each target channel: BGR(A) to RGB(A), grey as it is.
  const from = channels === 1 ? [0, 0, 0, 0] : [2, 1, 0, 3]
  const sums = new Uint32Array(width * channels)
  for (let y = 0; y < height; y++) {
    const y0 = ys[y]!
    const y1 = Math.min(ys[y + 1]!, bitmap.height)
    sums.fill(0)
    for (let sy = y0; sy < y1; sy++) {
      const row = sy * stride
      for (let x = 0, o = 0; x < width; x++, o += channels) {
        const x1 = Math.min(xs[x + 1]!, bitmap.width)
        for (let sx = xs[x]!, i = row + sx * sourceChannels; sx < x1; sx++, i += sourceChannels) {
          for (let c = 0; c < channels; c++) sums[o + c] += bytes[i + from[c]!]!
        }
      }
    }
    const rows = y1 - y0
    for (let x = 0, o = 0, t = y * (width * channels + lead) + lead; x < width; x++) {
      const count = rows * (Math.min(xs[x + 1]!, bitmap.width) - xs[x]!)
      for (let c = 0; c < channels; c++, o++, t++) out[t] = Math.round(sums[o]! / count)
    }
  }
  return out
}

/** The bitmap's pixels in `channels`, at its own size, `lead` zero bytes before each row. */
const converted = (bitmap: Bitmap, channels: Channels, lead: 0 | 1): Uint8Array => {
  const { bytes, height, sourceChannels, stride, width } = bitmap
  const out = new Uint8Array(height * (width * channels + lead))
  for (let y = 0, o = 0; y < height; y++) {
    const row = y * stride
    o += lead
    if (channels === 1) {
      out.set(bytes.subarray(row, row + width), o)
      o += width
    } else if (channels === 3) {
      for (let i = row, end = row + width * sourceChannels; i < end; i += sourceChannels, o += 3) {
        out[o] = bytes[i + 2]!
        out[o + 1] = bytes[i + 1]!
        out[o + 2] = bytes[i]!
      }
    } else {
      for (let i = row, end = row + width * 4; i < end; i += 4, o += 4) {
        out[o] = bytes[i + 2]!
        out[o + 1] = bytes[i + 1]!
        out[o + 2] = bytes[i]!
        out[o + 3] = bytes[i + 3]!
      }
    }
  }
  return out
}
