/**
 * EPUB figures of Indexed images: a palette PNG (colour type 3) whose palette is read from the
 * file (inline, a hex string, a stream, a colour space behind a reference, an ICC-based base),
 * around the image's own stream when its rows carry PNG predictors or its inflated samples
 * otherwise; an Indexed image whose indices something remaps (`/Decode`) is still decoded by PDFium.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as Fflate from "fflate"
import type { PDFContext, PDFObject, PDFPage } from "pdf-lib"
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFString,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts
} from "pdf-lib"
import type { Document } from "../src/index.js"
import * as Pdf from "../src/internal/pdf.js"

const side = 64
/** Four colours, used in a pattern no two rows alike. */
const palette = new Uint8Array([255, 0, 0, 0, 128, 0, 10, 20, 30, 250, 240, 230])
const indices = new Uint8Array(side * side).map((_, i) => (i + Math.floor(i / side)) % 4)

/** The indices as PNG rows (filter byte 0): what a producer's Flate stream with PNG predictors inflates to. */
const predictedRows = (): Uint8Array => {
  const rows = new Uint8Array(side * (side + 1))
  for (let y = 0; y < side; y++) rows.set(indices.subarray(y * side, (y + 1) * side), y * (side + 1) + 1)
  return rows
}

type Space = (context: PDFContext) => PDFObject

const indexed = (base: PDFObject, lookup: PDFObject) => (context: PDFContext) =>
  context.obj([PDFName.of("Indexed"), base, PDFNumber.of(3), lookup])

const hexPalette = () => PDFHexString.of(Buffer.from(palette).toString("hex"))

const draw = (
  page: PDFPage,
  name: string,
  space: PDFObject,
  data: Uint8Array,
  extra: Record<string, unknown>,
  y: number
) => {
  const context = page.doc.context
  const image = context.register(PDFRawStream.of(
    context.obj({
      Type: "XObject",
      Subtype: "Image",
      Width: side,
      Height: side,
      BitsPerComponent: 8,
      ColorSpace: space,
      Filter: "FlateDecode",
      ...extra
    }),
    data
  ))
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(side, 0, 0, side, 20, y),
    drawObject(page.node.newXObject(name, image)),
    popGraphicsState()
  )
}

/** One page with one Indexed image in `space`, its samples plain or with PNG predictors, and its figure. */
const figureOf = (
  space: Space,
  rows: "plain" | "predicted",
  extra: Record<string, unknown> = {},
  /** Written into the catalog: bytes a search of the file for an `/Encrypt` key would find. */
  note?: string,
  /** Objects other than streams packed in object streams (PDF 1.5), as pdfTeX and ConTeXt write them. */
  objectStreams = false
) =>
  Effect.gen(function*() {
    const pdf = yield* Effect.promise(async () => {
      const document = await PDFDocument.create()
      const page = document.addPage([400, 400])
      page.drawText("A page with a figure.", {
        x: 20,
        y: 370,
        size: 11,
        font: await document.embedFont(StandardFonts.Helvetica)
      })
      const data = rows === "plain" ? Fflate.zlibSync(indices) : Fflate.zlibSync(predictedRows())
      const parameters = rows === "plain" ? {} : { DecodeParms: { Predictor: 15, Colors: 1, Columns: side } }
      draw(page, "Picture", space(document.context), data, { ...parameters, ...extra }, 200)
      if (note !== undefined) document.catalog.set(PDFName.of("Note"), PDFString.of(note))
      // A colour space behind a reference is found in the file, with its header or in an object stream.
      return document.save({ useObjectStreams: objectStreams })
    })
    return yield* Effect.scoped(Effect.gen(function*() {
      const open = yield* Pdf.open(pdf, undefined)
      const read = Pdf.readPage(open, 1, { figures: true })
      if (Either.isLeft(read)) return assert.fail("the page could not be read")
      const settled = yield* Pdf.settleFigures(open, 1, read.right)
      return settled.content.figures[0]!.figure
    }))
  })

/** A PNG's colour type and its pixels as RGB (filter bytes 0, as the converter and the test's producer write them). */
const rgbOf = (figure: Document.Figure): { readonly type: number; readonly rgb: Uint8Array } => {
  const png = Buffer.from(figure.data)
  const type = png[25]!
  let at = 8
  let plte: Uint8Array = new Uint8Array(0)
  const idat: Array<Uint8Array> = []
  while (at < png.length) {
    const length = png.readUInt32BE(at)
    const name = png.toString("latin1", at + 4, at + 8)
    if (name === "PLTE") plte = png.subarray(at + 8, at + 8 + length)
    if (name === "IDAT") idat.push(png.subarray(at + 8, at + 8 + length))
    at += 12 + length
  }
  const channels = type === 2 ? 3 : 1
  const rows = Fflate.unzlibSync(Buffer.concat(idat))
  const rgb = new Uint8Array(figure.width * figure.height * 3)
  for (let y = 0; y < figure.height; y++) {
    assert.strictEqual(rows[y * (figure.width * channels + 1)], 0)
    for (let x = 0; x < figure.width; x++) {
      const at = y * (figure.width * channels + 1) + 1 + x * channels
      for (let c = 0; c < 3; c++) {
        rgb[(y * figure.width + x) * 3 + c] = type === 3
          ? plte[rows[at]! * 3 + c]!
          : rows[at + (channels === 3 ? c : 0)]!
      }
    }
  }
  return { type, rgb }
}

const expected = new Uint8Array(side * side * 3).map((_, i) => palette[indices[Math.floor(i / 3)]! * 3 + (i % 3)]!)

describe("EPUB figures of Indexed images", () => {
  it.effect("an inline palette of plain samples: a palette PNG of the inflated indices", () =>
    Effect.gen(function*() {
      const figure = yield* figureOf(indexed(PDFName.of("DeviceRGB"), hexPalette()), "plain")
      const { rgb, type } = rgbOf(figure)
      assert.strictEqual(type, 3)
      assert.deepStrictEqual(rgb, expected)
    }))

  it.effect("rows with PNG predictors: the PDF's own stream inside the PNG, as it is", () =>
    Effect.gen(function*() {
      const figure = yield* figureOf(indexed(PDFName.of("DeviceRGB"), hexPalette()), "predicted")
      assert.strictEqual(rgbOf(figure).type, 3)
      assert.deepStrictEqual(rgbOf(figure).rgb, expected)
      assert.isTrue(Buffer.from(figure.data).includes(Buffer.from(Fflate.zlibSync(predictedRows()))))
    }))

  it.effect("a colour space behind a reference, its palette a stream, its base ICC-based", () =>
    Effect.gen(function*() {
      const space: Space = (context) => {
        const profile = context.register(PDFRawStream.of(context.obj({ N: 3 }), new Uint8Array(128)))
        const lookup = context.register(
          PDFRawStream.of(context.obj({ Filter: "FlateDecode" }), Fflate.zlibSync(palette))
        )
        return context.register(indexed(context.obj([PDFName.of("ICCBased"), profile]), lookup)(context))
      }
      const { rgb, type } = rgbOf(yield* figureOf(space, "plain"))
      assert.strictEqual(type, 3)
      assert.deepStrictEqual(rgb, expected)
    }))

  it.effect("a file that is not encrypted but names /Encrypt in a string: its palette behind a reference is read", () =>
    Effect.gen(function*() {
      const space: Space = (context) =>
        context.register(indexed(PDFName.of("DeviceRGB"), context.register(hexPalette()))(context))
      const { rgb, type } = rgbOf(yield* figureOf(space, "plain", {}, "/Encrypt is named here, not used"))
      assert.strictEqual(type, 3)
      assert.deepStrictEqual(rgb, expected)
    }))

  it.effect("a colour space packed in an object stream: read there, a palette PNG", () =>
    Effect.gen(function*() {
      const space: Space = (context) =>
        context.register(indexed(PDFName.of("DeviceRGB"), context.register(hexPalette()))(context))
      const { rgb, type } = rgbOf(yield* figureOf(space, "plain", {}, undefined, true))
      assert.strictEqual(type, 3)
      assert.deepStrictEqual(rgb, expected)
    }))

  it.effect("a /Decode array remaps the indices: decoded by PDFium (an RGB PNG), not copied", () =>
    Effect.gen(function*() {
      const figure = yield* figureOf(indexed(PDFName.of("DeviceRGB"), hexPalette()), "plain", { Decode: [3, 0] })
      const { rgb, type } = rgbOf(figure)
      assert.strictEqual(type, 2)
      assert.notDeepEqual(rgb, expected)
    }))
})
