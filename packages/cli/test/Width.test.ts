import { assert, describe, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { fit, printable, stripEscapes, truncate, truncateStart, width } from "../src/internal/view/width.js"

const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom("a", "Z", " ", "/", ".", "é", "e\u0301", "漢", "字", "한", "😀", "🙂", "\t", "\u0007"),
    fc.char()
  ),
  maxLength: 60
})

describe("terminal widths", () => {
  it("counts columns: escapes none, combining marks none, wide characters two", () => {
    assert.strictEqual(width("abc"), 3)
    assert.strictEqual(width("\x1b[32mabc\x1b[39m"), 3)
    assert.strictEqual(width("e\u0301"), 1)
    assert.strictEqual(width("漢字"), 4)
    assert.strictEqual(width("😀"), 2)
    assert.strictEqual(stripEscapes("\x1b[?25l\x1b[2Kx\x1b[3F"), "x")
    assert.strictEqual(printable("a\nb\x1b[2Jc"), "a?b?[2Jc")
  })

  it("cuts at the end or at the start with an ellipsis", () => {
    assert.strictEqual(truncate("tracemonkey.pdf", 8), "tracemo…")
    assert.strictEqual(truncateStart("corpus/text/tracemonkey.pdf", 17), "…/tracemonkey.pdf")
    assert.strictEqual(truncate("漢字漢字", 5), "漢字…")
    assert.strictEqual(truncate("short", 10), "short")
    assert.strictEqual(fit("ab", 4), "ab  ")
  })

  it.prop(
    "a cut text never exceeds its columns, and fit is exact",
    [text, fc.integer({ min: 1, max: 80 })],
    ([input, columns]) => {
      const safe = printable(input)
      assert.isTrue(width(truncate(safe, columns)) <= columns)
      assert.isTrue(width(truncateStart(safe, columns)) <= columns)
      // A wide character that does not fit leaves one column of padding.
      assert.isTrue(columns - width(fit(safe, columns)) <= 1 && width(fit(safe, columns)) <= columns)
    }
  )
})
