/** PNG encoding of RGBA pixels (for EPUB figures), and box-filter downscaling to bound their size. */
import * as Fflate from "fflate"

const crcTable = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

const crc32 = (bytes: Uint8Array): number => {
  let c = 0xFFFFFFFF
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]!) & 0xFF]! ^ (c >>> 8)
  return (c ^ 0xFFFFFFFF) >>> 0
}

const chunk = (type: string, data: Uint8Array): Uint8Array => {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

/** RGBA pixels (8 bits a channel, rows without padding) as a PNG file. */
export const encodePng = (rgba: Uint8Array, width: number, height: number): Uint8Array => {
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header[8] = 8
  header[9] = 6
  const rows = new Uint8Array(height * (width * 4 + 1))
  for (let y = 0; y < height; y++) rows.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1)
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
    chunk("IHDR", header),
    chunk("IDAT", Fflate.zlibSync(rows, { level: 6 })),
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

/** RGBA pixels scaled down to `width` x `height` by averaging the source pixels each covers. */
export const downscale = (
  rgba: Uint8Array,
  sourceWidth: number,
  sourceHeight: number,
  width: number,
  height: number
): Uint8Array => {
  const out = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * sourceHeight / height)
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sourceHeight / height))
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * sourceWidth / width)
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sourceWidth / width))
      const sum = [0, 0, 0, 0]
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * sourceWidth + sx) * 4
          for (let c = 0; c < 4; c++) sum[c]! += rgba[i + c]!
        }
      }
      const count = (y1 - y0) * (x1 - x0)
      for (let c = 0; c < 4; c++) out[(y * width + x) * 4 + c] = Math.round(sum[c]! / count)
    }
  }
  return out
}
