/** A JPEG's frame header: whether a DCTDecode image can go into an EPUB as it is, not re-encoded. */

/** A JPEG's frame: its size and number of colour components. */
export interface JpegFrame {
  readonly width: number
  readonly height: number
  readonly components: number
  readonly precision: number
  /** Baseline, extended or progressive Huffman: what every reader decodes (not lossless or arithmetic). */
  readonly common: boolean
}

/** Markers without a length that may stand between segments. */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xD0 && marker <= 0xD7)

/** The frame header of `bytes`, or `undefined` when it is not a JPEG whose header can be read. */
export const readFrame = (bytes: Uint8Array): JpegFrame | undefined => {
  if (bytes.length < 4 || bytes[0] !== 0xFF || bytes[1] !== 0xD8) return undefined
  let at = 2
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xFF) return undefined
    const marker = bytes[at + 1]!
    if (marker === 0xFF) {
      at += 1
      continue
    }
    if (standalone(marker)) {
      at += 2
      continue
    }
    // Start of scan or end of image before a frame header: not a frame we can read.
    if (marker === 0xDA || marker === 0xD9) return undefined
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!
    if (length < 2) return undefined
    const isFrame = marker >= 0xC0 && marker <= 0xCF && marker !== 0xC4 && marker !== 0xC8 && marker !== 0xCC
    if (isFrame) {
      if (at + 10 > bytes.length) return undefined
      return {
        precision: bytes[at + 4]!,
        height: (bytes[at + 5]! << 8) | bytes[at + 6]!,
        width: (bytes[at + 7]! << 8) | bytes[at + 8]!,
        components: bytes[at + 9]!,
        common: marker === 0xC0 || marker === 0xC1 || marker === 0xC2
      }
    }
    at += 2 + length
  }
  return undefined
}
