/**
 * Indexed images (8-bit, Flate, a `/DeviceRGB` or `/DeviceGray` palette) as palette PNGs: the
 * palette is read from the file (`pdfObjects.ts`), the samples are the PNG's indices, so the
 * stream is copied (PNG predictors) or inflated off the thread, never decoded by PDFium on it.
 */
import type { ImageObject } from "./imageObject.js"
import type { PdfObjects, PdfValue } from "./pdfObjects.js"
import { valueAt } from "./pdfObjects.js"
import { integer } from "./streamDictionaries.js"

/** PDFium's number for an Indexed colour space (`FPDF_COLORSPACE_INDEXED`). */
export const indexedColourSpace = 10

const bases: Record<string, number> = { DeviceRGB: 3, DeviceGray: 1 }
const calibrated: Record<string, number> = { CalRGB: 3, CalGray: 1 }

/**
 * The channels of a palette's base colour space: device RGB or grey, or calibrated or ICC-based
 * ones of 1 or 3 channels, whose values are shown as they are (as a copied image's are).
 */
const baseChannels = (base: PdfValue | undefined, objects: PdfObjects): number | undefined => {
  if (base?._tag === "Name") return bases[base.name]
  if (base?._tag !== "Array" || base.items.length !== 2 || base.items[0]?._tag !== "Name") return undefined
  const kind = base.items[0].name
  if (kind !== "ICCBased") return calibrated[kind]
  const profile = resolved(base.items[1], objects)
  const channels = profile?._tag === "Stream" ? integer(profile.dictionary, "N") : undefined
  return channels === 1 || channels === 3 ? channels : undefined
}

/** A palette of `entries` colours as PNG's RGB triples, or `undefined` if `lookup` has too few bytes. */
const paletteOf = (lookup: Uint8Array, channels: number, entries: number): Uint8Array | undefined => {
  if (lookup.length < entries * channels) return undefined
  const palette = new Uint8Array(entries * 3)
  for (let i = 0; i < entries; i++) {
    for (let c = 0; c < 3; c++) palette[i * 3 + c] = lookup[i * channels + (channels === 1 ? 0 : c)]!
  }
  return palette
}

const resolved = (value: PdfValue | undefined, objects: PdfObjects): PdfValue | undefined =>
  value?._tag === "Ref" ? objects.value(value.object) : value

/** The palette of a colour space `[/Indexed base hival lookup]`, all 256 indices (those past `hival` black, as PDFium reads them). */
const indexedPalette = (space: PdfValue | undefined, objects: PdfObjects): Uint8Array | undefined => {
  if (space?._tag !== "Array" || space.items.length !== 4) return undefined
  const [kind, base, hival, lookup] = space.items.map((item) => resolved(item, objects))
  const channels = baseChannels(base, objects)
  if (kind?._tag !== "Name" || kind.name !== "Indexed" || channels === undefined) return undefined
  if (hival?._tag !== "Number" || !Number.isInteger(hival.value) || hival.value < 0 || hival.value > 255) {
    return undefined
  }
  const bytes = lookup?._tag === "String" ? lookup.bytes : lookup?._tag === "Stream" ? lookup.data : undefined
  const used = bytes && paletteOf(bytes, channels, hival.value + 1)
  if (used === undefined) return undefined
  const palette = new Uint8Array(256 * 3)
  palette.set(used)
  return palette
}

/** An image dictionary of an 8-bit Indexed Flate image with a readable palette, described as `describedIn` does. */
export const describedIndexed = (dictionary: string, objects: PdfObjects): ImageObject | undefined => {
  const named = dictionary.indexOf("/ColorSpace")
  if (named < 0 || /\/Decode(?![A-Za-z])|\/ImageMask\s*true/.test(dictionary)) return undefined
  const width = integer(dictionary, "Width")
  const height = integer(dictionary, "Height")
  if (width === undefined || height === undefined || integer(dictionary, "BitsPerComponent") !== 8) return undefined
  const filters = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+)/.exec(dictionary)
  const names = filters === null ? [] : filters[1]!.match(/\/[^\s/<>[\]()]+/g) ?? []
  if (names.length !== 1 || names[0] !== "/FlateDecode") return undefined
  const palette = indexedPalette(resolved(valueAt(dictionary, named + "/ColorSpace".length)?.value, objects), objects)
  return palette && { filter: "FlateDecode", width, height, bitsPerPixel: 8, colourSpace: indexedColourSpace, palette }
}
