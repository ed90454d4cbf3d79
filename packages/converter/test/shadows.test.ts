import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { grayscale, PDFDocument, StandardFonts } from "pdf-lib"
import * as Engine from "../src/internal/engine.js"
import { unshadowed } from "../src/internal/layout/shadows.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "./support/engineOptions.js"
import { item, styledItem } from "./support/textItems.js"

describe("text drawn twice a little apart", () => {
  it("keeps the copy drawn last of a run repeated within a third of its size", () => {
    const items = [
      item("Optionally, ports", 106, 106, 28),
      item("Optionally, ports", 100, 100, 28),
      item("can be connected", 106, 140, 28),
      item("can be connected", 100, 134, 28)
    ]
    assert.deepStrictEqual(unshadowed(items, undefined), [false, true, false, true])
  })

  it("keeps repeats that are farther apart, in another face or size, or too short to tell", () => {
    const items = [
      item("total", 100, 100),
      item("total", 100, 114),
      item("total", 106, 100, 12),
      styledItem("total", 101, 101, 2),
      item(".", 200, 100),
      item(".", 202, 100),
      item("1", 300, 100),
      item("1", 301, 100)
    ]
    assert.deepStrictEqual(unshadowed(items, undefined), items.map(() => true))
  })

  it("keeps both copies when they belong to different marked content", () => {
    const items = [item("Heading", 100, 100), item("Heading", 101, 101)]
    assert.deepStrictEqual(unshadowed(items, [3, 4]), [true, true])
    assert.deepStrictEqual(unshadowed(items, [3, 3]), [false, true])
  })

  it.effect("a slide's shadowed text box is read once", () =>
    Effect.gen(function*() {
      const pdf = yield* Effect.promise(async () => {
        const document = await PDFDocument.create()
        const font = await document.embedFont(StandardFonts.HelveticaBold)
        const page = document.addPage([720, 540])
        // More lines than PDFium looks back over when it drops a text object drawn twice.
        const lines = [
          "Optionally, ports",
          "can be connected",
          "to multiple",
          "channels,",
          "and one",
          "channel to",
          "many ports!"
        ]
        for (const [dx, color] of [[6, grayscale(0.5)], [0, grayscale(0)]] as const) {
          lines.forEach((line, i) => page.drawText(line, { x: 400 + dx, y: 500 - dx - i * 34, size: 28, font, color }))
        }
        return document.save()
      })
      const read = yield* Engine.readDocument(pdf, engineOptions(), "markdown")
      const text = Markdown.render(read.document).replace(/[*_]/g, "").replace(/\s+/g, " ").trim()
      assert.strictEqual(
        text,
        "Optionally, ports can be connected to multiple channels, and one channel to many ports!"
      )
    }))
})
