/**
 * The dictionary of an image's stream, found in the PDF's own bytes: PDFium gives an image's raw
 * (still compressed) data and its filters, but not its `/DecodeParms`, which say whether a Flate
 * stream's rows carry PNG predictors. Unencrypted streams are in the file byte for byte, so the
 * raw data's first bytes find where the stream starts, and the dictionary is just before its
 * `stream` keyword. The index of stream starts is built once per document, on the first lookup.
 */

/** Bytes of a stream's start that index it (compressed data: they all but never repeat). */
const keyLength = 16
/** A dictionary longer than this is not an image's (or not one this reads). */
const maxDictionary = 4096

const latin1 = new TextDecoder("latin1")

/** What a Flate image's dictionary says of its rows. */
export type Rows =
  | { readonly _tag: "Predicted"; readonly columns: number; readonly colors: number; readonly bitsPerComponent: number }
  | { readonly _tag: "Plain" }

export interface StreamDictionaries {
  /** What the dictionary of the stream whose raw bytes are `data` says of its rows; `undefined` when it cannot be told. */
  readonly rowsOf: (data: Uint8Array) => Rows | undefined
  /** The dictionary of the stream whose raw bytes are `data`; `undefined` when it cannot be told. */
  readonly dictionaryOf: (data: Uint8Array) => string | undefined
  /** Where in the file the one stream whose raw bytes are `data` starts; `undefined` when none or several match. */
  readonly startOf: (data: Uint8Array) => number | undefined
}

const keyOf = (bytes: Uint8Array, at: number): string => latin1.decode(bytes.subarray(at, at + keyLength))

/** Where each stream's data starts, by its first bytes. */
const index = (pdf: Uint8Array): Map<string, Array<number>> => {
  const starts = new Map<string, Array<number>>()
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
  for (let at = text.indexOf("stream"); at >= 0; at = text.indexOf("stream", at + 6)) {
    // `endstream`, or the word inside some other text: a stream keyword follows its dictionary's `>>`.
    let before = at - 1
    while (before >= 0 && (text[before] === 0x20 || text[before] === 0x0A || text[before] === 0x0D)) before--
    if (before < 1 || text[before] !== 0x3E || text[before - 1] !== 0x3E) continue
    let data = at + 6
    if (text[data] === 0x0D) data++
    if (text[data] === 0x0A) data++
    if (data + keyLength > text.length) continue
    const key = keyOf(pdf, data)
    const list = starts.get(key)
    if (list === undefined) starts.set(key, [data])
    else list.push(data)
  }
  return starts
}

/** The `/Name value` number in `dictionary`, when it is a plain integer. */
export const integer = (dictionary: string, name: string): number | undefined => {
  const match = new RegExp(`/${name}\\s+(\\d+)(?![\\d.\\s]*R\\b)`).exec(dictionary)
  return match === null ? undefined : Number(match[1])
}

/** The first `<< ... >>` at or after `from` in `text`, nested dictionaries included. */
const dictionaryAt = (text: string, from: number): string | undefined => {
  const start = text.indexOf("<<", from)
  if (start < 0) return undefined
  let depth = 0
  for (let at = start; at < text.length - 1; at++) {
    if (text[at] === "<" && text[at + 1] === "<") {
      depth++
      at++
    } else if (text[at] === ">" && text[at + 1] === ">") {
      depth--
      at++
      if (depth === 0) return text.slice(start, at + 1)
    }
  }
  return undefined
}

/** What an image dictionary says of its rows; `undefined` when its parameters are elsewhere (a reference) or unreadable. */
export const rowsIn = (dictionary: string): Rows | undefined => {
  const parameters = dictionary.indexOf("/DecodeParms")
  if (parameters < 0) return { _tag: "Plain" }
  const after = dictionary.slice(parameters + "/DecodeParms".length).trimStart()
  // An array of one dictionary (one filter), or the dictionary itself; a reference is not followed.
  const inner = after.startsWith("[") ? after.slice(1).trimStart() : after
  if (!inner.startsWith("<<")) return inner.startsWith("null") ? { _tag: "Plain" } : undefined
  const parms = dictionaryAt(inner, 0)
  if (parms === undefined) return undefined
  const predictor = integer(parms, "Predictor") ?? 1
  if (predictor < 10) return predictor === 1 ? { _tag: "Plain" } : undefined
  return {
    _tag: "Predicted",
    columns: integer(parms, "Columns") ?? 1,
    colors: integer(parms, "Colors") ?? 1,
    bitsPerComponent: integer(parms, "BitsPerComponent") ?? 8
  }
}

const sameRows = (a: Rows, b: Rows): boolean =>
  a._tag === "Plain" ? b._tag === "Plain" : b._tag === "Predicted" && a.columns === b.columns &&
    a.colors === b.colors && a.bitsPerComponent === b.bitsPerComponent

export const make = (pdf: Uint8Array): StreamDictionaries => {
  let starts: Map<string, Array<number>> | undefined
  const read = new Map<number, string | undefined>()
  const startsOf = (data: Uint8Array): Array<number> => {
    if (data.byteLength < keyLength) return []
    starts ??= index(pdf)
    const candidates = starts.get(keyOf(data, 0)) ?? []
    return candidates.filter((start) => {
      // The same bytes at both ends: the same stream (a copy of the key alone is not enough).
      if (start + data.byteLength > pdf.byteLength) return false
      const tail = Math.max(0, data.byteLength - 64)
      for (let i = tail; i < data.byteLength; i++) if (pdf[start + i] !== data[i]) return false
      for (let i = 0; i < Math.min(256, data.byteLength); i++) if (pdf[start + i] !== data[i]) return false
      return true
    })
  }
  const dictionaries = (data: Uint8Array): Array<string | undefined> =>
    startsOf(data).map((start) => {
      // An image painted on every page is looked up on every page.
      if (read.has(start)) return read.get(start)
      const head = latin1.decode(pdf.subarray(Math.max(0, start - maxDictionary), start))
      const keyword = head.lastIndexOf("stream")
      const object = head.lastIndexOf(" obj", keyword)
      const dictionary = object < 0 ? undefined : dictionaryAt(head.slice(0, keyword), object)
      read.set(start, dictionary)
      return dictionary
    })
  return {
    rowsOf: (data) => {
      // Two streams with the same bytes and different dictionaries cannot be told apart.
      const told = dictionaries(data).map((dictionary) => dictionary === undefined ? undefined : rowsIn(dictionary))
      const first = told[0]
      return first !== undefined && told.every((rows) => rows !== undefined && sameRows(rows, first))
        ? first
        : undefined
    },
    dictionaryOf: (data) => {
      const found = dictionaries(data)
      const first = found[0]
      return first !== undefined && found.every((dictionary) => dictionary === first) ? first : undefined
    },
    startOf: (data) => {
      const found = startsOf(data)
      return found.length === 1 ? found[0] : undefined
    }
  }
}
