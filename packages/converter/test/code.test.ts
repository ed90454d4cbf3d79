import { assert, describe, it } from "@effect/vitest"
import type { TextItem } from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"
import { pageBlocks, styledItem } from "./support/textItems.js"

const item = styledItem

const blocks = pageBlocks

describe("code blocks", () => {
  it("a listing whose comments are set in the text face stays one code block", () => {
    const found = blocks([
      item("Running text before the example, long enough to set the body size here.", 50, 100),
      item("> x <- c(1, 2, 3)", 70, 124, Style.code),
      item("> y <- x * 2       #", 70, 136, Style.code),
      item("twice each value", 175, 136),
      item("> mean(y)", 70, 148, Style.code),
      item("Running text after the example goes on here with more words in it.", 50, 172)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.deepStrictEqual(found[1], {
      _tag: "Code",
      text: "> x <- c(1, 2, 3)\n> y <- x * 2       # twice each value\n> mean(y)"
    })
  })

  it("a short term in the code face beside its definition is a term, not a one-line listing", () => {
    const found = blocks([
      item("Running text before the flags, long enough to set the body size of this page,", 50, 100),
      item("and its second line.", 50, 112),
      item("FFLAGS", 50, 128, Style.code),
      item("debugging and optimization flags, fixed-form", 110, 128),
      item("Fortran, set for the whole build.", 110, 140),
      item("FCFLAGS", 50, 156, Style.code),
      item("the same, free-form Fortran", 110, 156),
      item("Running text after the flags goes on here with more words in it.", 50, 168)
    ])
    assert.deepStrictEqual(found, [
      {
        _tag: "Paragraph",
        text: "Running text before the flags, long enough to set the body size of this page, and its second line."
      },
      { _tag: "Term", text: "FFLAGS", marks: [{ start: 0, end: 6, style: Style.code }] },
      { _tag: "Paragraph", text: "debugging and optimization flags, fixed-form Fortran, set for the whole build." },
      { _tag: "Term", text: "FCFLAGS", marks: [{ start: 0, end: 7, style: Style.code }] },
      { _tag: "Paragraph", text: "the same, free-form Fortran" },
      { _tag: "Paragraph", text: "Running text after the flags goes on here with more words in it." }
    ])
  })

  it("code beside text that goes on in full lines at the margin under it is a listing, not a term", () => {
    const found = blocks([
      item("This is also useful for running one script under different interpreters, such as", 50, 100),
      item("and for other things that take a line or two of running text to say here.", 50, 112),
      item("Test-Command:   python", 50, 128, Style.code),
      item("debian/tests/mytest.py and with more words until the end", 190, 128),
      item("of the line, which then goes on at the margin below.", 50, 140),
      item("Running text after the example goes on here with more words in it.", 50, 156)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph", "Paragraph"])
    assert.strictEqual(
      found[2]?._tag === "Paragraph" && found[2].text,
      "debian/tests/mytest.py and with more words until the end of the line, which then goes on at the margin below."
    )
  })

  it("a one-line listing whose comment in the text face stands far beside it stays a listing", () => {
    const found = blocks([
      item("Running text before the example, long enough to set the body size here.", 50, 100),
      item("x <- rnorm(10) #", 70, 124, Style.code),
      item("ten normal deviates", 200, 124),
      item("Running text after the example goes on here with more words in it.", 50, 148)
    ])
    assert.strictEqual(found[1]?._tag, "Code", JSON.stringify(found))
    assert.isFalse(found.some((block) => block._tag === "Term"))
  })

  it("a comment alone on its line, set in the text face after a comment sign, stays in its listing", () => {
    const found = blocks([
      item("Note that this mechanism can also be used when it is necessary to change the", 50, 100),
      item("optimization level of one package. For example", 50, 112),
      item("##", 70, 128, Style.code),
      item("for C code", 83, 128),
      item("CFLAGS = -g -O", 70, 140, Style.code),
      item("##", 70, 152, Style.code),
      item("for fixed-form Fortran code", 83, 152),
      item("FFLAGS = -g -O", 70, 164, Style.code),
      item("Note that if you have set another standard, you need to set its flags too.", 50, 180)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"], JSON.stringify(found))
    assert.deepStrictEqual(found[1], {
      _tag: "Code",
      text: "## for C code\nCFLAGS = -g -O\n## for fixed-form Fortran code\nFFLAGS = -g -O"
    })
  })

  it("a sentence that starts with a code span is no listing, comment sign or not", () => {
    const found = blocks([
      item("Running text before, long enough to set the body size of this page.", 50, 100),
      item("#", 50, 124, Style.code),
      item("starts a comment in R, and the line goes on in running text.", 58, 124)
    ])
    assert.isFalse(found.some((block) => block._tag === "Code"), JSON.stringify(found))
    assert.include(JSON.stringify(found), "# starts a comment in R, and the line goes on in running text.")
  })

  it("a listing's characters set in a fallback font (another script, a brace) stay in the listing", () => {
    const found = blocks([
      item("Running text before the example, long enough to set the body size here.", 50, 100),
      item("<p class=cv320>", 70, 124, Style.code),
      item("\u12F8 \u12F9 \u12FA", 150, 124),
      item("</cv320></p>", 178, 124, Style.code),
      item("italic <- function(x)", 70, 136, Style.code),
      item("{", 175, 136, Style.emphasis),
      item("paste0('", 70, 148, Style.code),
      item("{\\\\", 110, 148, Style.emphasis),
      item("emph', x)", 128, 148, Style.code),
      item("Running text after the example goes on here with more words in it.", 50, 172)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.deepStrictEqual(found[1], {
      _tag: "Code",
      text: "<p class=cv320> \u12F8 \u12F9 \u12FA </cv320></p>\nitalic <- function(x){\npaste0('{\\\\ emph', x)"
    })
  })

  it("a listing's apostrophe in an italic comment and Sphinx's wrap mark, in the text face, stay in the listing", () => {
    const found = blocks([
      item("Running text before the example, long enough to set the body size here.", 50, 100),
      item("eprintf \"not configured, using version %s\u2423", 70, 124, Style.code),
      item("\u02D3\u2192", 62, 136, Style.emphasis, 5),
      item("instead@.\"", 70, 136, Style.code),
      item("alt_ergo", 70, 148, Style.code),
      item("(* we don", 115, 148, Style.code | Style.emphasis),
      item("'", 160, 148, Style.emphasis),
      item("t want to fail *)", 165, 148, Style.code | Style.emphasis),
      item("end else", 70, 160, Style.code),
      item("Running text after the example goes on here with more words in it.", 50, 184)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    const code = found[1]
    assert.isTrue(
      code?._tag === "Code" && code.text.includes("alt_ergo (* we don't want to fail *)"),
      JSON.stringify(code)
    )
  })

  it("a listing's line numbers and callout marks in the text face are dropped, its numbered blank lines kept blank", () => {
    const number = (n: number, y: number) => item(String(n), n < 10 ? 44 : 41, y, 0, 5)
    const found = blocks([
      item("Running text before the example, long enough to set the body size here.", 50, 100),
      number(8, 124),
      item("\\documentclass{article}", 57, 124, Style.code, 9),
      number(9, 135),
      number(10, 146),
      item("\\usepackage{amc}", 57, 146, Style.code, 9),
      item("\u2461", 160, 141, 0, 10),
      item("1", 163, 143, Style.strong, 5),
      number(11, 157),
      item("\\begin{document}", 57, 157, Style.code, 9),
      item("Running text after the example goes on here with more words in it.", 50, 192)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.deepStrictEqual(found[1], {
      _tag: "Code",
      text: "\\documentclass{article}\n\n\\usepackage{amc}\n\\begin{document}"
    })
  })

  it("code that a justified list line's wide spaces cut from its sentence stays in the item, and so does the line under it", () => {
    const found = blocks([
      item("Running text before the list, long enough to set the body size here.", 57, 100),
      item("\u2022", 71, 124),
      item("The test calls", 80, 124),
      item("/tmp/autopkgtest-reboot", 182, 124, Style.code),
      item("my_mark", 339, 124, Style.code),
      item("with a mark identifier.", 400, 124),
      item("autopkgtest-reboot", 80, 136, Style.code),
      item("will cause the test to terminate.", 172, 136),
      item("Running text after the list goes on here with more words in it.", 57, 160)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "List", "Paragraph"])
    const list = found[1]
    assert.strictEqual(
      list?._tag === "List" ? list.items[0]?.text : undefined,
      "The test calls /tmp/autopkgtest-reboot my_mark with a mark identifier. autopkgtest-reboot will cause the test to terminate."
    )
  })

  it("code over a table's header indented under it is a listing, a term only over an indented sentence", () => {
    const found = blocks([
      item("Running text before the example, long enough to set the body size here.", 50, 100),
      item("fm1 <- aov(tlimth ~ sex, data = tli)", 56, 124, Style.code),
      item("xtable(fm1)", 56, 136, Style.code),
      item("Df Sum Sq Mean Sq F value Pr(>F)", 115, 156),
      item("sex 1 75.37 75.37 0.38 0.5417", 62, 168),
      item("Residuals 93 18682.87 200.89", 62, 180),
      item("x <- xtable(dat)", 56, 204, Style.code),
      item("Makes a table of the data frame and keeps it.", 128, 216),
      item("Running text after the example goes on here with more words in it.", 50, 240)
    ])
    assert.deepStrictEqual(
      found.slice(1, 4).map((block) => block._tag),
      ["Code", "Paragraph", "Term"],
      JSON.stringify(found)
    )
    assert.deepStrictEqual(found[1], { _tag: "Code", text: "fm1 <- aov(tlimth ~ sex, data = tli)\nxtable(fm1)" })
  })

  it("a listing's line that wraps with dblatex's mark in a slanted text face stays in the listing", () => {
    const found = blocks([
      item("Running text before the example, long enough to set the body size here.", 50, 100),
      item("\\begin{question}{prez}", 56, 124, Style.code),
      item("Among the following persons, which one", 66, 136, Style.code),
      item("\u2190", 266, 136, Style.emphasis),
      item("-", 271, 136, Style.emphasis),
      item("?", 76, 148, Style.code),
      item("\\end{question}", 56, 160, Style.code),
      item("Running text after the example goes on here with more words in it.", 50, 184)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
  })

  it("a code span with prose punctuation or a bullet in the text face is no listing", () => {
    const found = blocks([
      item("Running text before, long enough to set the body size of this page.", 50, 100),
      item("\u2022", 50, 124),
      item("/etc/passwd", 62, 124, Style.code),
      item("sig_on()", 50, 148, Style.code),
      item(".", 90, 148)
    ])
    assert.isFalse(found.some((block) => block._tag === "Code"), JSON.stringify(found))
  })
  it("a listing whose runs have no advances (a printer driver's font without widths) is read, not failed", () => {
    const zeroWide = (text: string, x: number, y: number): TextItem => ({ ...item(text, x, y, Style.code), width: 0 })
    const found = blocks([
      item("Running text before the example, long enough to set the body size here.", 50, 100),
      zeroWide("@font-face", 70, 124),
      zeroWide("{", 136, 124),
      zeroWide("font-family:", 82, 136),
      zeroWide("Harmattan;", 160, 136),
      item("Running text after the example goes on here with more words in it.", 50, 160)
    ])
    const code = found.find((block) => block._tag === "Code")
    assert.isDefined(code)
    assert.include(code?._tag === "Code" ? code.text : "", "  font-family:")
  })

  it("a line in the code face under a line ending in a colon is a listing, though no gap or indent sets it apart", () => {
    const found = blocks([
      item("The version returned by the custom field is expressed as:", 50, 100),
      item("iLo_Firmware: <major rev>.<minor rev>", 50, 112, Style.code),
      item("The next paragraph starts here and is text again.", 50, 136)
    ])
    assert.deepStrictEqual(found[1], { _tag: "Code", text: "iLo_Firmware: <major rev>.<minor rev>" })
  })

  it("a prompt whose glyph box is wider than its advance stays on its line, its indentation counted on the listing's pitch", () => {
    // The prompt's box is 6.5 wide where the face advances 5: measured on it, the next run is off the grid.
    const prompt = (y: number): TextItem => ({ ...item("+", 70, y, Style.code), width: 6.5 })
    const found = blocks([
      item("Running text before the session, long enough to set the body size here.", 50, 100),
      item("> plot(z3, screen = 1:3,", 70, 124, Style.code),
      prompt(136),
      item("lines(...)", 110, 136, Style.code),
      prompt(148),
      item("#", 100, 148, Style.code),
      item("place axis", 110, 148, Style.code),
      item("> par(opar)", 70, 160, Style.code),
      item("Running text after the session goes on here with more words in it.", 50, 184)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.deepStrictEqual(found[1], {
      _tag: "Code",
      text: "> plot(z3, screen = 1:3,\n+       lines(...)\n+     # place axis\n> par(opar)"
    })
  })

  it("a displayed line of code closed by its sentence's full stop in the text face is a listing, full stop kept", () => {
    const found = blocks([
      item("The upint option selects upright integral signs (rather than slanted integral", 50, 100),
      item("signs):", 50, 112),
      item("\\documentclass[upint]{asmejour}", 70, 130, Style.code),
      item(".", 70 + 31 * 5, 130),
      item("The option subscriptcorrection improves the spacing of math subscripts.", 50, 148)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.deepStrictEqual(found[1], { _tag: "Code", text: "\\documentclass[upint]{asmejour}." })
  })

  it("a paragraph's last line holding only a code span and a full stop goes on with the paragraph", () => {
    const found = blocks([
      item("Running text before, long enough to set the body size, that names the option", 50, 100),
      item("subscriptcorrection", 50, 112, Style.code),
      item(".", 50 + 19 * 5, 112),
      item("A new paragraph starts here, indented, and goes on for a while longer.", 62, 126)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Paragraph"])
    assert.include(found[0]?._tag === "Paragraph" ? found[0].text : "", "names the option subscriptcorrection.")
  })

  it("a comment at a far tab stop, its sign in the code face and its words in the text face, stays on its code line", () => {
    const found = blocks([
      item("Running text before the example, long enough to set the body size here.", 50, 100),
      item(">", 70, 124, Style.code),
      item("x[i]", 80, 124, Style.code),
      item("#", 230, 124, Style.code),
      item("Extract those elements", 240, 124),
      item("[1] 9 6 3", 70, 136, Style.code),
      item("Running text after the example goes on here with more words in it.", 50, 160)
    ])
    assert.deepStrictEqual(found.map((block) => block._tag), ["Paragraph", "Code", "Paragraph"])
    assert.deepStrictEqual(found[1], {
      _tag: "Code",
      text: `> x[i]${" ".repeat(26)}# Extract those elements\n[1] 9 6 3`
    })
  })
})
