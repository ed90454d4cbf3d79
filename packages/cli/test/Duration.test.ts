import { assert, describe, it } from "@effect/vitest"
import { Duration, Either } from "effect"
import { clock, parse, short } from "../src/internal/duration.js"

const millis = (text: string) => Either.map(parse(text), Duration.toMillis)

describe("durations on the command line", () => {
  it("reads units, long names and plain seconds", () => {
    assert.deepStrictEqual(millis("90s"), Either.right(90_000))
    assert.deepStrictEqual(millis("10m"), Either.right(600_000))
    assert.deepStrictEqual(millis("1.5h"), Either.right(5_400_000))
    assert.deepStrictEqual(millis("500ms"), Either.right(500))
    assert.deepStrictEqual(millis("30"), Either.right(30_000))
    assert.deepStrictEqual(millis(" 2 minutes "), Either.right(120_000))
  })

  it("refuses what is not a positive duration, saying how to write one", () => {
    for (const text of ["soon", "10 parsecs", "", "-5s", "1e3s"]) {
      const result = parse(text)
      assert.isTrue(Either.isLeft(result), text)
      if (Either.isLeft(result)) assert.include(result.left, "write it like 90s")
    }
    assert.deepStrictEqual(parse("0s"), Either.left(`"0s" must be longer than zero`))
  })

  it("prints short durations and clocks", () => {
    assert.strictEqual(short(850), "850 ms")
    assert.strictEqual(short(12_345), "12.3 s")
    assert.strictEqual(short(245_000), "4 min 05 s")
    assert.strictEqual(short(7_380_000), "2 h 03 min")
    assert.strictEqual(clock(7_900), "0:07")
    assert.strictEqual(clock(754_000), "12:34")
    assert.strictEqual(clock(3_723_000), "1:02:03")
    assert.strictEqual(clock(-5), "0:00")
  })
})
