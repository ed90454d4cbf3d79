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
  // Each source column's sums over a target row's source rows (in target channels), then added across
  // each target pixel's columns: integer sums, so the same means as summing pixel by pixel, in one
  // straight pass over each source row.
  const columns = new Int32Array(bitmap.width * channels)
  for (let y = 0; y < height; y++) {
    const y0 = ys[y]!
    const y1 = Math.min(ys[y + 1]!, bitmap.height)
    columns.fill(0)
    for (let sy = y0; sy < y1; sy++) addRow(columns, bytes, sy * stride, bitmap.width, sourceChannels, channels)
    const rows = y1 - y0
    let t = y * (width * channels + lead) + lead
    for (let x = 0; x < width; x++) {
      const x0 = xs[x]!
      const x1 = Math.min(xs[x + 1]!, bitmap.width)
      const count = rows * (x1 - x0)
      for (let c = 0; c < channels; c++) {
        let sum = 0
        for (let o = x0 * channels + c, end = x1 * channels; o < end; o += channels) sum += columns[o]!
        out[t++] = Math.round(sum / count)
      }
    }
  }
  return out
}

/** Adds one source row's pixels (from `start`) to `columns`: BGR(A) read as RGB(A), grey as it is. */
const addRow = (
  columns: Int32Array,
  bytes: Uint8Array,
  start: number,
  width: number,
  sourceChannels: number,
  channels: Channels
): void => {
  if (channels === 1) {
    for (let sx = 0, i = start; sx < width; sx++, i += sourceChannels) columns[sx] += bytes[i]!
  } else if (channels === 3) {
    for (let o = 0, i = start, end = width * 3; o < end; o += 3, i += sourceChannels) {
      columns[o] += bytes[i + 2]!
      columns[o + 1] += bytes[i + 1]!
      columns[o + 2] += bytes[i]!
    }
  } else {
    for (let o = 0, i = start, end = width * 4; o < end; o += 4, i += sourceChannels) {
      columns[o] += bytes[i + 2]!
      columns[o + 1] += bytes[i + 1]!
      columns[o + 2] += bytes[i]!
      columns[o + 3] += bytes[i + 3]!
    }
  }
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
