import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  beginText,
  endText,
  moveText,
  PDFArray,
  PDFDocument,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  setFontAndSize,
  StandardFonts
} from "pdf-lib"
import * as Engine from "../src/internal/engine.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "./support/engineOptions.js"

/** A word set as TeX through dvips sets an accented letter: the accent a run of its own over the letter. */
interface Accented {
  readonly word: string
  /** The index of the letter under the accent. */
  readonly under: number
  readonly accent: string
  /** Whether the accent is drawn before the word's run (else after it). */
  readonly first: boolean
}

const accentedLines = (lines: ReadonlyArray<Accented>) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    const font = await document.embedFont(StandardFonts.TimesRoman)
    const page = document.addPage([400, 300])
    lines.forEach(({ accent, first, under, word }, i) => {
      const y = 250 - i * 40
      const x = 40 + font.widthOfTextAtSize(word.slice(0, under), 12)
      const letter = font.widthOfTextAtSize(word[under]!, 12)
      const mark = () =>
        page.drawText(accent, { x: x + (letter - font.widthOfTextAtSize(accent, 12)) / 2, y: y + 1, size: 12, font })
      if (first) mark()
      page.drawText(word, { x: 40, y, size: 12, font })
      if (!first) mark()
    })
    return document.save()
  })

const paragraphsOf = (pdf: Uint8Array) =>
  Engine.readDocument(pdf, engineOptions(), "markdown").pipe(
    Effect.map((read) => Markdown.render(read.document).trim().split("\n\n"))
  )

describe("accents drawn as runs of their own", () => {
  it.effect("an accent drawn after or before its word is put on the letter under it", () =>
    Effect.gen(function*() {
      const pdf = yield* accentedLines([
        { word: "Joe, the author", under: 1, accent: "\u00A8", first: false },
        { word: "Lou Lou wrote", under: 5, accent: "\u00B4", first: false },
        { word: "FOUR and more", under: 1, accent: "`", first: false },
        { word: "etre ou ne pas", under: 0, accent: "\u02C6", first: true }
      ])
      assert.deepStrictEqual((yield* paragraphsOf(pdf)).slice(0, 4), [
        "Jöe, the author",
        "Lou Lóu wrote",
        "FÒUR and more",
        "être ou ne pas"
      ])
    }))

  it.effect("a grave drawn over the letter after it in one show operation is put on it; a backtick beside one stays", () =>
    Effect.gen(function*() {
      const pdf = yield* Effect.promise(async () => {
        const document = await PDFDocument.create()
        const font = await document.embedFont(StandardFonts.TimesRoman)
        const page = document.addPage([400, 300])
        const name = page.node.newFontDictionary("F0", font.ref)
        // TeX's "\`a": the grave, a move back over half of it and of the "a", then the "a".
        const back = (font.widthOfTextAtSize("`", 1000) + font.widthOfTextAtSize("a", 1000)) / 2
        const line = (y: number, parts: ReadonlyArray<string | number>) => {
          const array = PDFArray.withContext(document.context)
          for (const part of parts) array.push(typeof part === "number" ? PDFNumber.of(part) : font.encodeText(part))
          page.pushOperators(
            beginText(),
            setFontAndSize(name, 12),
            moveText(40, y),
            PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [array]),
            endText()
          )
        }
        line(250, ["Vers la machine ", "`", back, "a sculpter le son"])
        line(210, ["Quote it as `code` here"])
        return document.save()
      })
      assert.deepStrictEqual((yield* paragraphsOf(pdf)).slice(0, 2), [
        "Vers la machine à sculpter le son",
        "Quote it as \\`code\\` here"
      ])
    }))
})
