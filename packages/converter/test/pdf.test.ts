import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Zlib from "node:zlib"
import { degrees, PDFDocument, rgb, StandardFonts } from "pdf-lib"
import * as Engine from "../src/internal/engine.js"
import * as Pdf from "../src/internal/pdf.js"
import { encodePng } from "../src/internal/png.js"
import { pngSize } from "./support/scans.js"

/** A document of `pages` pages, each saying its own number, in a font of its own every 10 pages. */
const numberedPages = (pages: number) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    const fonts = [StandardFonts.Helvetica, StandardFonts.TimesRoman, StandardFonts.Courier]
    for (let n = 1; n <= pages; n++) {
      const font = await document.embedFont(fonts[Math.floor(n / 10) % fonts.length]!)
      document.addPage([300, 200]).drawText(`This is page number ${n} of the book.`, { x: 20, y: 100, size: 11, font })
    }
    return document.save()
  })

const options: Engine.EngineOptions = {
  ignorePdfErrors: false,
  ignoreOcrErrors: false,
  filename: undefined,
  password: undefined,
  ocrLanguages: [],
  ocrDataPath: undefined,
  onProgress: () => Effect.void
}

describe("PDFium access", () => {
  it.effect(
    "a long document is reopened as it is read, and every page comes out once, in order",
    () =>
      Effect.gen(function*() {
        const pdf = yield* numberedPages(250)
        const reopenings = yield* Effect.scoped(Effect.gen(function*() {
          const open = yield* Pdf.open(pdf, undefined)
          let count = 0
          for (let n = 1; n <= open.pages; n++) {
            const page = yield* Pdf.readPage(open, n, { figures: false })
            // A Courier page comes as one run per word (fixed-pitch runs are placed word by word).
            assert.strictEqual(page.items.map((item) => item.text).join(" "), `This is page number ${n} of the book.`)
            const before = open.document
            open.refresh()
            if (open.document !== before) count++
          }
          return count
        }))
        // PDFium's caches of one opening are let go every 100 pages.
        assert.strictEqual(reopenings, 2)
        const read = yield* Engine.readDocument(pdf, options, "markdown")
        // Pages set in Courier are code: their lines come out in code blocks, one listing across pages.
        const paragraphs = read.document.blocks.flatMap((block) =>
          block._tag === "Paragraph" ? [block.text] : block._tag === "Code" ? block.text.split("\n") : []
        )
        assert.deepStrictEqual(
          paragraphs,
          Array.from({ length: 250 }, (_, i) => `This is page number ${i + 1} of the book.`)
        )
      }),
    60_000
  )

  it.effect(
    "a page is rendered for OCR as a grey PNG at 300 dpi, pixel for pixel, whatever the size of the page before it",
    () =>
      Effect.gen(function*() {
        // A large page first, then a small one: the row buffer kept from the first must not show
        // through the second.
        const pdf = yield* Effect.promise(async () => {
          const document = await PDFDocument.create()
          document.addPage([600, 800]).drawRectangle({ x: 0, y: 0, width: 600, height: 800, color: rgb(0, 0, 0) })
          // Black on the left half, mid grey on the right half.
          const page = document.addPage([72, 36])
          page.drawRectangle({ x: 0, y: 0, width: 36, height: 36, color: rgb(0, 0, 0) })
          page.drawRectangle({ x: 36, y: 0, width: 36, height: 36, color: rgb(0.5, 0.5, 0.5) })
          return document.save()
        })
        const [large, small] = yield* Effect.scoped(Effect.flatMap(
          Pdf.open(pdf, undefined),
          (open) => Effect.all([Pdf.render(open, 1), Pdf.render(open, 2)])
        ))
        const decode = (png: Uint8Array) => {
          assert.deepStrictEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10])
          const [width, height] = pngSize(png)
          // 8-bit grey, then the image data chunk after the header chunk (8 + 25 bytes).
          assert.deepStrictEqual([png[24], png[25]], [8, 0])
          const length = new DataView(png.buffer, png.byteOffset + 33, 4).getUint32(0)
          const idat = png.subarray(41, 41 + length)
          return { width, height, rows: Zlib.inflateSync(idat) }
        }
        assert.strictEqual(large.scale, 300 / 72)
        const first = decode(large.image)
        assert.deepStrictEqual([first.width, first.height], [2500, 3334])
        // Drawn in bands of rows: every row of the black page is black, none left blank between bands.
        const blank = Array.from({ length: first.height }, (_, y) => y).filter((y) =>
          !first.rows.subarray(y * (first.width + 1) + 1, (y + 1) * (first.width + 1)).every((grey) => grey === 0)
        )
        assert.deepStrictEqual(blank, [])
        const { height, rows, width } = decode(small.image)
        assert.deepStrictEqual([width, height], [300, 150])
        assert.strictEqual(rows.length, (width + 1) * height)
        for (let y = 0; y < height; y++) {
          const row = rows.subarray(y * (width + 1), (y + 1) * (width + 1))
          // Filter byte 0, then the pixels; the edge between the halves may be antialiased.
          assert.strictEqual(row[0], 0)
          assert.isTrue(row.subarray(1, 145).every((grey) => grey === 0), `row ${y}: black on the left`)
          assert.isTrue(row.subarray(157).every((grey) => Math.abs(grey - 128) <= 2), `row ${y}: grey on the right`)
        }
      })
  )
  it.effect("a page turned a quarter (/Rotate 90) is read as it is shown: runs as wide as their text, rules across", () =>
    Effect.gen(function*() {
      const first = "optional features th"
      const pdf = yield* Effect.promise(async () => {
        const document = await PDFDocument.create()
        const font = await document.embedFont(StandardFonts.Helvetica)
        const page = document.addPage([612, 792])
        page.setRotation(degrees(90))
        // Shown turned, the PDF's y axis runs across the page and its x axis down it.
        const along = { size: 11, font, rotate: degrees(90) }
        page.drawText(first, { x: 100, y: 100, ...along })
        page.drawText("at provide", { x: 100, y: 100 + font.widthOfTextAtSize(first, 11), ...along })
        page.drawLine({ start: { x: 130, y: 100 }, end: { x: 130, y: 300 }, thickness: 0.5 })
        return document.save()
      })
      const page = yield* Effect.scoped(
        Effect.flatMap(Pdf.open(pdf, undefined), (open) => Pdf.readPage(open, 1, { figures: false }))
      )
      assert.strictEqual(page.width, 792)
      // Two runs of one word, abutting as shown, are one run: no space inside "that".
      assert.deepStrictEqual(page.items.map((item) => item.text), ["optional features that provide"])
      assert.approximately(page.items[0]!.x, 100, 1)
      assert.approximately(page.items[0]!.width, 150, 30)
      const rules = page.rules.filter((rule) => rule.horizontal)
      assert.strictEqual(rules.length, 1)
      assert.approximately(rules[0]!.x1 - rules[0]!.x0, 200, 2)
      assert.approximately(rules[0]!.y0, 130, 2)
    }))

  it.effect("a large slanted watermark is not text; a small slanted label and a page turned a quarter are", () =>
    Effect.gen(function*() {
      const pdf = yield* Effect.promise(async () => {
        const document = await PDFDocument.create()
        const font = await document.embedFont(StandardFonts.Helvetica)
        const page = document.addPage([612, 792])
        for (let i = 0; i < 8; i++) {
          page.drawText(`Body line ${i} of the page.`, { x: 72, y: 700 - 20 * i, size: 11, font })
        }
        page.drawText("CONFIDENTIAL", { x: 150, y: 300, size: 60, font, rotate: degrees(45) })
        page.drawText("axis label", { x: 300, y: 200, size: 9, font, rotate: degrees(45) })
        page.drawText("Upright title", { x: 40, y: 300, size: 30, font, rotate: degrees(90) })
        return document.save()
      })
      const page = yield* Effect.scoped(
        Effect.flatMap(Pdf.open(pdf, undefined), (open) => Pdf.readPage(open, 1, { figures: false }))
      )
      const texts = page.items.map((item) => item.text)
      assert.isFalse(texts.some((text) => /CONF|DENT|IAL/.test(text)), texts.join(" | "))
      assert.include(texts, "Body line 3 of the page.")
      assert.include(texts, "axis label")
      assert.include(texts, "Upright title")
    }))
  it.effect("a rule painted as a one-pixel image stretched thin (dvips through Ghostscript) is a rule", () =>
    Effect.gen(function*() {
      const pdf = yield* Effect.promise(async () => {
        const document = await PDFDocument.create()
        const page = document.addPage([612, 792])
        const pixel = await document.embedPng(encodePng(new Uint8Array([0, 0, 0, 255]), 1, 1))
        page.drawImage(pixel, { x: 54, y: 600, width: 245, height: 0.4 })
        page.drawImage(pixel, { x: 54, y: 500, width: 30, height: 30 })
        return document.save()
      })
      const page = yield* Effect.scoped(
        Effect.flatMap(Pdf.open(pdf, undefined), (open) => Pdf.readPage(open, 1, { figures: false }))
      )
      assert.strictEqual(page.rules.length, 1)
      assert.isTrue(page.rules[0]!.horizontal)
      assert.approximately(page.rules[0]!.x1 - page.rules[0]!.x0, 245, 1)
      assert.approximately(page.rules[0]!.y0, 192, 1)
    }))
})
