import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import * as Engine from "../src/internal/engine.js"
import type { PageText } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { collectWords, keepsHyphen } from "../src/internal/layout/hyphens.js"
import { joinRich } from "../src/internal/layout/inline.js"
import { Style } from "../src/internal/layout/model.js"
import * as Markdown from "../src/Markdown.js"
import { engineOptions } from "./support/engineOptions.js"
import { item, paragraphs } from "./support/textItems.js"

const options = engineOptions()

describe("hyphens at line ends", () => {
  it("the document's words tell a compound from a cut", () => {
    const words = collectWords(["a two-column page of trace", "based on mixed and mode words, a docu-", "ment"])
    assert.isTrue(words.compounds.has("two-column"))
    assert.isTrue(words.words.has("trace"))
    // The halves of a word cut at a line end are not words of the document.
    assert.isFalse(words.words.has("docu"))
    assert.isFalse(words.words.has("ment"))
    assert.isTrue(keepsHyphen(words, "two", "column"))
    assert.isTrue(keepsHyphen(words, "mixed", "mode"))
    assert.isFalse(keepsHyphen(words, "docu", "ment"))
    assert.isFalse(keepsHyphen(undefined, "two", "column"))
    // ASCII lines are scanned without the regular expression, others with it: the same words either way.
    const ascii = collectWords(["Two-column, two-column-wide and trace- based", "a two-", "column page"])
    const other = collectWords(["Two-column, two-column-wide and trace- basé", "a two-", "column page é"])
    assert.deepStrictEqual([...ascii.compounds], [["two-column", 1], ["two-column-wide", 1]])
    assert.deepStrictEqual([...other.compounds], [...ascii.compounds])
    assert.deepStrictEqual([...ascii.words].slice(0, 4), [["two", 2], ["column", 2], ["wide", 1], ["and", 1]])
    assert.deepStrictEqual([...other.words].slice(0, 4), [...ascii.words].slice(0, 4))
    assert.isFalse(ascii.words.has("trace"))
    assert.isTrue(ascii.words.has("based"))
    assert.strictEqual(ascii.words.get("page"), 1)
    const whole = collectWords(["the tracebased form is written whole here"])
    assert.isFalse(
      keepsHyphen({ ...whole, words: new Map([...whole.words, ["trace", 1], ["based", 1]]) }, "trace", "based")
    )
  })

  it("a long second half the document writes whole keeps the hyphen, though the first half is written nowhere else", () => {
    const words = collectWords(["a specified length, keys separated by commas, on one side"])
    assert.isTrue(keepsHyphen(words, "user", "specified"))
    assert.isTrue(keepsHyphen(words, "comma", "separated"))
    // A short half is as often a typesetter's piece as a compound's part.
    assert.isFalse(keepsHyphen(words, "ex", "specified"))
    assert.isFalse(keepsHyphen(words, "user", "side"))
    // A second half the document never writes whole, or the joined word it does write, is a cut.
    assert.isFalse(keepsHyphen(words, "user", "supplied"))
    const joined = collectWords(["a userspecified value and a specified length"])
    assert.isFalse(keepsHyphen(joined, "user", "specified"))
  })

  it("an inflection of a compound, or a stem of the joined word, the document writes whole decides", () => {
    const words = collectWords(["enclosed in double-quote marks; papers are typeset; type and setting"])
    assert.isTrue(keepsHyphen(words, "double", "quotes"))
    assert.isFalse(keepsHyphen(words, "type", "setting"))
    // A stem must pass the cut by three letters: "types" says nothing of "type-" "setting".
    assert.isTrue(keepsHyphen(collectWords(["many types, type and setting"]), "type", "setting"))
    assert.deepStrictEqual(
      paragraphs([
        "Equations are typeset in the usual way; strings in either double-quote marks or double-",
        "quotes. This is a template for type-",
        "setting papers."
      ]),
      [
        "Equations are typeset in the usual way; strings in either double-quote marks or double-quotes. This is a template for typesetting papers."
      ]
    )
  })

  it("a document writing a word both ways keeps the spelling it writes more often", () => {
    const plugIn = collectWords(["the plug-in API, a plug-in and its plug-ins;", "the Plugin API document"])
    assert.isTrue(keepsHyphen(plugIn, "plug", "in"))
    const email = collectWords(["send an email, read the email, an e-mail"])
    assert.isFalse(keepsHyphen(email, "e", "mail"))
  })

  it("a hyphen before a capital is a cut when the document writes the joined word whole", () => {
    assert.deepStrictEqual(
      paragraphs([
        "The AVERAGE_WIDTH field holds a width; all fields but AVER-",
        "AGE_WIDTH are named. An Anglo-",
        "Saxon name stays whole."
      ]),
      ["The AVERAGE_WIDTH field holds a width; all fields but AVERAGE_WIDTH are named. An Anglo-Saxon name stays whole."]
    )
  })

  it("a code span cut at a hyphen goes on in code on the next line: one word, no space", () => {
    const left = { text: "a XLFD Font-", marks: [{ start: 7, end: 12, style: Style.code }] }
    const right = { text: "Name string.", marks: [{ start: 0, end: 4, style: Style.code }] }
    const words = collectWords(["The FontName is a string."])
    const joined = joinRich(left, right, false, words)
    assert.strictEqual(joined.text, "a XLFD FontName string.")
    assert.deepStrictEqual(joined.marks, [{ start: 7, end: 15, style: Style.code }])
    // A hyphen the document does not cut is kept, still without a space.
    assert.strictEqual(joinRich(left, right, false, collectWords(["other words"])).text, "a XLFD Font-Name string.")
  })

  it("a hyphen at a line end keeps a compound the document writes elsewhere, and joins a cut word", () => {
    assert.deepStrictEqual(
      paragraphs([
        "A two-column paper is read one column after the",
        "other. This two-",
        "column layout is a well-known docu-",
        "ment form."
      ]),
      ["A two-column paper is read one column after the other. This two-column layout is a well-known document form."]
    )
  })

  it("a compound's parts are words of the document; a hyphenated word or an acronym before the hyphen is no cut", () => {
    const words = collectWords(["the hyperref-aware and Unicode functions, a hyphen-", "ation and a processing step"])
    // "aware" is written whole only inside a compound.
    assert.isTrue(keepsHyphen(words, "Unicode", "aware"))
    assert.isTrue(keepsHyphen(words, "close-to", "optimal"))
    assert.isTrue(keepsHyphen(words, "MIT", "style"))
    // One letter before the hyphen is never a typesetter's cut ("stop-on-I/O-" "error").
    assert.isTrue(keepsHyphen(words, "O", "error"))
    assert.isTrue(keepsHyphen(words, "x", "ray"))
    assert.isFalse(keepsHyphen(words, "Mit", "style"))
    assert.isFalse(keepsHyphen(words, "process", "ing"))
    assert.deepStrictEqual(
      paragraphs([
        "Unicode functions are hyperref-aware and use the Unicode-",
        "aware case changing: a close-to-",
        "optimal search under MIT-",
        "style licences, pre-",
        "or post-Euro, with docu-",
        "ment words."
      ]),
      [
        "Unicode functions are hyperref-aware and use the Unicode-aware case changing: a close-to-optimal search under MIT-style licences, pre- or post-Euro, with document words."
      ]
    )
  })

  it("a hyphen ending a URL or a number is kept, with no space; a word's is still a cut", () => {
    assert.strictEqual(
      Layout.joinLines("on the NetBSD web site, at http://www.netbsd.org/Ports/vax/emulator-", "howto.html."),
      "on the NetBSD web site, at http://www.netbsd.org/Ports/vax/emulator-howto.html."
    )
    assert.strictEqual(
      Layout.joinLines("after the OF_DT_PROP, has a 32-", "bit value"),
      "after the OF_DT_PROP, has a 32-bit value"
    )
    assert.strictEqual(Layout.joinLines("see pages 10-", "20 of it"), "see pages 10-20 of it")
    assert.strictEqual(Layout.joinLines("the emulator docu-", "mentation"), "the emulator documentation")
  })

  it("a soft hyphen ending a line joins the word, before a capital too; elsewhere it is dropped", () => {
    assert.strictEqual(Layout.joinLines("a docu\u00AD", "ment"), "a document")
    assert.strictEqual(Layout.joinLines("Ver\u00AD", "Änderung"), "VerÄnderung")
    assert.deepStrictEqual(
      paragraphs(["This is a docu\u00AD", "ment that mathemat\u00AD", "ics refer\u00ADenced."]),
      ["This is a document that mathematics referenced."]
    )
  })

  it("a soft hyphen ending a run that does not end its line is dropped", () => {
    const page: PageText = {
      page: 1,
      width: 600,
      height: 800,
      items: [item("refer\u00AD", 50, 100), item("enced here.", 80, 100)],
      figures: []
    }
    const blocks = Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks
    assert.deepStrictEqual(blocks.filter((block) => block._tag === "Paragraph"), [
      { _tag: "Paragraph", text: "referenced here." }
    ])
  })
})

describe("hyphens read one character at a time", () => {
  it.effect(
    "a page read character by character keeps its line-end hyphens (PDFium answers 2 for them there)",
    () =>
      Effect.gen(function*() {
        // acmart's sample: a glyph without a Unicode value sends its pages through FPDFText_GetUnicode.
        const pdf = readFileSync(new URL("../../../corpus/fidelity/dev/acmart-sigconf.pdf", import.meta.url))
        const read = yield* Engine.readDocument(pdf, options, "markdown")
        const markdown = Markdown.render(read.document)
        assert.include(markdown, "once it has been submitted.")
        assert.notInclude(markdown, "sub mitted")
      }),
    60_000
  )
})
