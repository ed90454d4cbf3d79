import { assert, describe, it } from "@effect/vitest"
import type { PageText, TextItem } from "../src/internal/layout.js"
import * as Layout from "../src/internal/layout.js"
import { Style } from "../src/internal/layout/model.js"

const item = (text: string, x: number, y: number, style = 0, size = 10): TextItem => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  rtl: false,
  style
})

const blocks = (items: ReadonlyArray<TextItem>) => {
  const page: PageText = { page: 1, width: 600, height: 800, items, figures: [] }
  return Layout.layoutDocument({ pages: [page], outline: [], title: undefined, filename: "t" }).blocks.filter((
    block
  ) => block._tag !== "PageBreak")
}

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
})
