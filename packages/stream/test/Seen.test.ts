import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import * as Seen from "../src/internal/seen.js"

const key = (i: number) => createHash("sha256").update(`job ${i}`).digest("hex").slice(0, 40)

describe("Seen (the batch's duplicate check)", () => {
  it("answers the first index of a key seen before, across many doublings", () => {
    const seen = Seen.make(4)
    for (let i = 0; i < 20_000; i++) assert.isUndefined(seen.firstOrAdd(key(i), i))
    assert.strictEqual(seen.size(), 20_000)
    for (let i = 0; i < 20_000; i += 997) assert.strictEqual(seen.firstOrAdd(key(i), 50_000 + i), i)
    // A duplicate is not added again, and the first index stays.
    assert.strictEqual(seen.size(), 20_000)
    assert.strictEqual(seen.firstOrAdd(key(0), 7), 0)
  })

  it("tells keys apart that share their first 13 hex digits", () => {
    const seen = Seen.make()
    const a = "0123456789abc" + "0".repeat(27)
    const b = "0123456789abc" + "1".repeat(27)
    assert.isUndefined(seen.firstOrAdd(a, 0))
    assert.isUndefined(seen.firstOrAdd(b, 1))
    assert.strictEqual(seen.firstOrAdd(b, 2), 1)
  })

  it("keys that are not hex digests are digested first", () => {
    const seen = Seen.make()
    assert.isUndefined(seen.firstOrAdd("url:https://example.com/a.pdf", 0))
    assert.isUndefined(seen.firstOrAdd("url:https://example.com/b.pdf", 1))
    assert.strictEqual(seen.firstOrAdd("url:https://example.com/a.pdf", 2), 0)
  })
})
