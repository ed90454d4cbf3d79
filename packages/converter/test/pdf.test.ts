import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { PDFDocument, StandardFonts } from "pdf-lib"
import * as Engine from "../src/internal/engine.js"
import * as Pdf from "../src/internal/pdf.js"

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
})
