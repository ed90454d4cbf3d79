import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import * as Engine from "../src/internal/engine.js"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import {
  symbolBullets,
  symbolFace,
  symbolFont,
  symbolicFace,
  symbolicOnly
} from "../src/internal/layout/symbolBullets.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "./support/engineOptions.js"

const item = (text: string, x: number, y: number, style = 0, size = 18): TextItem => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  rtl: false,
  style
})

const glyph = (text: string, x: number, y: number) => item(text, x, y, symbolFace, 14)

describe("bullets drawn with a symbol font's glyph", () => {
  it("symbol and dingbat fonts are told by name, text faces are not", () => {
    for (
      const name of [
        "RDYKHS+OpenSymbol",
        "Symbol",
        "SymbolMT",
        "Wingdings-Regular",
        "ZapfDingbats",
        "Webdings",
        "StarSymbol"
      ]
    ) {
      assert.isTrue(symbolFont(name), name)
    }
    for (
      const name of ["TimesNewRomanPSMT", "ABCDEF+Courier", "CMSY10", "Arial-BoldMT", "XEHHQZ+LMMathSymbols10-Regular"]
    ) {
      assert.isFalse(symbolFont(name), name)
    }
  })

  it("a lone glyph leading its line and followed by text is a bullet, whatever letter it was read as", () => {
    const items = [
      glyph("!", 74.8, 131),
      item("Perl", 92.8, 131),
      glyph("l", 74.8, 175),
      item("Command line tools", 92.8, 175)
    ]
    assert.deepStrictEqual(symbolBullets(items).map((run) => [run.text, run.style]), [
      ["•", 0],
      ["Perl", 0],
      ["•", 0],
      ["Command line tools", 0]
    ])
  })

  it("a glyph inside a line, alone on its line, or a digit, Greek letter or operator keeps its text, without the flag", () => {
    const items = [
      item("costs", 40, 100),
      glyph("§", 86, 100), // just after a word: not leading its line
      item("five", 98, 100),
      glyph("n", 40, 140), // nothing after it
      glyph("a", 40, 180), // Symbol's alpha, mapped right
      item("particles", 52, 180),
      glyph("=", 40, 220),
      item("x + y", 52, 220),
      glyph("Ø", 40, 260),
      item("far away", 400, 260)
    ]
    const read = symbolBullets(items.map((run) => run.text === "a" ? { ...run, text: "α" } : run))
    assert.deepStrictEqual(read.map((run) => run.text), [
      "costs",
      "§",
      "five",
      "n",
      "α",
      "particles",
      "=",
      "x + y",
      "Ø",
      "far away"
    ])
    assert.isTrue(read.every((run) => (run.style & symbolFace) === 0))
  })

  it("the glyph's other style bits go with the flag when it becomes a bullet, and stay when it does not", () => {
    const [bullet, , kept] = symbolBullets([
      item("q", 40, 100, symbolFace | Style.strong, 12),
      item("Boxed item", 56, 100),
      item("q", 40, 140, symbolFace | Style.strong, 12)
    ])
    assert.deepStrictEqual([bullet!.text, bullet!.style, kept!.text, kept!.style], ["•", 0, "q", Style.strong])
  })

  it("a font flagged symbolic only is a dingbat font whatever its name; TeX's all-symbolic fonts and text faces are not", () => {
    assert.isTrue(symbolicOnly(4))
    assert.isFalse(symbolicOnly(32))
    assert.isFalse(symbolicOnly(4 | 32))
    assert.isFalse(symbolicOnly(0))
  })

  it("a glyph of a symbolic font hanging before text of a nonsymbolic one, on two lines, is a bullet, even a letter", () => {
    const dingbat = (text: string, x: number, y: number) => item(text, x, y, symbolicFace, 14)
    const read = symbolBullets([
      dingbat("\u00a7", 40, 100),
      item("Top level", 58, 100),
      dingbat("\u00de", 70, 130),
      item("Second level", 88, 130),
      dingbat("\u00de", 70, 160),
      item("Second again", 88, 160),
      dingbat("\u00a7", 40, 190),
      item("Top again", 58, 190),
      // A custom-encoded TeX face beside a WinAnsi one: a word's space, not a hanging indent.
      dingbat("A", 40, 230),
      item("\"zoo\" series", 50, 230),
      dingbat("A", 40, 260),
      item("second one", 50, 260),
      // All symbolic (TeX): the text after the glyph too.
      dingbat("x", 40, 300),
      item("y", 58, 300, symbolicFace),
      dingbat("x", 40, 330),
      item("y", 58, 330, symbolicFace)
    ])
    assert.deepStrictEqual(read.map((run) => run.text), [
      "\u2022",
      "Top level",
      "\u2022",
      "Second level",
      "\u2022",
      "Second again",
      "\u2022",
      "Top again",
      "A",
      "\"zoo\" series",
      "A",
      "second one",
      "x",
      "y",
      "x",
      "y"
    ])
    assert.isTrue(read.every((run) => (run.style & (symbolFace | symbolicFace)) === 0))
  })

  it("each level's dingbat may stand once when another hangs on the page", () => {
    const read = symbolBullets([
      item("\u00a7", 40, 100, symbolicFace, 14),
      item("Top level", 58, 100),
      item("M", 100, 130, symbolicFace, 14),
      item("Third level, once", 118, 130)
    ])
    assert.deepStrictEqual(read.map((run) => run.text), ["\u2022", "Top level", "\u2022", "Third level, once"])
  })

  it("a symbolic font's glyph leading one line only keeps its text", () => {
    const read = symbolBullets([item("M", 40, 100, symbolicFace, 14), item("Alone", 58, 100)])
    assert.deepStrictEqual(read.map((run) => run.text), ["M", "Alone"])
  })

  it("a lone private-use code leading a line before text is a bullet, whatever its font is named", () => {
    const read = symbolBullets([
      item("\uf0a7", 40, 100, 0, 14),
      item("Item text", 58, 100),
      item("word \uf0a7", 40, 140)
    ])
    assert.deepStrictEqual(read.map((run) => run.text), ["\u2022", "Item text", "word \uf0a7"])
  })

  it("a lone control code leading a line before text (a bitmap font's unnamed bullet) is a bullet", () => {
    const read = symbolBullets([
      item("\u0088", 40, 100, 0, 10),
      item("relocatable: the bootloader", 50, 100, 0, 10),
      item("\u000f", 40, 140, 0, 10),
      item("compact", 50, 140, 0, 10),
      item("x \u0088", 40, 180, 0, 10),
      item("\u0003", 40, 224, 0, 7), // a note's raised mark, smaller than its text
      item("The note", 46, 220, 0, 10)
    ])
    assert.deepStrictEqual(read.map((run) => run.text), [
      "\u2022",
      "relocatable: the bootloader",
      "\u2022",
      "compact",
      "x \u0088",
      "\u0003",
      "The note"
    ])
  })

  it.effect(
    "an OpenSymbol bullet read as \"!\" (soffice through Mac OS X Quartz) starts a list item",
    () =>
      Effect.gen(function*() {
        const pdf = readFileSync(new URL("../../../corpus/fidelity/dev/ur-presentation.pdf", import.meta.url))
        const read = yield* Engine.readDocument(pdf, engineOptions(), "markdown")
        const markdown = Markdown.render(read.document)
        assert.match(markdown, /^- Nestable software transactions$/m)
        assert.match(markdown, /^- Managed metadata about our schemas and synchronization with them$/m)
        assert.notMatch(markdown, /! Perl/)
      }),
    180_000
  )
})
