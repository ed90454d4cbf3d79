import { assert, describe, it } from "@effect/vitest"
import { Media } from "@pdf-transform/core"

const bytes = (text: string) => new TextEncoder().encode(text)

describe("Media", () => {
  it("gives each format its content type and extension", () => {
    assert.strictEqual(Media.contentType("markdown"), "text/markdown; charset=utf-8")
    assert.strictEqual(Media.contentType("epub"), "application/epub+zip")
    assert.strictEqual(Media.extension("markdown"), ".md")
    assert.strictEqual(Media.extension("epub"), ".epub")
  })

  it("a PDF starts with %PDF-, nothing before it", () => {
    assert.isTrue(Media.looksLikePdf(bytes("%PDF-1.7\n%%EOF")))
    assert.isTrue(Media.looksLikePdf(bytes("%PDF-")))
    assert.isFalse(Media.looksLikePdf(bytes("%PDF")))
    assert.isFalse(Media.looksLikePdf(bytes("")))
    assert.isFalse(Media.looksLikePdf(bytes(" %PDF-1.7")))
    assert.isFalse(Media.looksLikePdf(bytes("--boundary\r\n\r\n%PDF-1.7")))
    assert.isFalse(Media.looksLikePdf(bytes("%pdf-1.7")))
  })
})
