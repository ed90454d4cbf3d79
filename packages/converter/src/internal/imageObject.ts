/** What PDFium says of an image object on a loaded page, and its stream as the PDF holds it. */
import type { Pdfium } from "./pdfium.js"
import * as P from "./pdfium.js"
import { integer } from "./streamDictionaries.js"

/** An image object as the EPUB figures read it. */
export interface ImageObject {
  /** Its only filter (`DCTDecode` for a JPEG), or `undefined` when it has none or several. */
  readonly filter: string | undefined
  readonly width: number
  readonly height: number
  readonly bitsPerPixel: number
  readonly colourSpace: number
  /** An Indexed image's palette (RGB triples) when read from the file (`indexedImages.ts`): its samples are indices. */
  readonly palette?: Uint8Array | undefined
}

/** PDFium's colour spaces an image file shows as they are: grey and RGB (device, calibrated or ICC-based). */
export const copiableColourSpaces: ReadonlySet<number> = new Set([1, 2, 4, 5, 7])

const ascii = new TextDecoder("latin1")

const onlyFilter = (m: Pdfium, object: number): string | undefined => {
  if (m.FPDFImageObj_GetImageFilterCount(object) !== 1) return undefined
  const length = m.FPDFImageObj_GetImageFilter(object, 0, 0, 0)
  if (length <= 1 || length > 64) return undefined
  return P.withBuffer(m, length, (buffer) => {
    m.FPDFImageObj_GetImageFilter(object, 0, buffer, length)
    return ascii.decode(m.pdfium.HEAPU8.subarray(buffer, buffer + length - 1))
  })
}

/** The image object's filter and `FPDF_IMAGEOBJ_METADATA`, or `undefined` when PDFium cannot read them. */
export const imageObject = (m: Pdfium, object: number, page: number): ImageObject | undefined =>
  P.withBuffer(m, 28, (out) => {
    if (!m.FPDFImageObj_GetImageMetadata(object, page, out)) return undefined
    const [width, height] = P.ints(m, out, 2)
    return {
      filter: onlyFilter(m, object),
      width: width!,
      height: height!,
      bitsPerPixel: P.int(m, out + 16),
      colourSpace: P.int(m, out + 20)
    }
  })

/** PDFium's numbers of the colour spaces a dictionary may name outright, with their channels. */
const deviceSpaces: Record<string, readonly [space: number, channels: number]> = {
  DeviceGray: [1, 1],
  DeviceRGB: [2, 3]
}

/** The dictionary without what nested dictionaries (`/DecodeParms`) hold. */
const topLevel = (dictionary: string): string => {
  let inner = dictionary.slice(2, -2)
  for (let last = ""; last !== inner;) {
    last = inner
    inner = inner.replace(/<<[^<>]*>>/g, " ")
  }
  return inner
}

/**
 * What `imageObject` says of an image whose stream dictionary (as the file writes it) says it all:
 * 8-bit grey or RGB, its size and filters written out. PDFium's metadata starts loading the image
 * to tell its colour space, a cost most figures need not pay; any other image is asked of PDFium.
 */
export const describedIn = (dictionary: string): ImageObject | undefined => {
  const top = topLevel(dictionary)
  const space = /\/ColorSpace\s*\/([A-Za-z]+)(?![A-Za-z0-9])/.exec(top)
  const device = space === null ? undefined : deviceSpaces[space[1]!]
  const width = integer(top, "Width")
  const height = integer(top, "Height")
  if (device === undefined || width === undefined || height === undefined || integer(top, "BitsPerComponent") !== 8) {
    return undefined
  }
  if (/\/ImageMask\s*true/.test(top)) return undefined
  const filters = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+)/.exec(top)
  const names = filters === null ? [] : filters[1]!.match(/\/[^\s/<>[\]()]+/g) ?? []
  return {
    filter: names.length === 1 ? names[0]!.slice(1) : undefined,
    width,
    height,
    bitsPerPixel: 8 * device[1],
    colourSpace: device[0]
  }
}

/** What `rawDataOrKnown` answers: the stream's bytes, or what `known` found of them. */
export type Raw<A> = { readonly _tag: "Data"; readonly data: Uint8Array } | {
  readonly _tag: "Known"
  readonly known: A
}

/** The image's raw stream, copied only when `known` (shown PDFium's bytes, valid in the call) finds nothing. */
export const rawDataOrKnown = <A>(
  m: Pdfium,
  object: number,
  known: (view: Uint8Array) => A | undefined
): Raw<A> | undefined => {
  const size = m.FPDFImageObj_GetImageDataRaw(object, 0, 0)
  if (size <= 0) return undefined
  return P.withBuffer(m, size, (buffer): Raw<A> | undefined => {
    if (m.FPDFImageObj_GetImageDataRaw(object, buffer, size) !== size) return undefined
    const view = m.pdfium.HEAPU8.subarray(buffer, buffer + size)
    const found = known(view)
    return found === undefined ? { _tag: "Data", data: view.slice() } : { _tag: "Known", known: found }
  })
}

/** The image's stream as the PDF holds it (still compressed). */
export const rawData = (m: Pdfium, object: number): Uint8Array | undefined => {
  const raw = rawDataOrKnown(m, object, () => undefined)
  return raw?._tag === "Data" ? raw.data : undefined
}
