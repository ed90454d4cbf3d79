import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Line } from "../src/internal/layout/model.js"
import { isCSource } from "../src/internal/tagged/cSource.js"

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
})
