/**
 * The encodings of a document's Type 3 fonts, read from the file's bytes: PDFium reads a Type 3
 * font's characters by their codes alone, never by the glyph names of its `/Differences` (which
 * its API does not give either), so a ligature named `/fi` at code 28 comes out as U+001C. Objects
 * are found by their `N G obj` headers and in object streams (inflated here); the file is read
 * once per document, and only when a page has such characters.
 */
import * as Zlib from "node:zlib"
import { streamObjects } from "./packedObjects.js"
import { texBitmapNames } from "./texBitmapFonts.js"

/** A Type 3 font's codes and the glyph names its encoding gives them (`.notdef` left out). */
export type Type3Font = ReadonlyMap<number, string>

const objectHeader = /(\d+)\s+(\d+)\s+obj\b/g
const objectStream = /\/Type\s*\/ObjStm\b/
const type3 = /\/Subtype\s*\/Type3\b/
const encodingReference = /\/Encoding\s*(\d+)\s+\d+\s+R/
const differences = /\/Differences\s*\[([^\]]*)\]/
const differencesToken = /(\d+)|\/([^\s/[\]<>(){}%]*)/g
const escaped = /#([0-9A-Fa-f]{2})/g

/** An object stream's bytes inflated; `undefined` when they are not plain Flate (an encrypted file's, a predictor's): its objects are then not read. */
const inflatedStream = (pdf: Uint8Array, text: string, body: number, end: number): string | undefined => {
  const keyword = text.indexOf("stream", body)
  if (keyword < 0 || keyword > end) return undefined
  const dictionary = text.slice(body, keyword)
  if (!/\/FlateDecode\b/.test(dictionary) || /\/DecodeParms|\/Encrypt/.test(dictionary)) return undefined
  let data = keyword + 6
  if (text[data] === "\r") data++
  if (text[data] === "\n") data++
  const stop = text.indexOf("endstream", data)
  try {
    const raw = pdf.subarray(data, stop < 0 ? end : stop)
    return Zlib.inflateSync(raw, { finishFlush: Zlib.constants.Z_SYNC_FLUSH }).toString("latin1")
  } catch {
    return undefined
  }
}

/** Every object of the file by number, a later definition (an incremental update) over an earlier one. */
const objects = (pdf: Uint8Array): Map<number, string> => {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString("latin1")
  const plain = new Map<number, readonly [number, number]>()
  for (const match of text.matchAll(objectHeader)) {
    const body = match.index + match[0].length
    const end = text.indexOf("endobj", body)
    plain.set(Number(match[1]), [body, end < 0 ? text.length : end])
  }
  const all = new Map<number, string>()
  const packed = new Map<number, string>()
  for (const [number, [body, end]] of plain) {
    const content = text.slice(body, end)
    all.set(number, content)
    if (!objectStream.test(content.slice(0, content.indexOf("stream")))) continue
    const inflated = inflatedStream(pdf, text, body, end)
    if (inflated !== undefined) streamObjects(content, inflated, packed)
  }
  // An object in a stream is the newer when a number is in both (PDF 1.5 hybrid files aside).
  for (const [number, content] of packed) all.set(number, content)
  return all
}

/** A name's `#xx` escapes decoded. */
const unescaped = (name: string): string =>
  name.includes("#") ? name.replace(escaped, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : name

/** The codes and names of a `/Differences` array's content. */
export const differencesOf = (content: string): Map<number, string> => {
  const names = new Map<number, string>()
  let code = -1
  for (const token of content.matchAll(differencesToken)) {
    if (token[1] !== undefined) {
      code = Number(token[1])
    } else if (code >= 0) {
      const name = unescaped(token[2]!)
      if (name !== ".notdef") names.set(code, name)
      code++
    }
  }
  return names
}

/** The encodings of the file's Type 3 fonts that have `/Differences`, in the file's order. */
export const type3Fonts = (pdf: Uint8Array): Array<Type3Font> => {
  const all = objects(pdf)
  const fonts: Array<Type3Font> = []
  for (const content of all.values()) {
    if (!type3.test(content)) continue
    const reference = encodingReference.exec(content)?.[1]
    const encoding = reference === undefined ? content : all.get(Number(reference)) ?? ""
    const found = differences.exec(encoding)?.[1]
    if (found !== undefined) fonts.push(texBitmapNames(differencesOf(found)))
  }
  return fonts
}

/** `type3Fonts` of a document, read on the first call only. */
export const lazyType3Fonts = (pdf: Uint8Array): () => ReadonlyArray<Type3Font> => {
  let fonts: ReadonlyArray<Type3Font> | undefined
  return () => fonts ??= type3Fonts(pdf)
}
