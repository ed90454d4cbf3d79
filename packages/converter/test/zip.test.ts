/** The EPUB's zip: what another reader (fflate) reads back, and the OCF's rules on `mimetype`. */
import { assert, describe, it } from "@effect/vitest"
import * as Fflate from "fflate"
import { zip } from "../src/internal/zip.js"

const bytes = (text: string) => new TextEncoder().encode(text)

describe("the EPUB's zip", () => {
  it("holds each entry, stored or deflated, as another reader reads it, in the order given", () => {
    const text = "<p>chapter</p>\n".repeat(500)
    const image = new Uint8Array(4096).map((_, i) => (i * 31) & 0xFF)
    const archive = zip([
      { name: "mimetype", data: bytes("application/epub+zip"), store: true },
      { name: "OEBPS/chapter-001.xhtml", data: bytes(text), store: false },
      { name: "OEBPS/images/figure-0001.png", data: image, store: true },
      { name: "OEBPS/côté.xhtml", data: bytes("é"), store: false }
    ], new Date("2026-11-27T01:02:04Z"))
    const files = Fflate.unzipSync(archive)
    assert.deepStrictEqual(Object.keys(files), [
      "mimetype",
      "OEBPS/chapter-001.xhtml",
      "OEBPS/images/figure-0001.png",
      "OEBPS/côté.xhtml"
    ])
    assert.strictEqual(new TextDecoder().decode(files["OEBPS/chapter-001.xhtml"]), text)
    assert.deepStrictEqual(files["OEBPS/images/figure-0001.png"], image)
    // The text is deflated: the archive is smaller than what it holds.
    assert.isBelow(archive.length, text.length)
  })
  it("writes the CRC-32 an entry comes with (a figure's, found when it was deduplicated) without computing it again", () => {
    const archive = zip(
      [{ name: "a.png", data: bytes("not read for its CRC"), store: true, crc: 0x12345678 }],
      new Date(0)
    )
    const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength)
    assert.strictEqual(view.getUint32(14, true), 0x12345678)
  })
  it("starts with `mimetype`, stored, with no extra field, so a reader can sniff the type at byte 30", () => {
    const archive = zip([
      { name: "mimetype", data: bytes("application/epub+zip"), store: true },
      { name: "a.xhtml", data: bytes("<a/>"), store: false }
    ], new Date(0))
    const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength)
    assert.strictEqual(view.getUint32(0, true), 0x04034B50)
    assert.strictEqual(view.getUint16(8, true), 0)
    assert.strictEqual(view.getUint16(28, true), 0)
    assert.strictEqual(new TextDecoder().decode(archive.subarray(30, 58)), "mimetypeapplication/epub+zip")
  })
})
