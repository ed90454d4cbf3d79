/**
 * How EPUB figures are made: an image painted again is made once, plain Flate samples are inflated
 * (never when something remaps them), what zlib cannot read is decoded by PDFium, at most a few
 * figures are made off the conversion's thread at once, PDFium's bitmaps become PNG pixels, and
 * inflated samples become PNG rows in their own buffer.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as Fflate from "fflate"
import * as Zlib from "node:zlib"
import type { PDFPage } from "pdf-lib"
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFRawStream,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts
} from "pdf-lib"
import type { Document } from "../src/index.js"
import type { Bitmap } from "../src/internal/bitmaps.js"
import { pixelsOf, pngRowsOf } from "../src/internal/bitmaps.js"
import * as Pdf from "../src/internal/pdf.js"
import { rowsInPlace, rowsOf } from "../src/internal/png.js"

const side = 64

/** Grey samples no two rows alike. */
const grey = new Uint8Array(side * side).map((_, i) => (i * 7 + Math.floor(i / side) * 13) & 0xFF)

/** Draws an image XObject of `dictionary` and `data` on `page` at `y`, registered once per call. */
const drawImage = (page: PDFPage, name: string, dictionary: Record<string, unknown>, data: Uint8Array, y: number) => {
  const context = page.doc.context
  const stream = PDFRawStream.of(
    context.obj({ Type: "XObject", Subtype: "Image", Width: side, Height: side, BitsPerComponent: 8, ...dictionary }),
    data
  )
  const reference = context.register(stream)
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(side, 0, 0, side, 20, y),
    drawObject(page.node.newXObject(name, reference)),
    popGraphicsState()
  )
  return reference
}

const pdfOf = (draw: (document: PDFDocument) => Promise<void>) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    await draw(document)
    return document.save()
  })

/** Each page read with its figures made (as the conversion does), in order. */
const readAll = (pdf: Uint8Array) =>
  Effect.scoped(Effect.gen(function*() {
    const open = yield* Pdf.open(pdf, undefined)
    const pages: Array<Pdf.PageContent> = []
    const pending: Array<number> = []
    for (let n = 1; n <= open.pages; n++) {
      const read = Pdf.readPage(open, n, { figures: true })
      assert.isTrue(Either.isRight(read))
      if (Either.isLeft(read)) continue
      pending.push(read.right.pending.length)
      pages.push(read.right)
    }
    const made: Array<Pdf.PageContent> = []
    for (const [i, page] of pages.entries()) made.push((yield* Pdf.settleFigures(open, i + 1, page)).content)
    return { pages: made, pending }
  }))

/** A grey PNG's pixels, or an RGB one's whose channels are equal (unfiltered rows, as the converter writes them). */
const greyOf = (figure: Document.Figure): Uint8Array => {
  const png = figure.data
  // Signature, IHDR (its colour type at byte 25), then one IDAT and IEND.
  const channels = png[25] === 2 ? 3 : 1
  const rows = Fflate.unzlibSync(png.subarray(8 + 25 + 8, png.length - 12 - 4))
  const row = figure.width * channels + 1
  const pixels = new Uint8Array(figure.width * figure.height)
  for (let y = 0; y < figure.height; y++) {
    assert.strictEqual(rows[y * row], 0)
    for (let x = 0; x < figure.width; x++) {
      const at = y * row + 1 + x * channels
      if (channels === 3) assert.isTrue(rows[at] === rows[at + 1] && rows[at] === rows[at + 2])
      pixels[y * figure.width + x] = rows[at]!
    }
  }
  return pixels
}

const text = async (document: PDFDocument, page: PDFPage) =>
  page.drawText("A page with a figure.", {
    x: 20,
    y: 370,
    size: 11,
    font: await document.embedFont(StandardFonts.Helvetica)
  })

describe("EPUB figures made once", () => {
  it.effect("an image painted on every page is made once: every page shows the same figure", () =>
    Effect.gen(function*() {
      const pdf = yield* pdfOf(async (document) => {
        const pages = [0, 1, 2].map(() => document.addPage([400, 400]))
        const logo = document.context.register(PDFRawStream.of(
          document.context.obj({
            Type: "XObject",
            Subtype: "Image",
            Width: side,
            Height: side,
            BitsPerComponent: 8,
            ColorSpace: "DeviceGray",
            Filter: "FlateDecode"
          }),
          Fflate.zlibSync(grey)
        ))
        for (const page of pages) {
          await text(document, page)
          page.pushOperators(
            pushGraphicsState(),
            concatTransformationMatrix(side, 0, 0, side, 20, 200),
            drawObject(page.node.newXObject("Logo", logo)),
            popGraphicsState()
          )
        }
      })
      const { pages } = yield* readAll(pdf)
      const figures = pages.map((page) => page.figures[0]?.figure)
      assert.isDefined(figures[0])
      assert.strictEqual(figures[1], figures[0])
      assert.strictEqual(figures[2], figures[0])
      assert.deepStrictEqual(greyOf(figures[0]!), grey)
    }))

  it.effect("a stream painted again is the figure made of it; the same bytes and dictionary in another stream too", () =>
    Effect.gen(function*() {
      const pdf = yield* pdfOf(async (document) => {
        const dictionary = { ColorSpace: "DeviceGray", Filter: "FlateDecode" }
        const data = Fflate.zlibSync(grey)
        const first = document.addPage([400, 400])
        await text(document, first)
        const plain = drawImage(first, "Plain", dictionary, data, 250)
        const inverse = drawImage(first, "Inverse", dictionary, Fflate.zlibSync(grey.map((value) => 255 - value)), 100)
        for (const n of [1, 2]) {
          const page = document.addPage([400, 400])
          await text(document, page)
          // The first page's streams again, and on the second page a stream of the same bytes as one.
          for (const [name, reference, y] of [["Plain", plain, 250], ["Inverse", inverse, 100]] as const) {
            page.pushOperators(
              pushGraphicsState(),
              concatTransformationMatrix(side, 0, 0, side, 20, y),
              drawObject(page.node.newXObject(name, reference)),
              popGraphicsState()
            )
          }
          if (n === 1) drawImage(page, "Copy", dictionary, data, 20)
        }
      })
      const { pages } = yield* readAll(pdf)
      const [plain, inverse] = pages[0]!.figures.map((placed) => placed.figure)
      assert.notStrictEqual(plain, inverse)
      assert.deepStrictEqual(greyOf(plain!), grey)
      assert.deepStrictEqual(greyOf(inverse!), grey.map((value) => 255 - value))
      const later = pages.slice(1).map((page) => page.figures.map((placed) => placed.figure))
      assert.deepStrictEqual(later.map((figures) => figures.length), [3, 2])
      for (const figures of later) {
        assert.strictEqual(figures[0], plain)
        assert.strictEqual(figures[1], inverse)
      }
      assert.strictEqual(later[0]![2], plain)
    }))

  it.effect("the same bytes under another dictionary (a /Decode array) are another figure", () =>
    Effect.gen(function*() {
      const pdf = yield* pdfOf(async (document) => {
        const page = document.addPage([400, 400])
        await text(document, page)
        const data = Fflate.zlibSync(grey)
        drawImage(page, "Plain", { ColorSpace: "DeviceGray", Filter: "FlateDecode" }, data, 250)
        drawImage(page, "Inverted", { ColorSpace: "DeviceGray", Filter: "FlateDecode", Decode: [1, 0] }, data, 100)
      })
      const { pages } = yield* readAll(pdf)
      const [plain, inverted] = pages[0]!.figures.map((placed) => greyOf(placed.figure))
      assert.deepStrictEqual(plain, grey)
      assert.deepStrictEqual(inverted, grey.map((value) => 255 - value))
    }))
})

describe("EPUB figures from Flate samples", () => {
  it.effect("a /Decode array is applied: those samples are decoded by PDFium, not inflated as they are", () =>
    Effect.gen(function*() {
      const pdf = yield* pdfOf(async (document) => {
        const page = document.addPage([400, 400])
        await text(document, page)
        drawImage(
          page,
          "Inverted",
          { ColorSpace: "DeviceGray", Filter: "FlateDecode", Decode: [1, 0] },
          Fflate.zlibSync(grey),
          200
        )
      })
      const { pages } = yield* readAll(pdf)
      assert.deepStrictEqual(greyOf(pages[0]!.figures[0]!.figure), grey.map((value) => 255 - value))
    }))

  it.effect("a stream zlib cannot read to the end is decoded by PDFium at its place instead of being lost", () =>
    Effect.gen(function*() {
      const whole = Fflate.zlibSync(grey, { level: 0 })
      const pdf = yield* pdfOf(async (document) => {
        const page = document.addPage([400, 400])
        await text(document, page)
        drawImage(
          page,
          "Cut",
          { ColorSpace: "DeviceGray", Filter: "FlateDecode" },
          whole.subarray(0, whole.length >> 1),
          200
        )
      })
      const { pages } = yield* readAll(pdf)
      const figure = pages[0]!.figures[0]?.figure
      assert.isDefined(figure)
      assert.deepStrictEqual([figure!.width, figure!.height], [side, side])
      // The rows PDFium could read are the image's.
      assert.deepStrictEqual(greyOf(figure!).subarray(0, side * 8), grey.subarray(0, side * 8))
    }))

  it.effect("a plain Flate image up to 2,800 px a side is kept at its size; a larger one is scaled to 1,400 px", () =>
    Effect.gen(function*() {
      const long = (width: number) => new Uint8Array(width * 60).map((_, i) => (i % width) & 0xFF)
      const pdf = yield* pdfOf(async (document) => {
        const page = document.addPage([400, 400])
        await text(document, page)
        for (const [i, width] of [2800, 2801].entries()) {
          drawImage(
            page,
            `Wide${i}`,
            { ColorSpace: "DeviceGray", Filter: "FlateDecode", Width: width, Height: 60 },
            Fflate.zlibSync(long(width)),
            100 + i * 100
          )
        }
      })
      const { pages } = yield* readAll(pdf)
      const [kept, scaled] = pages[0]!.figures.map((placed) => placed.figure)
      assert.deepStrictEqual([kept!.width, kept!.height], [2800, 60])
      assert.deepStrictEqual(greyOf(kept!), long(2800))
      assert.deepStrictEqual([scaled!.width, scaled!.height], [1400, 30])
    }))

  it.effect("many small figures are all made off the thread at once", () =>
    Effect.gen(function*() {
      const pdf = yield* pdfOf(async (document) => {
        const page = document.addPage([400, 800])
        await text(document, page)
        for (let i = 0; i < 6; i++) {
          drawImage(
            page,
            `Image${i}`,
            { ColorSpace: "DeviceGray", Filter: "FlateDecode" },
            Fflate.zlibSync(grey.map((value) => value ^ i)),
            20 + i * 100
          )
        }
      })
      const { pages, pending } = yield* readAll(pdf)
      assert.deepStrictEqual(pending, [6])
      assert.deepStrictEqual(
        pages[0]!.figures.map((placed) => greyOf(placed.figure)),
        [0, 1, 2, 3, 4, 5].map((i) => grey.map((value) => value ^ i))
      )
    }))

  it.effect("figures go off the thread up to 32 MiB of pixels at once; the next one is made on it", () =>
    Effect.gen(function*() {
      // 2,800 x 2,800 grey: 7.84 MB each, so four fit and the fifth does not.
      const large = 2800
      const row = (i: number) => new Uint8Array(large).map((_, x) => (x + i * 50) & 0xFF)
      const samples = (i: number) => {
        const out = new Uint8Array(large * large)
        for (let y = 0; y < large; y++) out.set(row(i), y * large)
        return out
      }
      const pdf = yield* pdfOf(async (document) => {
        const page = document.addPage([400, 800])
        await text(document, page)
        for (let i = 0; i < 5; i++) {
          drawImage(
            page,
            `Large${i}`,
            { ColorSpace: "DeviceGray", Filter: "FlateDecode", Width: large, Height: large },
            Zlib.deflateSync(samples(i), { level: 1 }),
            20 + i * 100
          )
        }
      })
      const { pages, pending } = yield* readAll(pdf)
      assert.deepStrictEqual(pending, [4])
      // The PNG's first row (after its filter byte) is the image's.
      const firstRow = (png: Uint8Array) =>
        Zlib.inflateSync(png.subarray(8 + 25 + 8, png.length - 16)).subarray(1, 1 + large)
      assert.deepStrictEqual(
        pages[0]!.figures.map((placed) => new Uint8Array(firstRow(placed.figure.data))),
        [0, 1, 2, 3, 4].map(row)
      )
    }))
})

describe("PDFium's bitmaps as PNG pixels", () => {
  /** The bitmap of `pixels` (RGB) as PDFium lays it out in `sourceChannels`, rows padded to a stride. */
  const bitmapOf = (pixels: Uint8Array, width: number, height: number, sourceChannels: 3 | 4) => {
    const stride = width * sourceChannels + 5
    const bytes = new Uint8Array(stride * height).fill(0xEE)
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * stride + x * sourceChannels
        const o = (y * width + x) * 3
        bytes[i] = pixels[o + 2]!
        bytes[i + 1] = pixels[o + 1]!
        bytes[i + 2] = pixels[o]!
        if (sourceChannels === 4) bytes[i + 3] = (x + y) & 0xFF
      }
    }
    return { bytes, width, height, stride, sourceChannels }
  }
  const width = 7
  const height = 5
  const rgb = new Uint8Array(width * height * 3).map((_, i) => (i * 37) & 0xFF)

  it("turns BGR and BGRx into RGB, BGRA into RGBA and keeps grey, whatever the row padding", () => {
    assert.deepStrictEqual(pixelsOf(bitmapOf(rgb, width, height, 3), 3, width, height), rgb)
    assert.deepStrictEqual(pixelsOf(bitmapOf(rgb, width, height, 4), 3, width, height), rgb)
    const rgba = pixelsOf(bitmapOf(rgb, width, height, 4), 4, width, height)
    for (let p = 0; p < width * height; p++) {
      assert.deepStrictEqual([...rgba.subarray(p * 4, p * 4 + 3)], [...rgb.subarray(p * 3, p * 3 + 3)])
      assert.strictEqual(rgba[p * 4 + 3], (p % width + Math.floor(p / width)) & 0xFF)
    }
    const greyBitmap = {
      bytes: new Uint8Array([1, 2, 3, 0, 4, 5, 6, 0]),
      width: 3,
      height: 2,
      stride: 4,
      sourceChannels: 1 as const
    }
    assert.deepStrictEqual(pixelsOf(greyBitmap, 1, 3, 2), new Uint8Array([1, 2, 3, 4, 5, 6]))
  })

  it("scales down by the rounded mean of the source pixels each target pixel covers", () => {
    const scaled = pixelsOf(bitmapOf(rgb, width, height, 4), 3, 3, 2)
    // Target (x, y) covers source columns floor(x * 7 / 3) .. floor((x + 1) * 7 / 3) and rows likewise.
    const expected = new Uint8Array(3 * 2 * 3)
    for (let y = 0; y < 2; y++) {
      for (let x = 0; x < 3; x++) {
        const [x0, x1] = [Math.floor(x * width / 3), Math.floor((x + 1) * width / 3)]
        const [y0, y1] = [Math.floor(y * height / 2), Math.floor((y + 1) * height / 2)]
        for (let c = 0; c < 3; c++) {
          let sum = 0
          for (let sy = y0; sy < y1; sy++) for (let sx = x0; sx < x1; sx++) sum += rgb[(sy * width + sx) * 3 + c]!
          expected[(y * 3 + x) * 3 + c] = Math.round(sum / ((y1 - y0) * (x1 - x0)))
        }
      }
    }
    assert.deepStrictEqual(scaled, expected)
  })

  it("scales grey, BGR, BGRx and BGRA alike: each target channel the rounded mean of the source ones it covers", () => {
    // The source's own layout read naively, pixel by pixel: what the scaled pixels must average.
    const channelAt = (bitmap: Bitmap, channels: 1 | 3 | 4, x: number, y: number, c: number) =>
      bitmap.bytes[y * bitmap.stride + x * bitmap.sourceChannels + (channels === 1 ? 0 : [2, 1, 0, 3][c]!)]!
    const grey = { ...bitmapOf(rgb, width, height, 3), sourceChannels: 1 as const, stride: width + 2 }
    const cases = [[grey, 1], [bitmapOf(rgb, width, height, 3), 3], [bitmapOf(rgb, width, height, 4), 3], [
      bitmapOf(rgb, width, height, 4),
      4
    ]] as const
    for (const [bitmap, channels] of cases) {
      for (const [w, h] of [[3, 2], [1, 1], [6, 5], [7, 3]] as const) {
        const expected = new Uint8Array(w * h * channels)
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            const [x0, x1] = [Math.floor(x * width / w), Math.floor((x + 1) * width / w)]
            const [y0, y1] = [Math.floor(y * height / h), Math.floor((y + 1) * height / h)]
            for (let c = 0; c < channels; c++) {
              let sum = 0
              for (let sy = y0; sy < y1; sy++) {
                for (let sx = x0; sx < x1; sx++) sum += channelAt(bitmap, channels, sx, sy, c)
              }
              expected[(y * w + x) * channels + c] = Math.round(sum / ((y1 - y0) * (x1 - x0)))
            }
          }
        }
        assert.deepStrictEqual(
          pixelsOf(bitmap, channels, w, h),
          expected,
          `${bitmap.sourceChannels} -> ${channels}, ${w}x${h}`
        )
      }
    }
  })

  it("gives PNG rows (a zero filter byte before each row) of the same pixels, at its size or scaled, grey or colour", () => {
    const grey = {
      bytes: new Uint8Array([1, 2, 3, 0, 4, 5, 6, 0]),
      width: 3,
      height: 2,
      stride: 4,
      sourceChannels: 1 as const
    }
    const cases = [
      [bitmapOf(rgb, width, height, 3), 3, width, height],
      [bitmapOf(rgb, width, height, 4), 4, width, height],
      [bitmapOf(rgb, width, height, 4), 3, 3, 2],
      [grey, 1, 3, 2]
    ] as const
    for (const [bitmap, channels, w, h] of cases) {
      assert.deepStrictEqual(
        pngRowsOf(bitmap, channels, w, h),
        rowsOf(pixelsOf(bitmap, channels, w, h), w, h, channels)
      )
    }
  })
})

describe("PNG rows made where the pixels lie", () => {
  const width = 5
  const height = 4
  const pixels = () => new Uint8Array(width * height * 3).map((_, i) => 1 + ((i * 29) & 0x7F))

  it("moves each row up by its filter byte in a buffer of exactly the rows' size: rowsOf's bytes, no new buffer", () => {
    const expected = rowsOf(pixels(), width, height, 3)
    const room = new Uint8Array(height * (width * 3 + 1))
    room.set(pixels())
    const rows = rowsInPlace(room.subarray(0, width * height * 3), width, height, 3)
    assert.strictEqual(rows?.buffer, room.buffer)
    assert.deepStrictEqual(rows, expected)
  })

  it("leaves a buffer it does not own alone: larger (a pool), or the pixels further in", () => {
    const pool = new Uint8Array(4096)
    pool.set(pixels())
    assert.isUndefined(rowsInPlace(pool.subarray(0, width * height * 3), width, height, 3))
    const further = new Uint8Array(8 + height * (width * 3 + 1))
    assert.isUndefined(rowsInPlace(further.subarray(8, 8 + width * height * 3), width, height, 3))
    assert.deepStrictEqual(pool.subarray(0, width * height * 3), pixels())
  })
})
