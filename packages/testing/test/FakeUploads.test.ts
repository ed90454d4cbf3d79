/**
 * FakeServer's chunked upload protocol with raw requests: what it answers and refuses, as the
 * README describes it.
 */
import { HttpClientRequest } from "@effect/platform"
import type { HttpClient } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { FakeServer } from "../src/index.js"

const init = (client: HttpClient.HttpClient, body: unknown, key: string | null = FakeServer.defaultApiKey) => {
  const request = HttpClientRequest.post(`${FakeServer.defaultBaseUrl}/uploads/init`).pipe(
    HttpClientRequest.bodyUnsafeJson(body)
  )
  return client.execute(key === null ? request : HttpClientRequest.bearerToken(request, key))
}

const put = (client: HttpClient.HttpClient, url: string, bytes: Uint8Array) =>
  client.execute(HttpClientRequest.put(url).pipe(HttpClientRequest.bodyUint8Array(bytes, "application/octet-stream")))

const urlOf = (client: HttpClient.HttpClient, uploadId: string) =>
  client.execute(
    HttpClientRequest.get(`${FakeServer.defaultBaseUrl}/uploads/${uploadId}/url`).pipe(
      HttpClientRequest.bearerToken(FakeServer.defaultApiKey)
    )
  )

/** A PDF-headed file whose bytes vary along it, so a part stored at the wrong place shows. */
const pdfOf = (size: number): Uint8Array => {
  const bytes = Uint8Array.from({ length: size }, (_, i) => i % 251)
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"))
  return bytes
}

interface InitData {
  readonly upload_id: string
  readonly part_size: number
  readonly total_parts: number
  readonly uploaded_parts: ReadonlyArray<number>
  readonly presigned_urls: Record<string, string>
}

describe("FakeServer uploads", () => {
  it.effect("init, parts in any order, url; refusals of keys, sizes, signatures and finished uploads", () =>
    Effect.gen(function*() {
      const server = yield* FakeServer.make({ uploads: { partSize: 1000, maxBytes: 5000 } })
      const client = server.httpClient
      const file = pdfOf(2500)
      assert.strictEqual((yield* init(client, { file_extension: ".pdf", size: 2500 }, null)).status, 401)
      assert.strictEqual((yield* init(client, { file_extension: ".docx", size: 2500 })).status, 400)
      const tooLarge = yield* init(client, { file_extension: ".pdf", size: 5001 })
      assert.strictEqual(tooLarge.status, 413)
      assert.deepInclude(yield* tooLarge.json, { error: "upload_too_large", max_bytes: 5000 })

      const started = yield* init(client, { file_extension: ".pdf", size: 2500 })
      const data = ((yield* started.json) as { data: InitData }).data
      assert.deepInclude(data, { upload_id: "upload-1", part_size: 1000, total_parts: 3, uploaded_parts: [] })
      const urls = data.presigned_urls
      assert.deepStrictEqual(Object.keys(urls), ["1", "2", "3"])
      assert.strictEqual((yield* put(client, urls["3"]!, file.subarray(2000))).status, 200)
      assert.strictEqual((yield* put(client, urls["3"]!, file.subarray(1999))).status, 400)
      assert.strictEqual(
        (yield* put(client, urls["1"]!.replace(/sig=\w+/, "sig=0"), file.subarray(0, 1000))).status,
        403
      )
      assert.strictEqual((yield* put(client, urls["1"]!, file.subarray(0, 1000))).status, 200)

      const early = yield* urlOf(client, "upload-1")
      assert.strictEqual(early.status, 409)
      assert.deepInclude(yield* early.json, { error: "upload_incomplete", missing_parts: [2] })
      const resumed = yield* init(client, { file_extension: ".pdf", size: 2500, upload_id: "upload-1" })
      assert.deepInclude(((yield* resumed.json) as { data: InitData }).data, {
        uploaded_parts: [1, 3],
        presigned_urls: { "2": urls["2"]! }
      })
      assert.strictEqual((yield* put(client, urls["2"]!, file.subarray(1000, 2000))).status, 200)
      const done = yield* urlOf(client, "upload-1")
      assert.deepStrictEqual(yield* done.json, { data: { url: "cache://upload-1.pdf" } })
      assert.strictEqual((yield* put(client, urls["2"]!, file.subarray(1000, 2000))).status, 409)
      assert.strictEqual((yield* urlOf(client, "upload-9")).status, 404)
      // A malformed escape in the id is an unknown upload, not a crash of the fake.
      assert.strictEqual((yield* urlOf(client, "%E0")).status, 404)
      const [upload] = yield* server.uploads
      assert.deepInclude(upload, { received: [1, 2, 3], completed: true, bytes: file })
    }))

  it.effect("part 1 must start with %PDF-, as on the reference server: 400 invalid_part, nothing stored", () =>
    Effect.gen(function*() {
      const server = yield* FakeServer.make({ uploads: { partSize: 1000 } })
      const client = server.httpClient
      const file = pdfOf(2500)
      const started = yield* init(client, { file_extension: ".pdf", size: 2500 })
      const urls = ((yield* started.json) as { data: InitData }).data.presigned_urls
      const notPdf = yield* put(client, urls["1"]!, new Uint8Array(1000))
      assert.strictEqual(notPdf.status, 400)
      assert.deepStrictEqual(yield* notPdf.json, {
        error: "invalid_part",
        message: "Part 1 does not start with %PDF-: the file is not a PDF"
      })
      // Only the first part carries the header; the size is checked first, as on the server.
      assert.strictEqual((yield* put(client, urls["2"]!, new Uint8Array(1000))).status, 200)
      const short = yield* put(client, urls["1"]!, new Uint8Array(999))
      assert.deepInclude(yield* short.json, { error: "invalid_part", message: "Part 1 must be 1000 bytes, not 999" })
      // A fault that stores the part (the answer lost) stores nothing that the server would refuse.
      yield* server.enqueuePart(1, { _tag: "Fault", fault: { _tag: "InvalidBody" } })
      yield* put(client, urls["1"]!, new Uint8Array(1000))
      assert.deepInclude((yield* server.uploads)[0], { received: [2] })
      assert.strictEqual((yield* put(client, urls["1"]!, file.subarray(0, 1000))).status, 200)
      assert.deepInclude((yield* server.uploads)[0], { received: [1, 2] })
    }))
})
