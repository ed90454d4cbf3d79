import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  beginText,
  endText,
  moveText,
  PDFDocument,
  PDFOperator,
  PDFOperatorNames,
  setFontAndSize,
  StandardFonts
} from "pdf-lib"
import * as Pdf from "../src/internal/pdf.js"

/**
 * A page with one line set as pdfTeX sets a tabular row: one TJ run whose cells are parted by
 * kerns (`kern` thousandths of the size), not by spaces; `ruled` draws a table's rules above and below it.
 */
const rowPdf = (ruled: boolean, kern = -2500) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    const font = await document.embedFont(StandardFonts.Helvetica)
    const page = document.addPage([612, 792])
    const name = page.node.newFontDictionary("F1", font.ref)
    // Kerns in thousandths of the size: 2.5 em between cells, 0.25 em (a word space) inside one.
    const row = document.context.obj([
      font.encodeText("Residuals"),
      kern,
      font.encodeText("93"),
      kern,
      font.encodeText("18682.87"),
      -250,
      font.encodeText("units")
    ])
    page.pushOperators(
      beginText(),
      setFontAndSize(name, 10),
      moveText(100, 700),
      PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [row]),
      endText()
    )
    if (ruled) {
      page.drawLine({ start: { x: 90, y: 720 }, end: { x: 420, y: 720 }, thickness: 0.4 })
      page.drawLine({ start: { x: 90, y: 690 }, end: { x: 420, y: 690 }, thickness: 0.4 })
    }
    return document.save()
  })

const runsOf = (pdf: Uint8Array) =>
  Effect.scoped(Effect.flatMap(Pdf.open(pdf, undefined), (open) => Pdf.readPage(open, 1, { figures: false }))).pipe(
    Effect.map((page) => page.items.map((item) => item.text.replace(/\s+/g, " ").trim()))
  )

describe("a table's row set as one run", () => {
  it.effect("between a table's rules, the run is split at its gaps wider than a cell gap, not at word spaces", () =>
    Effect.gen(function*() {
      const runs = yield* runsOf(yield* rowPdf(true))
      assert.deepStrictEqual(runs, ["Residuals", "93", "18682.87 units"])
    }))

  it.effect("cells 1.08 em apart (two \\tabcolsep at 11 pt) are split too", () =>
    Effect.gen(function*() {
      const runs = yield* runsOf(yield* rowPdf(true, -1080))
      assert.deepStrictEqual(runs, ["Residuals", "93", "18682.87 units"])
    }))

  it.effect("outside rules, the run stays whole: running text is not cut at a wide space", () =>
    Effect.gen(function*() {
      const runs = yield* runsOf(yield* rowPdf(false))
      assert.strictEqual(runs.length, 1)
      assert.match(runs[0]!, /^Residuals 93 18682\.87 ?units$/)
    }))
})
