/**
 * EPUB figures: an image's own bytes are copied when they make a file a reader shows as it is (a
 * JPEG; a Flate stream with PNG predictors, wrapped as a PNG), and decoded to PNG otherwise; every
 * path keeps the pixels.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as Fflate from "fflate"
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFRawStream,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts
} from "pdf-lib"
import { ConverterLive } from "../src/index.js"
import { predictedRows } from "../src/internal/copiedImages.js"
import { describedIn, imageObject, rawData, rawDataOrKnown } from "../src/internal/imageObject.js"
import { readFrame } from "../src/internal/jpeg.js"
import * as Pdf from "../src/internal/pdf.js"
import { encodePng } from "../src/internal/png.js"
import * as StreamDictionaries from "../src/internal/streamDictionaries.js"
import { rowsIn } from "../src/internal/streamDictionaries.js"
import { readCorpus } from "./support/corpus.js"

const converter = ConverterLive.makeInProcess()

/** The files of an EPUB and the media type its package gives each. */
const unpack = (epub: Uint8Array) => {
  const files = Fflate.unzipSync(epub)
  const opf = new TextDecoder().decode(files["OEBPS/content.opf"]!)
  const mediaTypes = new Map(
    [...opf.matchAll(/<item [^>]*href="([^"]+)" media-type="([^"]+)"/g)].map((m) => [`OEBPS/${m[1]}`, m[2]!])
  )
  const figures = Object.keys(files).filter((name) => name.startsWith("OEBPS/images/")).sort()
  return { files, mediaTypes, figures }
}

/** A PNG's header fields and its image data (the IDAT chunks joined). */
const readPng = (png: Uint8Array) => {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  let at = 8
  let header = { width: 0, height: 0, depth: 0, colourType: 0 }
  const idat: Array<Uint8Array> = []
  while (at < png.length) {
    const length = view.getUint32(at)
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8))
    const data = png.subarray(at + 8, at + 8 + length)
    if (type === "IHDR") {
      header = { width: view.getUint32(at + 8), height: view.getUint32(at + 12), depth: data[8]!, colourType: data[9]! }
    }
    if (type === "IDAT") idat.push(data)
    at += 12 + length
  }
  return { ...header, idat: Buffer.concat(idat) }
}

/** The pixels of a PNG whose rows are all unfiltered (filter byte 0), as this test writes them. */
const unfilteredPixels = (png: ReturnType<typeof readPng>, channels: number): Uint8Array => {
  const rows = Fflate.unzlibSync(png.idat)
  const row = png.width * channels
  const pixels = new Uint8Array(png.height * row)
  for (let y = 0; y < png.height; y++) {
    assert.strictEqual(rows[y * (row + 1)], 0, `row ${y} is unfiltered`)
    pixels.set(rows.subarray(y * (row + 1) + 1, (y + 1) * (row + 1)), y * row)
  }
  return pixels
}

/** RGB pixels no two rows alike, so that a shifted row or a lost byte shows. */
const width = 120
const height = 80
const rgb = new Uint8Array(width * height * 3)
for (let y = 0; y < height; y++) {
  for (let x = 0; x < width; x++) {
    const i = (y * width + x) * 3
    rgb[i] = (x * 2) & 0xFF
    rgb[i + 1] = (y * 3) & 0xFF
    rgb[i + 2] = (x * y) & 0xFF
  }
}
/** The same pixels as a zlib stream of rows each led by filter byte 0: PNG image data, and PDF Flate data with `/Predictor 15`. */
const predicted = (() => {
  const rows = new Uint8Array(height * (width * 3 + 1))
  for (let y = 0; y < height; y++) rows.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1)
  return Fflate.zlibSync(rows, { level: 9 })
})()
const rgba = new Uint8Array(width * height * 4)
for (let i = 0; i < width * height; i++) {
  rgba.set(rgb.subarray(i * 3, i * 3 + 3), i * 4)
  rgba[i * 4 + 3] = 255
}

/**
 * A page of text with two images of the same pixels: first a Flate stream with PNG predictors
 * (written by hand: `/DecodeParms << /Predictor 15 >>`), then the same image as pdf-lib embeds a
 * PNG (its rows inflated and deflated again, without predictors). `byReference`: both streams'
 * `/DecodeParms` are indirect objects, which the dictionary lookup does not follow, so whether
 * their rows carry predictors is found by inflating them (the second is then written by hand too,
 * without predictors, `/Predictor 1`).
 */
const twoImages = (byReference = false) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    const page = document.addPage([400, 400])
    const font = await document.embedFont(StandardFonts.Helvetica)
    page.drawText("A page with two figures of the same pixels.", { x: 20, y: 370, size: 11, font })
    const context = document.context
    /** Draws a hand-written RGB Flate image of `data` at `y`, with these parameters (by reference when asked). */
    const drawFlate = (name: string, data: Uint8Array, parameters: Record<string, number>, y: number) => {
      const stream = PDFRawStream.of(
        context.obj({
          Type: "XObject",
          Subtype: "Image",
          Width: width,
          Height: height,
          ColorSpace: "DeviceRGB",
          BitsPerComponent: 8,
          Filter: "FlateDecode",
          DecodeParms: byReference ? context.register(context.obj(parameters)) : parameters
        }),
        data
      )
      const xObject = page.node.newXObject(name, context.register(stream))
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(width, 0, 0, height, 20, y),
        drawObject(xObject),
        popGraphicsState()
      )
    }
    drawFlate("Predicted", predicted, { Predictor: 15, Colors: 3, BitsPerComponent: 8, Columns: width }, 250)
    if (byReference) drawFlate("Plain", Fflate.zlibSync(rgb), { Predictor: 1 }, 100)
    else {
      const embedded = await document.embedPng(encodePng(rgba, width, height))
      page.drawImage(embedded, { x: 20, y: 100, width, height })
    }
    return document.save()
  })

/** Which of a PDF's first page's figures are not made when the page is read (checked or made off the thread). */
const pendingOnFirstPage = (pdf: Uint8Array) =>
  Effect.scoped(Effect.gen(function*() {
    const open = yield* Pdf.open(pdf, undefined)
    const page = Pdf.readPage(open, 1, { figures: true })
    assert.isTrue(Either.isRight(page))
    if (Either.isLeft(page)) return []
    const pending = new Set(page.right.pending.map((pending) => pending.placed))
    return page.right.figures.flatMap((placed, i) => pending.has(placed) ? [i] : [])
  }))

describe("EPUB figures", () => {
  it.effect("a Flate image with PNG predictors is copied into a PNG; one without is inflated into one; both keep the pixels", () =>
    Effect.gen(function*() {
      const pdf = yield* twoImages()
      // Their dictionaries, found in the file, say which has predictors: the copy has nothing to
      // check; the other's samples are inflated and compressed again off the conversion's thread.
      assert.deepStrictEqual(yield* pendingOnFirstPage(pdf), [1])
      const { files, mediaTypes, figures } = unpack((yield* converter.toEpub(pdf)).output)
      assert.deepStrictEqual(figures, ["OEBPS/images/figure-0001.png", "OEBPS/images/figure-0002.png"])
      for (const figure of figures) assert.strictEqual(mediaTypes.get(figure), "image/png")

      const copied = readPng(files[figures[0]!]!)
      // The PDF's stream is the PNG's image data byte for byte: nothing was recompressed.
      assert.deepStrictEqual(new Uint8Array(copied.idat), predicted)
      assert.deepStrictEqual([copied.width, copied.height, copied.depth, copied.colourType], [width, height, 8, 2])
      assert.deepStrictEqual(unfilteredPixels(copied, 3), rgb)

      // No predictors: written as RGB (no alpha channel for an opaque image).
      const decoded = readPng(files[figures[1]!]!)
      assert.deepStrictEqual([decoded.width, decoded.height, decoded.depth, decoded.colourType], [width, height, 8, 2])
      assert.notDeepEqual(new Uint8Array(decoded.idat), predicted)
      assert.deepStrictEqual(unfilteredPixels(decoded, 3), rgb)
    }))

  it.effect("parameters the lookup does not follow: the rows are checked; a copy that passes is kept", () =>
    Effect.gen(function*() {
      const pdf = yield* twoImages(true)
      assert.deepStrictEqual(yield* pendingOnFirstPage(pdf), [0, 1])
      const { files, figures } = unpack((yield* converter.toEpub(pdf)).output)
      assert.deepStrictEqual(figures, ["OEBPS/images/figure-0001.png", "OEBPS/images/figure-0002.png"])
      assert.deepStrictEqual(new Uint8Array(readPng(files[figures[0]!]!).idat), predicted)
      for (const figure of figures) assert.deepStrictEqual(unfilteredPixels(readPng(files[figure]!), 3), rgb)
    }))

  it.effect("the same inside a form XObject: a copy that fails its check is decoded at its place in the form", () =>
    Effect.gen(function*() {
      const inner = yield* twoImages(true)
      const pdf = yield* Effect.promise(async () => {
        const document = await PDFDocument.create()
        const [form] = await document.embedPdf(inner)
        document.addPage([400, 400]).drawPage(form!, { x: 0, y: 0 })
        return document.save()
      })
      const { files, figures } = unpack((yield* converter.toEpub(pdf)).output)
      assert.deepStrictEqual(figures, ["OEBPS/images/figure-0001.png", "OEBPS/images/figure-0002.png"])
      assert.deepStrictEqual(new Uint8Array(readPng(files[figures[0]!]!).idat), predicted)
      for (const figure of figures) assert.deepStrictEqual(unfilteredPixels(readPng(files[figure]!), 3), rgb)
    }))

  it.effect("a JPEG is copied as it is in the PDF, as image/jpeg", () =>
    Effect.gen(function*() {
      const pdf = readCorpus("text/pdkids.pdf")
      const { files, mediaTypes, figures } = unpack((yield* converter.toEpub(pdf)).output)
      const jpegs = figures.filter((name) => name.endsWith(".jpg"))
      // pdkids paints nine JPEGs of figure size (a tenth is 60 x 45 pixels: an ornament).
      assert.strictEqual(jpegs.length, 9, figures.join(", "))
      const source = Buffer.from(pdf)
      for (const name of jpegs) {
        const jpeg = files[name]!
        assert.strictEqual(mediaTypes.get(name), "image/jpeg")
        const frame = readFrame(jpeg)
        assert.isDefined(frame)
        assert.strictEqual(frame!.components, 3)
        // Its bytes are in the PDF as they are (pdkids stores its JPEGs unfiltered but for DCT).
        assert.isAbove(source.indexOf(jpeg), 0, `${name} is a copy of the PDF's stream`)
      }
    }))
})

describe("JPEG frame header", () => {
  const segment = (marker: number, body: ReadonlyArray<number>) => [0xFF, marker, 0, body.length + 2, ...body]
  const frame = (marker: number, components: number) =>
    segment(marker, [8, 0x01, 0x2C, 0x00, 0xC8, components, ...Array(components * 3).fill(1)])
  const jpeg = (...segments: ReadonlyArray<ReadonlyArray<number>>) =>
    new Uint8Array([0xFF, 0xD8, ...segments.flat(), 0xFF, 0xDA, 0, 2, 0xFF, 0xD9])
  const app0 = segment(0xE0, [0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])

  it("reads size, components and kind after other segments", () => {
    assert.deepStrictEqual(readFrame(jpeg(app0, frame(0xC0, 3))), {
      precision: 8,
      height: 300,
      width: 200,
      components: 3,
      common: true
    })
    assert.strictEqual(readFrame(jpeg(app0, frame(0xC2, 1)))?.common, true)
    assert.strictEqual(readFrame(jpeg(frame(0xC2, 4)))?.components, 4)
    // Lossless and arithmetic-coded frames are not what every reader shows.
    assert.strictEqual(readFrame(jpeg(frame(0xC3, 3)))?.common, false)
    assert.strictEqual(readFrame(jpeg(frame(0xC9, 3)))?.common, false)
  })

  it("answers undefined for what is not a readable JPEG", () => {
    assert.isUndefined(readFrame(new Uint8Array([0x89, 0x50, 0x4E, 0x47])))
    assert.isUndefined(readFrame(jpeg(app0)))
    assert.isUndefined(readFrame(jpeg(app0, frame(0xC0, 3)).subarray(0, 24)))
    assert.isUndefined(readFrame(new Uint8Array([0xFF, 0xD8, 0xFF, 0xE0, 0, 0])))
  })
})

describe("the check of a copied Flate stream", () => {
  const rowLength = width * 3 + 1
  const check = (data: Uint8Array, rows = height) => Effect.promise(() => predictedRows(data, rowLength, rows))
  const rowsOf = (filter: (row: number) => number) => {
    const rows = Fflate.unzlibSync(predicted)
    for (let y = 0; y < height; y++) rows[y * rowLength] = filter(y)
    return rows
  }

  it.effect("passes rows that each start with a filter byte, and nothing else", () =>
    Effect.gen(function*() {
      assert.isTrue(yield* check(predicted))
      assert.isTrue(yield* check(Fflate.zlibSync(rowsOf((y) => y % 5))))
      // A row led by 5 (no PNG filter), one row too many or too few, a stream cut short, not zlib.
      assert.isFalse(yield* check(Fflate.zlibSync(rowsOf((y) => (y === height - 1 ? 5 : 0)))))
      assert.isFalse(yield* check(predicted, height - 1))
      assert.isFalse(yield* check(predicted, height + 1))
      assert.isFalse(yield* check(predicted.subarray(0, predicted.length >> 1)))
      assert.isFalse(yield* check(rgb))
    }))
  it.effect("reads row starts across the chunks zlib hands back (a quarter megabyte each)", () =>
    Effect.gen(function*() {
      // 600 rows of 1,001 bytes: 600 KB in three chunks, whose edges fall inside rows.
      const long = 1001
      const rows = new Uint8Array(600 * long)
      for (let i = 0; i < rows.length; i++) rows[i] = i % long === 0 ? (i / long) % 5 : (i * 7) & 0xFF
      const checkLong = (bytes: Uint8Array) => Effect.promise(() => predictedRows(Fflate.zlibSync(bytes), long, 600))
      assert.isTrue(yield* checkLong(rows))
      const late = rows.slice()
      // The start of row 400, in the second chunk: a byte no PNG filter has.
      late[400 * long] = 9
      assert.isFalse(yield* checkLong(late))
    }))
})

describe("an image's stream dictionary", () => {
  it("says whether its rows carry PNG predictors, and how they are laid out", () => {
    assert.deepStrictEqual(
      rowsIn("<< /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns 120 >> >>"),
      { _tag: "Predicted", columns: 120, colors: 3, bitsPerComponent: 8 }
    )
    // One filter's parameters in an array; Colors and BitsPerComponent by their defaults.
    assert.deepStrictEqual(rowsIn("<</Filter[/FlateDecode]/DecodeParms[<</Predictor 12/Columns 64>>]>>"), {
      _tag: "Predicted",
      columns: 64,
      colors: 1,
      bitsPerComponent: 8
    })
    assert.deepStrictEqual(rowsIn("<< /Filter /FlateDecode /Width 10 >>"), { _tag: "Plain" })
    assert.deepStrictEqual(rowsIn("<< /Filter /FlateDecode /DecodeParms << /Predictor 1 >> >>"), { _tag: "Plain" })
    // Parameters elsewhere, or a TIFF predictor: not told here.
    assert.isUndefined(rowsIn("<< /Filter /FlateDecode /DecodeParms 12 0 R >>"))
    assert.isUndefined(rowsIn("<< /Filter /FlateDecode /DecodeParms << /Predictor 2 /Columns 9 >> >>"))
  })
})

describe("where an image's stream is in the file", () => {
  const streamObject = (number: number, data: string) =>
    `${number} 0 obj\n<< /Length ${data.length} >>\nstream\n${data}\nendstream\nendobj\n`
  const once = "x\u0001a stream seen once, long enough to be indexed"
  const twice = "x\u0001a stream written twice, long enough to be indexed"
  const file = `%PDF-1.7\n${streamObject(1, twice)}${streamObject(2, once)}${streamObject(3, twice)}`
  const bytes = (text: string) => new Uint8Array(Buffer.from(text, "latin1"))

  it("is the one place its bytes start; none when they are in two places or nowhere", () => {
    const dictionaries = StreamDictionaries.make(bytes(file))
    assert.strictEqual(dictionaries.startOf(bytes(once)), file.indexOf(once))
    assert.isUndefined(dictionaries.startOf(bytes(twice)))
    assert.isUndefined(dictionaries.startOf(bytes(`${once.slice(0, -1)}!`)))
  })

  it.effect("is looked up in PDFium's own copy, and the stream copied out only when that finds nothing", () =>
    Effect.scoped(Effect.gen(function*() {
      const pdf = readCorpus("text/pdkids.pdf")
      const open = yield* Pdf.open(pdf, undefined)
      const m = open.module
      // Its second page paints a JPEG.
      const page = m.FPDF_LoadPage(open.document, 1)
      let images = 0
      for (let i = 0; i < m.FPDFPage_CountObjects(page); i++) {
        const object = m.FPDFPage_GetObject(page, i)
        if (m.FPDFPageObj_GetType(object) !== 3) continue
        images++
        const data = rawData(m, object)!
        let seen: Uint8Array | undefined
        const found = rawDataOrKnown(m, object, (view) => {
          seen = view.slice()
          return view.byteLength
        })
        assert.deepStrictEqual(found, { _tag: "Known", known: data.byteLength })
        assert.deepStrictEqual(seen, data)
        assert.deepStrictEqual(rawDataOrKnown(m, object, () => undefined), { _tag: "Data", data })
      }
      m.FPDF_ClosePage(page)
      assert.isAbove(images, 0)
    })))
})

describe("an image described by its stream dictionary", () => {
  it("is an 8-bit grey or RGB image whose size and filter the dictionary writes out, read at its top level", () => {
    assert.deepStrictEqual(
      describedIn(
        "<</Type/XObject/Subtype/Image/Width 662/Height 508/BitsPerComponent 8/Length 11 0 R /Filter/FlateDecode/ColorSpace/DeviceRGB >>"
      ),
      { filter: "FlateDecode", width: 662, height: 508, bitsPerPixel: 24, colourSpace: 2 }
    )
    assert.deepStrictEqual(
      describedIn("<< /Width 64 /Height 48 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter [ /DCTDecode ] >>"),
      { filter: "DCTDecode", width: 64, height: 48, bitsPerPixel: 8, colourSpace: 1 }
    )
    // Two filters: no single one, as PDFium's filter count says.
    assert.isUndefined(
      describedIn(
        "<< /Width 64 /Height 48 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter [/ASCII85Decode /FlateDecode] >>"
      )
        ?.filter
    )
    // The parameters' BitsPerComponent is not the image's.
    assert.isUndefined(
      describedIn(
        "<< /DecodeParms << /BitsPerComponent 8 /Predictor 15 >> /Width 9 /Height 9 /ColorSpace /DeviceRGB /BitsPerComponent 4 >>"
      )
    )
    // What PDFium must tell: a named resource, an ICC profile, a size by reference, a mask.
    assert.isUndefined(describedIn("<< /Width 9 /Height 9 /ColorSpace /CS0 /BitsPerComponent 8 >>"))
    assert.isUndefined(describedIn("<< /Width 9 /Height 9 /ColorSpace [/ICCBased 5 0 R] /BitsPerComponent 8 >>"))
    assert.isUndefined(describedIn("<< /Width 9 0 R /Height 9 /ColorSpace /DeviceRGB /BitsPerComponent 8 >>"))
    assert.isUndefined(
      describedIn("<< /Width 9 /Height 9 /ColorSpace /DeviceGray /BitsPerComponent 8 /ImageMask true >>")
    )
  })
  it.effect("says what PDFium's metadata says of every image it describes (pdkids' figures)", () =>
    Effect.scoped(Effect.gen(function*() {
      const pdf = readCorpus("text/pdkids.pdf")
      const open = yield* Pdf.open(pdf, undefined)
      const dictionaries = StreamDictionaries.make(pdf)
      const m = open.module
      let described = 0
      for (let n = 0; n < open.pages; n++) {
        const page = m.FPDF_LoadPage(open.document, n)
        for (let i = 0; i < m.FPDFPage_CountObjects(page); i++) {
          const object = m.FPDFPage_GetObject(page, i)
          if (m.FPDFPageObj_GetType(object) !== 3) continue
          const data = rawData(m, object)
          const dictionary = data === undefined ? undefined : dictionaries.dictionaryOf(data)
          const image = dictionary === undefined ? undefined : describedIn(dictionary)
          if (image === undefined) continue
          described++
          assert.deepStrictEqual(image, imageObject(m, object, page))
        }
        m.FPDF_ClosePage(page)
      }
      assert.isAbove(described, 0)
    })))
})
