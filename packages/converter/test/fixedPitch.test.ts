import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { PDFContext, PDFRef } from "pdf-lib"
import { PDFDocument, PDFHexString, PDFName } from "pdf-lib"
import { evenPitch } from "../src/internal/fixedPitch.js"
import { Style } from "../src/internal/layout/model.js"
import * as Pdf from "../src/internal/pdf.js"
import { type3Font } from "./support/type3Font.js"

/** A nameless Type 3 font for the letters of `text`, each as wide as `width` says. */
const namelessFont = (context: PDFContext, text: string, width: (code: number) => number): PDFRef =>
  type3Font(
    context,
    [...new Set([...text].map((c) => c.charCodeAt(0)))].sort((a, b) => a - b).map((
      code
    ) => [code, String.fromCharCode(code)]),
    { width, glyph: "0 0 0 0 400 600 d1 0 0 400 600 re f" }
  )

const hex = (text: string): string => PDFHexString.of(Buffer.from(text, "latin1").toString("hex")).toString()

/** The styles of a page's runs: lines of words, each word shown on its own (as pdfTeX shows a bitmap font's). */
const runStyles = (lines: ReadonlyArray<string>, width: (code: number) => number) =>
  Effect.scoped(Effect.gen(function*() {
    const pdf = yield* Effect.promise(async () => {
      const document = await PDFDocument.create()
      const page = document.addPage([400, 300])
      page.node.setFontDictionary(PDFName.of("T0"), namelessFont(document.context, lines.join(""), width))
      const shows = lines.flatMap((line, row) =>
        line.split(" ").map((word, i) => `BT /T0 10 Tf ${30 + 12 * i} ${250 - 14 * row} Td ${hex(word)} Tj ET`)
      )
      page.node.addContentStream(document.context.register(document.context.stream(shows.join("\n"))))
      return document.save()
    })
    const open = yield* Pdf.open(pdf, undefined)
    const page = yield* Pdf.readPage(open, 1, { figures: false })
    return page.items.map((item) => item.style & Style.code)
  }))

const listing = ["model = MyBoard;", "compatible = MyBoardFamily;", "cpus {", "reg = <0>;", "};"]

describe("a nameless font's pitch, measured", () => {
  it("equal advances over enough distinct characters, letters among them, are a fixed pitch", () => {
    const even = (chars: string, advance: number) => new Map([...chars].map((c) => [c, advance] as const))
    assert.isTrue(evenPitch(even("modelMyBar;", 0.525)))
    // A proportional face's digits are all as wide: not enough letters.
    assert.isFalse(evenPitch(even("0123456789", 0.5)))
    assert.isFalse(evenPitch(even("model", 0.525)))
    // An ideograph's em is no code face's pitch, nor is a width of nothing.
    assert.isFalse(evenPitch(even("modelMyBar;", 1)))
    assert.isFalse(evenPitch(even("modelMyBar;", 0)))
    assert.isFalse(evenPitch(even("中文字体排版测试中", 0.525)))
    assert.isFalse(evenPitch(new Map([...even("modelMyBar;", 0.525), ["i", 0.28]])))
  })

  it.effect("a nameless Type 3 font whose characters advance alike is code; one of varied advances is not", () =>
    Effect.gen(function*() {
      const fixed = yield* runStyles(listing, () => 525)
      assert.isTrue(fixed.length > 5)
      assert.isTrue(fixed.every((style) => style === Style.code))
      const varied = yield* runStyles(listing, (code) => 300 + 7 * (code % 40))
      assert.isTrue(varied.every((style) => style === 0))
    }))
})
