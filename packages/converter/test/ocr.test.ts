import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { PDFDocument, rgb, StandardFonts } from "pdf-lib"
import { Converter, ConverterLive } from "../src/index.js"
import { countFontRun, fontJunk } from "../src/internal/layout/quality.js"
import * as Pdf from "../src/internal/pdf.js"
import { readCorpus } from "./support/corpus.js"
import { pngSize, scanOf } from "./support/scans.js"
import { stripMarkdown, words } from "./support/words.js"

const pdfOf = (draw: (document: PDFDocument) => Promise<void>) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    await draw(document)
    return document.save()
  })

describe("the junk of a page's fonts", () => {
  it("counts the characters that are not text only of fonts that give no letter or digit", () => {
    // A font with a ToUnicode map that leaves its alternates out: labels mapped, alternates read
    // as glyph ids (PDFium flags the run) or as control codes.
    const alternates = { letters: 0, junk: 0 }
    countFontRun(alternates, "(default regular)\u0004", false)
    countFontRun(alternates, "\u0004ʬʭʮ \u0004", true)
    // A font with no Unicode at all: glyph ids that happen to read as letters are junk too.
    const body = { letters: 0, junk: 0 }
    countFontRun(body, "Ab cd", true)
    countFontRun(body, "\u0002\u0003 \u0004", false)
    assert.deepStrictEqual(alternates, { letters: 14, junk: 6 })
    assert.deepStrictEqual(body, { letters: 0, junk: 7 })
    assert.strictEqual(fontJunk([alternates]), 0)
    assert.strictEqual(fontJunk([alternates, body]), 7)
  })

  it("does not count U+FFFD, which a font's own Unicode map gives glyphs without text", () => {
    // An ornament font: its map sends the pattern's glyphs to U+FFFD and gives no letter here.
    const ornaments = { letters: 0, junk: 0 }
    countFontRun(ornaments, "\uFFFD\uFFFD\uFFFD \uFFFD", false)
    countFontRun(ornaments, "\uFFFD\u0004", false)
    assert.deepStrictEqual(ornaments, { letters: 0, junk: 1 })
    assert.strictEqual(fontJunk([ornaments]), 1)
  })
})

describe("OCR only where it pays", () => {
  layer(ConverterLive.layerInProcess(), { excludeTestServices: true })("in process", (it) => {
    it.effect("an index page of dot leaders and page numbers is text, not OCR'd", () =>
      Effect.gen(function*() {
        const names = Array.from({ length: 45 }, (_, i) => `fn${String.fromCharCode(97 + (i % 26))}${i}`)
        const pdf = yield* pdfOf(async (document) => {
          const font = await document.embedFont(StandardFonts.Courier)
          const page = document.addPage([595, 842])
          names.forEach((name, i) =>
            page.drawText(`${name} ${". ".repeat(30)}${100 + i * 7}`, { x: 50, y: 800 - i * 17, size: 9, font })
          )
        })
        const converter = yield* Converter.Converter
        const result = yield* converter.toMarkdown(pdf)
        assert.deepStrictEqual(result.ocrPages, [])
        for (const name of names) assert.include(result.output, name)
      }))

    it.effect(
      "an artwork-only page gives no OCR noise: its Markdown is empty, its EPUB keeps the figure",
      () =>
        Effect.gen(function*() {
          // Shapes and strokes where OCR finds letter-like marks, scanned as one image.
          const artwork = yield* pdfOf(async (document) => {
            const page = document.addPage([595, 842])
            for (let i = 0; i < 60; i++) {
              const x = (i * 97) % 520 + 20
              const y = (i * 53) % 760 + 30
              page.drawCircle({ x, y, size: 8 + (i % 5) * 6, borderWidth: 2, borderColor: rgb(0, 0, 0) })
              page.drawLine({ start: { x, y }, end: { x: x + 30, y: y + (i % 3) * 12 }, thickness: 3 })
              page.drawRectangle({ x: x + 10, y: y - 20, width: 6, height: 18, color: rgb(0.1, 0.1, 0.1) })
            }
          })
          const scan = yield* scanOf(artwork)
          const converter = yield* Converter.Converter
          const markdown = yield* converter.toMarkdown(scan)
          assert.deepStrictEqual(markdown.ocrPages, [1])
          assert.deepStrictEqual(markdown.warnings, [])
          assert.strictEqual(markdown.output.trim(), "", `OCR noise in the Markdown: ${markdown.output}`)
          const epub = yield* converter.toEpub(scan)
          assert.isAbove(epub.output.length, 20_000, "the EPUB holds the page's image")
        }),
      60_000
    )

    it.effect(
      "a French scan read with ocrLanguages [\"fra\"] has its accented words right",
      () =>
        Effect.gen(function*() {
          const converter = yield* Converter.Converter
          const result = yield* converter.toMarkdown(readCorpus("scanned/french-declaration-1789.pdf"), {
            ocrLanguages: ["fra"]
          })
          assert.deepStrictEqual(result.ocrPages, [1])
          const found = new Set(words(stripMarkdown(result.output)))
          const accented = [
            "déclaration",
            "égaux",
            "fondées",
            "utilité",
            "liberté",
            "propriété",
            "sûreté",
            "résistance"
          ]
          const more = ["souveraineté", "réside", "émane", "expressément", "société", "mêmes", "déterminées", "être"]
          const missing = [...accented, ...more].filter((word) => !found.has(word))
          assert.isAtMost(missing.length, 1, `missing: ${missing.join(", ")}\n${result.output}`)
        }),
      60_000
    )

    it.effect("glyphs a font with a Unicode map leaves unmapped (OpenType alternates) do not send a page to OCR", () =>
      Effect.gen(function*() {
        // Its Arabic samples are contextual and stylistic alternates, which Microsoft's Print to
        // PDF leaves out of the fonts' ToUnicode maps; the labels and base letters are mapped.
        const converter = yield* Converter.Converter
        const result = yield* converter.toMarkdown(readCorpus("fidelity/dev/alkalami-features.pdf"))
        assert.deepStrictEqual(result.ocrPages, [])
        assert.include(result.output, "Characters affected: U+0646, U+064A, U+06A2, U+06A7")
        assert.include(result.output, "ss05 (Wagaf Hack):")
      }))

    it.effect("a page of ornaments a font maps to U+FFFD (a type specimen's pattern) is not OCR'd", () =>
      Effect.gen(function*() {
        const converter = yield* Converter.Converter
        const result = yield* converter.toMarkdown(readCorpus("fidelity/dev/murmure-specimen.pdf"))
        assert.deepStrictEqual(result.ocrPages, [])
        assert.include(result.output, "BOUCHERIES")
      }))

    it.effect("an OCR language without a model is a typed error before any work", () =>
      Effect.gen(function*() {
        const converter = yield* Converter.Converter
        // Not even a PDF: the language is checked first.
        const error = yield* Effect.flip(
          converter.toMarkdown(new TextEncoder().encode("not a pdf"), { ocrLanguages: ["eng", "xyz"] })
        )
        assert.strictEqual(error._tag, "OcrLanguageUnavailable")
        assert.isTrue(error._tag === "OcrLanguageUnavailable" && error.language === "xyz")
      }))
  })

  it.effect("a US Letter page is rendered on the 2550 x 3300 grid of a 300 dpi scan, not resampled", () =>
    Effect.gen(function*() {
      // 792 pt * 300 / 72 is 3300.0000000000005 in floating point: one row more blurred the scan.
      const rendering = yield* Effect.scoped(
        Effect.flatMap(Pdf.open(readCorpus("scanned/ocrmypdf-linn.pdf"), undefined), (open) => Pdf.render(open, 1))
      )
      assert.deepStrictEqual(pngSize(rendering.image), [2550, 3300])
    }))
})
