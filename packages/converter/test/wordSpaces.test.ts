import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { PDFFont } from "pdf-lib"
import { PDFDocument, StandardFonts } from "pdf-lib"
import * as Engine from "../src/internal/engine.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "./support/engineOptions.js"

/** A piece of a line: its text and the face it is set in. */
type Piece = readonly [text: string, face: "roman" | "italic" | "bold"]

/**
 * A page with one line per entry, drawn piece by piece as separate text objects; a space at a
 * piece's end is left as room, not drawn (as Word's PDFs and groff's do).
 */
const linesOfPieces = (lines: ReadonlyArray<ReadonlyArray<Piece>>) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    const faces: Record<Piece[1], PDFFont> = {
      roman: await document.embedFont(StandardFonts.TimesRoman),
      italic: await document.embedFont(StandardFonts.TimesRomanItalic),
      bold: await document.embedFont(StandardFonts.TimesRomanBold)
    }
    const page = document.addPage([400, 300])
    lines.forEach((pieces, i) => {
      let x = 40
      for (const [text, face] of pieces) {
        const font = faces[face]
        const lead = font.widthOfTextAtSize(text.slice(0, text.length - text.trimStart().length), 10)
        page.drawText(text.trim(), { x: x + lead, y: 250 - i * 40, size: 10, font })
        x += font.widthOfTextAtSize(text, 10)
      }
    })
    return document.save()
  })

const paragraphsOf = (pdf: Uint8Array) =>
  Engine.readDocument(pdf, engineOptions(), "markdown").pipe(
    Effect.map((read) => Markdown.render(read.document).trim().split("\n\n").map((block) => block.replace(/[*_]/g, "")))
  )

describe("word spaces at a change of face", () => {
  it.effect("a space before or after an italic word whose f overhangs its advance is kept", () =>
    Effect.gen(function*() {
      const pdf = yield* linesOfPieces([
        [["will be called a ", "roman"], ["function call expression", "italic"], [". That is", "roman"]],
        [["the middle ", "roman"], ["of", "italic"], [" the line", "roman"]],
        [["Load ", "roman"], ["file", "italic"], [" into the window", "roman"]],
        [["and a ", "roman"], ["f", "italic"], ["ew more", "roman"]]
      ])
      const paragraphs = yield* paragraphsOf(pdf)
      assert.deepStrictEqual(paragraphs.slice(0, 4), [
        "will be called a function call expression. That is",
        "the middle of the line",
        "Load file into the window",
        "and a few more"
      ])
    }))

  it.effect("a word set in two faces with nothing between them stays one word", () =>
    Effect.gen(function*() {
      const pdf = yield* linesOfPieces([
        [["W", "bold"], ["ords in a row", "roman"]],
        [["the hal", "roman"], ["f", "italic"], ["way mark", "roman"]],
        [["an ", "roman"], ["off", "italic"], ["set of ", "roman"], ["ff", "bold"], ["s", "italic"]]
      ])
      const paragraphs = yield* paragraphsOf(pdf)
      assert.deepStrictEqual(paragraphs.slice(0, 3), [
        "Words in a row",
        "the halfway mark",
        "an offset of ffs"
      ])
    }))
})
