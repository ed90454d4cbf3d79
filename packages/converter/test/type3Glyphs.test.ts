import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { PDFDocument, PDFHexString, PDFName } from "pdf-lib"
import { glyphText } from "../src/internal/glyphNames.js"
import * as Pdf from "../src/internal/pdf.js"
import { texBitmapNames } from "../src/internal/texBitmapFonts.js"
import { differencesOf, type3Fonts } from "../src/internal/type3Fonts.js"
import { codeText } from "../src/internal/unmappedGlyphs.js"
import { type3Font } from "./support/type3Font.js"

const hex = (codes: ReadonlyArray<number>): string => PDFHexString.of(Buffer.from(codes).toString("hex")).toString()

/**
 * A page of lines, each in a Type 3 font of its own, the fonts' encodings in an object stream
 * (pdf-lib's default) or, with `objectStreams` false, as plain objects.
 */
const type3Page = (
  lines: ReadonlyArray<
    { readonly names: ReadonlyArray<readonly [number, string]>; readonly codes: ReadonlyArray<number> }
  >,
  objectStreams: boolean
) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create()
    const page = document.addPage([400, 300])
    const context = document.context
    const shows = lines.map(({ codes, names }, i) => {
      page.node.setFontDictionary(PDFName.of(`T${i}`), type3Font(context, names, { indirect: i % 2 === 0 }))
      return `BT /T${i} 12 Tf 30 ${250 - 30 * i} Td ${hex(codes)} Tj ET`
    })
    page.node.addContentStream(context.register(context.stream(shows.join("\n"))))
    return document.save({ useObjectStreams: objectStreams })
  })

const letters = (text: string): Array<readonly [number, string]> => [...text].map((c) => [c.charCodeAt(0), c])
const codesOf = (text: string): Array<number> => [...text].map((c) => c.charCodeAt(0))

const readFirstPage = (pdf: Uint8Array) =>
  Effect.scoped(Effect.gen(function*() {
    const open = yield* Pdf.open(pdf, undefined)
    return yield* Pdf.readPage(open, 1, { figures: false })
  }))

const pageLines = (pdf: Uint8Array) =>
  Effect.scoped(Effect.gen(function*() {
    const open = yield* Pdf.open(pdf, undefined)
    const page = yield* Pdf.readPage(open, 1, { figures: false })
    return page.items.map((item) => item.text)
  }))

describe("glyph names of Type 3 fonts PDFium does not map", () => {
  it("read as text: ligatures, dashes, quotes, letters, uni and u names, parts and suffixes", () => {
    assert.deepStrictEqual(
      [
        "fi",
        "ffl",
        "endash",
        "quotedblleft",
        "germandbls",
        "a",
        "Q",
        "uni201C",
        "uni00660069",
        "u1F600",
        "f_f_i",
        "fi.alt"
      ]
        .map(glyphText),
      ["fi", "ffl", "–", "“", "ß", "a", "Q", "“", "fi", "😀", "ffi", "fi"]
    )
  })

  it("name nothing when they are codes (pdfTeX's a28), .notdef, surrogates or unknown", () => {
    assert.deepStrictEqual([".notdef", "a28", "g31", "uniD800", "constructor", "f_x7"].map(glyphText), [
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined
    ])
  })

  it("a /Differences array gives codes in runs from each number, .notdef left out", () => {
    assert.deepStrictEqual(
      [...differencesOf("27/ff/fi 30/.notdef/ffl 45 /hyphen/A#42")],
      [[27, "ff"], [28, "fi"], [31, "ffl"], [45, "hyphen"], [46, "AB"]]
    )
  })

  it("a code is the text the fonts showing the page's codes agree on, none when they disagree", () => {
    const ec = new Map([[28, "fi"], [114, "r"], [115, "s"], [116, "t"]])
    const nordic = new Map([[28, "oslash"], [114, "r"], [101, "e"]])
    assert.strictEqual(codeText([ec, nordic], 28, new Set([114, 115])), "fi")
    assert.strictEqual(codeText([ec, nordic], 28, new Set([114, 101])), "ø")
    // Shown codes only both define (or none defines all of): the fonts disagree, no text.
    assert.strictEqual(codeText([ec, nordic], 28, new Set([114])), undefined)
    assert.strictEqual(codeText([ec, nordic], 28, new Set([120])), undefined)
    assert.strictEqual(codeText([ec], 28, new Set([120])), "fi")
    assert.strictEqual(codeText([ec, nordic], 29, new Set([114])), undefined)
  })

  it.effect("a page's unmapped control codes read as their glyph names, each font's by its own encoding", () =>
    Effect.gen(function*() {
      const lines: Array<{ names: Array<readonly [number, string]>; codes: Array<number> }> = [
        // "first time" with the fi ligature at code 28 (T1), and a Nordic font naming ø at the same code.
        { names: [[28, "fi"], [32, "space"], ...letters("rstime")], codes: [28, ...codesOf("rst time")] },
        { names: [[28, "oslash"], ...letters("sn")], codes: [115, 28, 110] },
        {
          names: [[21, "endash"], [16, "quotedblleft"], [17, "quotedblright"], [159, "section"], ...letters("ab")],
          codes: [16, 97, 21, 98, 17, 159]
        }
      ]
      for (const objectStreams of [true, false]) {
        const pdf = yield* type3Page(lines, objectStreams)
        assert.strictEqual(type3Fonts(pdf).length, 3)
        assert.deepStrictEqual(
          yield* pageLines(pdf),
          ["first time", "søn", "“a–b”§"],
          `object streams: ${objectStreams}`
        )
      }
    }))

  it.effect("a code no font names keeps PDFium's reading (the control character is dropped later)", () =>
    Effect.gen(function*() {
      const pdf = yield* type3Page([{ names: [[28, "a28"], ...letters("rst")], codes: [28, ...codesOf("rst")] }], true)
      const [line] = yield* pageLines(pdf)
      assert.strictEqual([...line ?? ""].filter((c) => c.charCodeAt(0) >= 0x20).join(""), "rst")
    }))
})

describe("TeX bitmap fonts whose glyph names are their codes", () => {
  const codeNamed = (codes: ReadonlyArray<number>) => new Map(codes.map((code) => [code, `a${code}`]))
  const letters = [...Array(26).keys()].map((i) => 97 + i)

  it("a text font's codes 16-31 are T1's quotes, dashes and ligatures, its others the characters at them", () => {
    const names = texBitmapNames(codeNamed([16, 17, 21, 22, 27, 28, 29, 30, 31, 44, 46, 159, ...letters]))
    assert.deepStrictEqual(
      [16, 17, 21, 22, 27, 28, 29, 30, 31, 159, 97, 44].map((code) => glyphText(names.get(code)!)),
      [
        "“",
        "”",
        "–",
        "—",
        "ff",
        "fi",
        "fl",
        "ffi",
        "ffl",
        "§",
        "a",
        ","
      ]
    )
  })

  it("a font with codes below 16 (OT1's ligatures, cmmi's Greek), or other names, or few letters is not read as T1", () => {
    for (
      const names of [
        codeNamed([12, 28, ...letters]),
        codeNamed([28, 25, ...letters]),
        codeNamed([28, 97, 98]),
        new Map([[28, "a28"], [97, "a"], [98, "b"], [99, "c"]]),
        new Map([[28, "a29"], [97, "a97"], [98, "a98"], [99, "a99"]])
      ]
    ) {
      assert.strictEqual(glyphText(texBitmapNames(names).get(28)!), undefined)
    }
  })

  it.effect("a pdfTeX bitmap font's ligatures read as text on the page", () =>
    Effect.gen(function*() {
      const pk = (text: string) =>
        [...text].map((c): readonly [number, string] => [c.charCodeAt(0), `a${c.charCodeAt(0)}`])
      const pdf = yield* type3Page([
        {
          names: [[28, "a28"], [29, "a29"], [21, "a21"], ...pk("rstaed")],
          codes: [28, ...codesOf("rst"), 21, 29, 97, 116, 116, 101, 100]
        },
        { names: [[12, "a12"], ...pk("rst")], codes: [12, ...codesOf("rst")] }
      ], true)
      const [pkLine, ot1Line] = yield* pageLines(pdf)
      assert.strictEqual(pkLine, "first–flatted")
      assert.strictEqual([...ot1Line ?? ""].filter((c) => c.charCodeAt(0) >= 0x20).join(""), "rst")
    }))

  it.effect("a font whose names confirm PDFium's letters is text, not junk sent to OCR; one that does not, junk", () =>
    Effect.gen(function*() {
      const words = "first in the field of filters "
      const codes = [...words].flatMap((c, i) =>
        c === "f" && words[i + 1] === "i" ? [28] : c === "i" && words[i - 1] === "f" ? [] : [c.charCodeAt(0)]
      )
      const named = (name: (code: number) => string): Array<readonly [number, string]> =>
        [...new Set([...codes, 28])].map((code) => [code, name(code)])
      const junkOf = (names: Array<readonly [number, string]>) =>
        Effect.map(
          Effect.flatMap(type3Page(Array.from({ length: 8 }, () => ({ names, codes })), true), readFirstPage),
          (page) => page.junk
        )
      // pdfTeX's bitmap font: names are codes (a97), taken as T1 (fi at 28), letters at their codes.
      assert.strictEqual(yield* junkOf(named((code) => `a${code}`)), 0)
      assert.strictEqual(yield* junkOf(named((code) => code === 28 ? "fi" : String.fromCharCode(code))), 0)
      // Names that say other glyphs than PDFium reads by code: the letters are not confirmed.
      assert.isAbove(yield* junkOf(named((code) => code === 28 ? "fi" : code === 32 ? "space" : "bullet")), 0)
    }))
})
