/** Objects packed in object streams (PDF 1.5), where pdfTeX and ConTeXt put an Indexed image's colour space. */
import * as Zlib from "node:zlib"
import { integer } from "./streamDictionaries.js"

const latin1 = new TextDecoder("latin1")

/** The inflated data of the stream object whose body starts at `start`, or `undefined` (not plain Flate, unreadable). */
const streamAt = (pdf: Uint8Array, start: number): string | undefined => {
  const head = latin1.decode(pdf.subarray(start, Math.min(pdf.byteLength, start + 1024)))
  const keyword = head.indexOf("stream")
  if (keyword < 0) return undefined
  const dictionary = head.slice(0, keyword)
  const length = integer(dictionary, "Length")
  if (length === undefined || !/\/FlateDecode\b/.test(dictionary) || dictionary.includes("/DecodeParms")) {
    return undefined
  }
  let data = start + keyword + "stream".length
  if (pdf[data] === 0x0D) data++
  if (pdf[data] === 0x0A) data++
  if (data + length > pdf.byteLength) return undefined
  try {
    return latin1.decode(Zlib.inflateSync(pdf.subarray(data, data + length)))
  } catch {
    return undefined
  }
}

/** The objects an object stream holds, by number: its header's pairs of numbers and offsets, then their text. */
export const streamObjects = (dictionary: string, content: string, into: Map<number, string>): void => {
  const count = integer(dictionary, "N") ?? 0
  const first = integer(dictionary, "First")
  if (first === undefined || first > content.length) return
  const header = content.slice(0, first).trim().split(/\s+/).map(Number)
  for (let i = 0; i < count && 2 * i + 1 < header.length; i++) {
    const start = first + header[2 * i + 1]!
    const end = 2 * i + 3 < header.length ? first + header[2 * i + 3]! : content.length
    if (Number.isInteger(header[2 * i]) && start <= end) into.set(header[2 * i]!, content.slice(start, end))
  }
}

/** The text of the objects in object streams, by number; each `/ObjStm` is in the object whose start (`starts`) is nearest before it. */
export const packedObjects = (pdf: Uint8Array, starts: ReadonlyMap<number, number>): Map<number, string> => {
  const packed = new Map<number, string>()
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
  const headers = [...starts.values()].sort((a, b) => a - b)
  for (let at = bytes.indexOf("/ObjStm"); at >= 0; at = bytes.indexOf("/ObjStm", at + 7)) {
    let low = 0
    let high = headers.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (headers[middle]! <= at) low = middle
      else high = middle - 1
    }
    const start = headers[low]
    if (start === undefined || start > at) continue
    const head = latin1.decode(pdf.subarray(start, Math.min(pdf.byteLength, start + 1024)))
    const content = streamAt(pdf, start)
    if (content !== undefined) streamObjects(head.slice(0, Math.max(0, head.indexOf("stream"))), content, packed)
  }
  return packed
}
