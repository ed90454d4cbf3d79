/**
 * The chunked upload protocol under /v1/uploads, played with raw HTTP over 127.0.0.1 exactly as the
 * hosted service's official TypeScript client plays it (oomol-lab/pdf-craft-sdk-ts `uploadFile`):
 * `POST init` with the key and `{file_extension, size}`, a `PUT` of each part's bytes to its
 * presigned URL with `Content-Type: application/octet-stream` and no key, then `GET {id}/url`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as Crypto from "node:crypto"
import { bearer, json, otherBearer, pathOf, serve, settle, status, submit, submitted, upload } from "./harness.js"
import type { Harness } from "./harness.js"
import { digestConverter, digestOf, fakePdf } from "./utils.js"

const MiB = 1024 * 1024
const partSize = 5 * MiB

/** A PDF-headed file whose every 4 KiB block differs, so a part written at the wrong place shows. */
const bigPdf = (size: number): Uint8Array => {
  const bytes = fakePdf(size)
  for (let offset = 4096; offset < size; offset += 4096) {
    bytes.set(new TextEncoder().encode(`block ${offset}`).subarray(0, size - offset), offset)
  }
  return bytes
}

interface InitData {
  readonly upload_id: string
  readonly part_size: number
  readonly total_parts: number
  readonly uploaded_parts: ReadonlyArray<number>
  readonly presigned_urls: Record<string, string>
}

const init = (h: Harness, body: unknown, headers: Record<string, string> = bearer) =>
  h.request({ method: "POST", path: "/v1/uploads/init", headers: { ...headers, ...json }, body: JSON.stringify(body) })

const initData = (h: Harness, body: unknown, headers: Record<string, string> = bearer) =>
  Effect.map(init(h, body, headers), (response) => {
    assert.strictEqual(response.status, 200, response.body.toString())
    return (response.json as { data: InitData }).data
  })

const put = (h: Harness, url: string, bytes: Uint8Array) =>
  h.request({ method: "PUT", path: pathOf(url), headers: { "content-type": "application/octet-stream" }, body: bytes })

const part = (file: Uint8Array, n: number) => file.subarray((n - 1) * partSize, n * partSize)

const urlOf = (h: Harness, uploadId: string, headers: Record<string, string> = bearer) =>
  h.request({ path: `/v1/uploads/${uploadId}/url`, headers })

/** A submit as the official client sends it (with its extra `includes_footnotes`). */
const submitUrl = (h: Harness, pdfURL: string, headers: Record<string, string> = bearer) =>
  submit(h, "markdown", { pdfURL, model: "gundam", includes_footnotes: false }, headers)

/** Submit, poll once the conversion ran, download: the output bytes. */
const convert = (h: Harness, pdfURL: string) =>
  Effect.gen(function*() {
    const sessionID = yield* submitted(h, "markdown", { pdfURL, includes_footnotes: false })
    yield* settle
    const done = yield* status(h, "markdown", sessionID)
    assert.strictEqual(done.state, "completed")
    const download = yield* h.request({ path: pathOf(done.state === "completed" ? done.data.downloadURL : "") })
    assert.strictEqual(download.status, 200)
    return download.body.toString("utf8")
  })

const uploaded = (h: Harness, file: Uint8Array) =>
  Effect.gen(function*() {
    const data = yield* initData(h, { file_extension: ".pdf", size: file.byteLength })
    for (let n = 1; n <= data.total_parts; n++) {
      assert.strictEqual((yield* put(h, data.presigned_urls[String(n)]!, part(file, n))).status, 200)
    }
    const url = yield* urlOf(h, data.upload_id)
    assert.strictEqual(url.status, 200, url.body.toString())
    return { data, url: (url.json as { data: { url: string } }).data.url }
  })

describe("chunked uploads (/v1/uploads)", () => {
  it.scoped("the official client's exchange: parts out of order, one re-sent, cache:// converts the same bytes", () =>
    Effect.gen(function*() {
      const h = yield* serve({}, digestConverter)
      const file = bigPdf(2 * partSize + 12_345)
      const data = yield* initData(h, { file_extension: ".pdf", size: file.byteLength })
      assert.strictEqual(data.part_size, partSize)
      assert.strictEqual(data.total_parts, 3)
      assert.deepStrictEqual(data.uploaded_parts, [])
      assert.deepStrictEqual(Object.keys(data.presigned_urls), ["1", "2", "3"])
      for (const url of Object.values(data.presigned_urls)) assert.strictEqual(new URL(url).origin, h.base)

      assert.strictEqual((yield* put(h, data.presigned_urls["3"]!, part(file, 3))).status, 200)
      assert.strictEqual((yield* put(h, data.presigned_urls["1"]!, part(file, 1))).status, 200)
      const early = yield* urlOf(h, data.upload_id)
      assert.strictEqual(early.status, 409)
      assert.deepStrictEqual(early.json, {
        error: "upload_incomplete",
        message: "2 of 3 parts received; missing: 2",
        missing_parts: [2]
      })
      // A part of the right size but the wrong bytes, then the right one: the second replaces the first.
      assert.strictEqual((yield* put(h, data.presigned_urls["2"]!, new Uint8Array(partSize))).status, 200)
      assert.strictEqual((yield* put(h, data.presigned_urls["2"]!, part(file, 2))).status, 200)

      const url = yield* urlOf(h, data.upload_id)
      assert.strictEqual(url.status, 200, url.body.toString())
      const cacheUrl = (url.json as { data: { url: string } }).data.url
      assert.strictEqual(cacheUrl, `cache://${data.upload_id}.pdf`)
      assert.deepStrictEqual((yield* urlOf(h, data.upload_id)).json, url.json)

      const viaUpload = yield* convert(h, cacheUrl)
      assert.strictEqual(viaUpload, digestOf(file))
      assert.strictEqual(yield* convert(h, yield* upload(h, bearer, file)), viaUpload)
    }))

  it.scoped("init again with the upload_id resumes: the parts already there are reported, not asked again", () =>
    Effect.gen(function*() {
      const h = yield* serve({}, digestConverter)
      const file = bigPdf(partSize + 1)
      const first = yield* initData(h, { file_extension: "pdf", size: file.byteLength })
      assert.strictEqual(first.total_parts, 2)
      assert.strictEqual((yield* put(h, first.presigned_urls["2"]!, part(file, 2))).status, 200)
      const resumed = yield* initData(h, { file_extension: ".pdf", size: file.byteLength, upload_id: first.upload_id })
      assert.strictEqual(resumed.upload_id, first.upload_id)
      assert.deepStrictEqual(resumed.uploaded_parts, [2])
      assert.deepStrictEqual(Object.keys(resumed.presigned_urls), ["1"])
      assert.strictEqual((yield* put(h, resumed.presigned_urls["1"]!, part(file, 1))).status, 200)
      assert.strictEqual((yield* urlOf(h, first.upload_id)).status, 200)
      assert.strictEqual(yield* convert(h, `cache://${first.upload_id}.pdf`), digestOf(file))

      const again = { file_extension: ".pdf", size: file.byteLength, upload_id: first.upload_id }
      assert.strictEqual((yield* init(h, again)).status, 409)
      assert.strictEqual((yield* init(h, { ...again, upload_id: Crypto.randomUUID() })).status, 404)
      const other = yield* initData(h, { file_extension: ".pdf", size: file.byteLength })
      assert.strictEqual((yield* init(h, { ...again, upload_id: other.upload_id, size: 10 })).status, 409)
      assert.strictEqual((yield* init(h, { ...again, upload_id: other.upload_id }, otherBearer)).status, 404)
    }))

  it.scoped("init refuses what it cannot take: no key, not a PDF, bad size, too large (413), no room (507)", () =>
    Effect.gen(function*() {
      const h = yield* serve({ uploads: { maxBytes: 20 * MiB, maxTotalBytes: 30 * MiB } })
      const noKey = yield* init(h, { file_extension: ".pdf", size: 100 }, {})
      assert.strictEqual(noKey.status, 401)
      for (
        const [body, status, mentions] of [
          [{ file_extension: ".docx", size: 100 }, 400, "PDF"],
          [{ file_extension: ".pdf", size: 0 }, 400, "size"],
          [{ file_extension: ".pdf", size: 1.5 }, 400, "size"],
          [{ file_extension: ".pdf", size: "100" }, 400, "size"],
          [{ size: 100 }, 400, "file_extension"],
          [{ file_extension: ".pdf", size: 20 * MiB + 1 }, 413, "20971520"]
        ] as const
      ) {
        const response = yield* init(h, body)
        assert.strictEqual(response.status, status, JSON.stringify(body))
        assert.include(response.body.toString(), mentions, JSON.stringify(body))
      }
      yield* initData(h, { file_extension: ".pdf", size: 20 * MiB })
      const full = yield* init(h, { file_extension: ".pdf", size: 11 * MiB })
      assert.strictEqual(full.status, 507)
      assert.deepStrictEqual(full.json, {
        error: "insufficient_storage",
        message: "The server's upload storage cannot hold 11.0 MiB more (20.0 MiB of 30.0 MiB in use); retry later"
      })
      assert.strictEqual((yield* init(h, { file_extension: ".pdf", size: 10 * MiB })).status, 200)
    }))

  it.scoped("parts: exact sizes, a PDF header, a signature that holds, and nothing after completion", () =>
    Effect.gen(function*() {
      const h = yield* serve({}, digestConverter)
      const file = bigPdf(partSize + 1000)
      const data = yield* initData(h, { file_extension: ".pdf", size: file.byteLength })
      const one = data.presigned_urls["1"]!
      const two = data.presigned_urls["2"]!
      const short = yield* put(h, two, new Uint8Array(999))
      assert.strictEqual(short.status, 400)
      assert.strictEqual((short.json as { message: string }).message, "Part 2 must be 1000 bytes, not 999")
      assert.strictEqual((yield* put(h, two, new Uint8Array(1001))).status, 413)
      const notPdf = yield* put(h, one, new Uint8Array(partSize))
      assert.strictEqual(notPdf.status, 400)
      assert.include((notPdf.json as { message: string }).message, "%PDF-")
      // The signature covers the part number: part 1's URL cannot write part 2.
      const swapped = one.replace("/parts/1?", "/parts/2?")
      assert.strictEqual((yield* put(h, swapped, part(file, 2))).status, 403)
      const tampered = `${one.slice(0, -1)}${one.endsWith("A") ? "B" : "A"}`
      assert.strictEqual((yield* put(h, tampered, part(file, 1))).status, 403)
      assert.strictEqual((yield* urlOf(h, data.upload_id)).status, 409)
      assert.strictEqual((yield* put(h, one, part(file, 1))).status, 200)
      assert.strictEqual((yield* put(h, two, part(file, 2))).status, 200)
      assert.strictEqual((yield* urlOf(h, data.upload_id, otherBearer)).status, 404)
      assert.strictEqual((yield* urlOf(h, data.upload_id)).status, 200)
      assert.strictEqual((yield* put(h, two, part(file, 2))).status, 409)
    }))

  it.scoped("a submit with an unknown, incomplete or foreign cache:// URL is a 400 naming it", () =>
    Effect.gen(function*() {
      const h = yield* serve({}, digestConverter)
      const { url } = yield* uploaded(h, fakePdf(1000))
      const incomplete = yield* initData(h, { file_extension: ".pdf", size: 1000 })
      for (
        const [pdfURL, headers] of [
          [`cache://${Crypto.randomUUID()}.pdf`, bearer],
          ["cache://nothing-here.pdf", bearer],
          [`cache://${incomplete.upload_id}.pdf`, bearer],
          [url, otherBearer]
        ] as const
      ) {
        const response = yield* submitUrl(h, pdfURL, headers)
        assert.strictEqual(response.status, 400, pdfURL)
        assert.include((response.json as { message: string }).message, JSON.stringify(pdfURL))
      }
      assert.strictEqual(yield* h.state.store.taskCount, 0)
      assert.strictEqual((yield* submitUrl(h, url)).status, 200)
    }))

  it.scoped("uploads expire: an unfinished one after an hour (its part URLs with it, its room freed), a file after its retention", () =>
    Effect.gen(function*() {
      const h = yield* serve({ uploads: { incompleteRetention: "1 hour", retention: "2 hours" } }, digestConverter)
      const { url } = yield* uploaded(h, fakePdf(1000))
      const file = bigPdf(partSize + 1)
      const pending = yield* initData(h, { file_extension: ".pdf", size: file.byteLength })
      assert.strictEqual((yield* put(h, pending.presigned_urls["1"]!, part(file, 1))).status, 200)
      assert.strictEqual((yield* h.state.store.fileUsage).bytes, 1000 + file.byteLength)
      yield* TestClock.adjust("1 hour")
      const late = yield* put(h, pending.presigned_urls["2"]!, part(file, 2))
      assert.strictEqual(late.status, 410)
      const resume = { file_extension: ".pdf", size: file.byteLength, upload_id: pending.upload_id }
      assert.strictEqual((yield* init(h, resume)).status, 404)
      assert.strictEqual((yield* urlOf(h, pending.upload_id)).status, 404)
      assert.strictEqual((yield* h.state.store.fileUsage).bytes, 1000)
      assert.strictEqual((yield* submitUrl(h, url)).status, 200)
      yield* TestClock.adjust("1 hour")
      assert.strictEqual((yield* submitUrl(h, url)).status, 400)
    }))

  it.scoped("while the node drains, a new upload gets 503 with Retry-After; an upload begun before finishes", () =>
    Effect.gen(function*() {
      const h = yield* serve({}, digestConverter)
      const file = bigPdf(partSize + 12_345)
      const begun = yield* initData(h, { file_extension: ".pdf", size: file.byteLength })
      assert.strictEqual((yield* put(h, begun.presigned_urls["1"]!, part(file, 1))).status, 200)
      yield* h.state.drain
      const refusals = [
        yield* init(h, { file_extension: ".pdf", size: file.byteLength }),
        yield* h.request({
          method: "POST",
          path: "/v1/files",
          headers: { ...bearer, "content-type": "application/pdf" },
          body: fakePdf()
        })
      ]
      for (const refused of refusals) {
        assert.strictEqual(refused.status, 503, refused.body.toString())
        assert.strictEqual(refused.headers["retry-after"], "5")
        assert.strictEqual((refused.json as { error: string }).error, "draining")
      }
      // The session begun before the drain resumes, takes its last part and gives its URL.
      const resumed = yield* initData(h, {
        file_extension: ".pdf",
        size: file.byteLength,
        upload_id: begun.upload_id
      })
      assert.deepStrictEqual(resumed.uploaded_parts, [1])
      assert.strictEqual((yield* put(h, resumed.presigned_urls["2"]!, part(file, 2))).status, 200)
      assert.strictEqual((yield* urlOf(h, begun.upload_id)).status, 200)
    }))
})
