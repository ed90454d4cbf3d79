/**
 * Indirect objects read from the PDF's own bytes (`N G obj ... endobj`), for what PDFium does not
 * give: an Indexed image's colour space and palette. Only what this module parses is understood
 * (arrays, names, numbers, references, strings, streams); anything else reads as `undefined`.
 */
import * as Zlib from "node:zlib"
import { packedObjects } from "./packedObjects.js"

/** A PDF value as far as this reads it. */
export type PdfValue =
  | { readonly _tag: "Name"; readonly name: string }
  | { readonly _tag: "Number"; readonly value: number }
  | { readonly _tag: "Ref"; readonly object: number }
  | { readonly _tag: "String"; readonly bytes: Uint8Array }
  | { readonly _tag: "Array"; readonly items: ReadonlyArray<PdfValue> }
  | { readonly _tag: "Dictionary"; readonly text: string }
  /** A stream: its dictionary as written, its data (inflated if Flate) when it could be read. */
  | { readonly _tag: "Stream"; readonly dictionary: string; readonly data: Uint8Array | undefined }

/** Objects larger than this are not read (a palette's stream is at most 768 bytes inflated). */
const maxObject = 64 * 1024

const latin1 = new TextDecoder("latin1")
const isSpace = (c: string | undefined) =>
  c === " " || c === "\n" || c === "\r" || c === "\t" || c === "\f" || c === "\0"
const isDelimiter = (c: string | undefined) => c === undefined || isSpace(c) || "()<>[]{}/%".includes(c)

const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 }

/** A literal string from `at` (its `(`): its bytes and where it ends. */
const literal = (text: string, at: number): { bytes: Uint8Array; end: number } | undefined => {
  const out: Array<number> = []
  let depth = 0
  for (let i = at; i < text.length; i++) {
    const c = text[i]!
    if (c === "\\") {
      const next = text[++i]
      if (next === undefined) return undefined
      const octal = /^[0-7]{1,3}/.exec(text.slice(i, i + 3))
      if (octal !== null) {
        out.push(parseInt(octal[0], 8) & 255)
        i += octal[0].length - 1
      } else if (next === "\r") {
        if (text[i + 1] === "\n") i++
      } else if (next !== "\n") out.push(escapes[next] ?? next.charCodeAt(0))
      continue
    }
    if (c === "(") depth++
    else if (c === ")" && --depth === 0) return { bytes: Uint8Array.from(out), end: i + 1 }
    if (depth > 1 || c !== "(") out.push(c.charCodeAt(0))
  }
  return undefined
}

/** The value at `at` in `text` and where it ends; `undefined` for what this does not read. */
export const valueAt = (text: string, from: number): { value: PdfValue; end: number } | undefined => {
  let at = from
  while (isSpace(text[at])) at++
  const c = text[at]
  if (c === "/") {
    let end = at + 1
    while (!isDelimiter(text[end])) end++
    return { value: { _tag: "Name", name: text.slice(at + 1, end) }, end }
  }
  if (c === "[") {
    const items: Array<PdfValue> = []
    for (let i = at + 1;;) {
      while (isSpace(text[i])) i++
      if (text[i] === "]") return { value: { _tag: "Array", items }, end: i + 1 }
      const item = valueAt(text, i)
      if (item === undefined) return undefined
      items.push(item.value)
      i = item.end
    }
  }
  if (c === "(") {
    const read = literal(text, at)
    return read && { value: { _tag: "String", bytes: read.bytes }, end: read.end }
  }
  if (c === "<" && text[at + 1] === "<") {
    const end = dictionaryEnd(text, at)
    return end === undefined ? undefined : { value: { _tag: "Dictionary", text: text.slice(at, end) }, end }
  }
  if (c === "<") {
    const end = text.indexOf(">", at)
    const hex = end < 0 ? "" : text.slice(at + 1, end).replace(/\s+/g, "")
    if (end < 0 || !/^[0-9A-Fa-f]*$/.test(hex)) return undefined
    const padded = hex.length % 2 === 0 ? hex : `${hex}0`
    return { value: { _tag: "String", bytes: Uint8Array.from(Buffer.from(padded, "hex")) }, end: end + 1 }
  }
  const number = /^[+-]?(\d+\.?\d*|\.\d+)/.exec(text.slice(at, at + 32))
  if (number === null) return undefined
  const reference = /^(\d+)\s+(\d+)\s+R(?![A-Za-z0-9])/.exec(text.slice(at, at + 32))
  if (reference !== null) return { value: { _tag: "Ref", object: Number(reference[1]) }, end: at + reference[0].length }
  return { value: { _tag: "Number", value: Number(number[0]) }, end: at + number[0].length }
}

export interface PdfObjects {
  /** The object's value (a stream's data for a stream, inflated if it is Flate), or `undefined`. */
  readonly value: (object: number) => PdfValue | undefined
}

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39
const isWhite = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x0A || byte === 0x0D || byte === 0x09 || byte === 0x0C || byte === 0x00

/** Where each object `N G obj` starts in the file (after `obj`); the last definition wins, as an update's does. */
const index = (pdf: Uint8Array): Map<number, number> => {
  const starts = new Map<number, number>()
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
  for (let at = bytes.indexOf("obj"); at >= 0; at = bytes.indexOf("obj", at + 3)) {
    // Read backwards: white space, the generation, white space, the number (`endobj` stops at once).
    let i = at - 1
    if (!isWhite(bytes[i]) || isDelimiter(String.fromCharCode(bytes[at + 3] ?? 0x20)) === false) continue
    while (isWhite(bytes[i])) i--
    if (!isDigit(bytes[i])) continue
    while (isDigit(bytes[i])) i--
    if (!isWhite(bytes[i])) continue
    while (isWhite(bytes[i])) i--
    const end = i + 1
    while (isDigit(bytes[i])) i--
    if (i + 1 === end || (i >= 0 && !isWhite(bytes[i]) && !isDelimiter(String.fromCharCode(bytes[i]!)))) continue
    starts.set(Number(latin1.decode(bytes.subarray(i + 1, end))), at + 3)
  }
  return starts
}

/** Where the dictionary opened at `at` (`<<`) in `text` ends (after its `>>`), nested ones included. */
const dictionaryEnd = (text: string, at: number): number | undefined => {
  let depth = 0
  for (let i = at; i < text.length - 1; i++) {
    if (text[i] === "<" && text[i + 1] === "<") depth++
    else if (text[i] === ">" && text[i + 1] === ">") depth--
    else continue
    i++
    if (depth === 0) return i + 1
  }
  return undefined
}

/** A stream's data after its dictionary `dictionary` and `stream` keyword at `at` in `text`. */
const streamData = (text: string, dictionary: string, at: number): Uint8Array | undefined => {
  let start = at + "stream".length
  if (text[start] === "\r") start++
  if (text[start] === "\n") start++
  const end = text.lastIndexOf("endstream")
  if (end < start) return undefined
  const data = Buffer.from(text.slice(start, end), "latin1")
  const named = dictionary.indexOf("/Filter")
  if (named < 0) return data
  const filter = valueAt(dictionary, named + "/Filter".length)
  const only = filter?.value._tag === "Array" && filter.value.items.length === 1 ? filter.value.items[0] : filter?.value
  if (only?._tag !== "Name" || only.name !== "FlateDecode" || dictionary.includes("/DecodeParms")) return undefined
  try {
    // Bytes past the stream's end (EOL before `endstream`) are not the stream's: zlib stops at its end.
    return Zlib.inflateSync(data, { finishFlush: Zlib.constants.Z_SYNC_FLUSH })
  } catch {
    return undefined
  }
}

/**
 * The objects of `pdf`; none of an encrypted file's (its strings and streams are not as written).
 * `encrypted` given (PDFium knows) spares searching the whole file for `/Encrypt`.
 */
export const make = (pdf: Uint8Array, encrypted?: boolean): PdfObjects => {
  let starts: Map<number, number> | undefined
  let packed: Map<number, string> | undefined
  const values = new Map<number, PdfValue | undefined>()
  const read = (object: number): PdfValue | undefined => {
    encrypted ??= Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).includes("/Encrypt")
    if (encrypted) return undefined
    starts ??= index(pdf)
    const start = starts.get(object)
    if (start === undefined) {
      // Not written with a header of its own: in an object stream, where no stream can be.
      packed ??= packedObjects(pdf, starts)
      const text = packed.get(object)
      return text === undefined ? undefined : valueAt(text, 0)?.value
    }
    // Most objects end within a few kilobytes: the whole window is decoded only for those that do not.
    let text = latin1.decode(pdf.subarray(start, Math.min(pdf.byteLength, start + 4096)))
    if (!text.includes("endobj")) text = latin1.decode(pdf.subarray(start, Math.min(pdf.byteLength, start + maxObject)))
    const end = text.indexOf("endobj")
    // An object past the window (an ICC profile's stream) is read for its dictionary only.
    const body = end < 0 ? text : text.slice(0, end)
    const first = body.trimStart()
    if (!first.startsWith("<<")) return end < 0 ? undefined : valueAt(body, 0)?.value
    const close = dictionaryEnd(body, body.indexOf("<<"))
    const keyword = close === undefined ? -1 : body.indexOf("stream", close)
    if (close === undefined || keyword < 0 || body.slice(close, keyword).trim() !== "") return undefined
    const dictionary = body.slice(0, close)
    return { _tag: "Stream", dictionary, data: end < 0 ? undefined : streamData(body, dictionary, keyword) }
  }
  return {
    value: (object) => {
      if (!values.has(object)) values.set(object, read(object))
      return values.get(object)
    }
  }
}
