import { assert, describe, it } from "@effect/vitest"
import { romanValue } from "../src/internal/layout/roman.js"

describe("romanValue", () => {
  it("reads numerals written the usual way, in either case", () => {
    assert.deepStrictEqual(["i", "iv", "ix", "xiv", "xxxix", "xl", "XII", "MCMXCIX"].map(romanValue), [
      1,
      4,
      9,
      14,
      39,
      40,
      12,
      1999
    ])
  })

  it("reads nothing from letters that are not a numeral, or mix cases", () => {
    for (const text of ["", "vv", "iiii", "vx", "mid", "Iv", "ic", "a"]) {
      assert.strictEqual(romanValue(text), undefined, text)
    }
  })
})
