import { assert, describe, it } from "@effect/vitest"
import { Contract } from "@pdf-transform/core"
import { Either, ParseResult, Schema } from "effect"

const decode = Schema.decodeUnknownEither(Contract.ConversionRequest)

const problemOf = (pdfURL: string): string | undefined =>
  Either.match(decode({ pdfURL }), {
    onLeft: (error) => ParseResult.TreeFormatter.formatErrorSync(error),
    onRight: () => undefined
  })

describe("Contract.ConversionRequest.pdfURL", () => {
  it("takes http(s) URLs and the cache:// URL of an upload", () => {
    for (const pdfURL of ["https://example.com/a.pdf", "http://127.0.0.1:8787/v1/files/x", "cache://upload-1.pdf"]) {
      assert.isUndefined(problemOf(pdfURL), pdfURL)
      assert.strictEqual(Either.getOrThrow(decode({ pdfURL })).pdfURL, pdfURL)
    }
  })

  it("refuses other schemes, a cache:// URL naming nothing, and relative URLs, saying why", () => {
    for (
      const [pdfURL, says] of [
        ["ftp://example.com/a.pdf", "not ftp:"],
        ["file:///etc/passwd", "not file:"],
        ["data:application/pdf;base64,JVBERi0=", "not data:"],
        ["cache://", "cache://<name>.pdf"],
        ["cache:upload-1.pdf", "cache://<name>.pdf"],
        ["/v1/files/x", "absolute URL"],
        ["", "absolute URL"]
      ] as const
    ) {
      assert.include(problemOf(pdfURL) ?? "accepted", says, pdfURL)
    }
  })
})
