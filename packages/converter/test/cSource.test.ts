import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { isCSource, listingLine } from "../src/internal/layout/cSource.js"
import type { Line } from "../src/internal/layout/model.js"

/** Lines in a text face (no character width), one under another. */
const lines = (...texts: ReadonlyArray<string>): Array<Line> =>
  texts.map((text, i) => ({
    text,
    x0: 60,
    x1: 60 + 5.5 * text.length,
    y: 100 + 14 * i,
    size: 11,
    rtl: false,
    marks: undefined,
    charWidth: undefined
  }))

describe("C source in a text face", () => {
  it.effect("directives, comments and statements are source; a lone line only when a directive", () =>
    Effect.sync(() => {
      assert.isTrue(isCSource(lines("#ifndef __HEADER_H", "#define __HEADER_H")))
      assert.isTrue(isCSource(lines("/* Power control */", "#define PWR_CNTRL (SaHpiCtrlNumT) 0x001")))
      assert.isTrue(isCSource(lines("int main(void) {", "return f(x);", "}")))
      assert.isTrue(isCSource(lines("#endif //__HEADER_H")))
      assert.isFalse(isCSource(lines("return f(x);")))
      assert.isFalse(isCSource(lines("/* a comment */", "// another")))
    }))

  it.effect("prose is not source, even with a semicolon or a hash at a line's end or start", () =>
    Effect.sync(() => {
      assert.isFalse(isCSource(lines("The file contains these lines;", "see the table below;")))
      assert.isFalse(isCSource(lines("#1 on the list: speed;", "#2: size;")))
      assert.isFalse(isCSource(lines("#define X 1", "and then the rest of the sentence goes on.")))
      assert.isFalse(isCSource([]))
    }))

  it.effect("a listing's line reads as C by its statement, declaration, control head, function head or brace, not as a sentence", () =>
    Effect.sync(() => {
      const kinds = [
        "typedef char bool;",
        "int main (int n, char \u2217\u2217arg)",
        "else if (c1 = '\\n' \u2228 c2 = '\\n')",
        "\u2212\u2212n; ++arg;",
        "}",
        "/\u2217 the two input files \u2217/",
        "\u2022 the version number of Stow (\u2018stow --version\u2019);",
        "at the same time (and they will be if they fulfill all the criteria);",
        "AB\u2190\u2192 \\underleftrightarrow{AB}",
        "#define and #include directives directly into program modules.",
        "cmsHPROFILE hInProfile, hOutProfile;",
        "gs_color_space *color_space, names[8];",
        "apples, pears and the rest;",
        "Note well;"
      ].map(listingLine)
      assert.deepStrictEqual(kinds, [
        "code",
        "code",
        "code",
        "code",
        "code",
        "comment",
        undefined,
        undefined,
        undefined,
        undefined,
        "code",
        "code",
        undefined,
        undefined
      ])
    }))
})
