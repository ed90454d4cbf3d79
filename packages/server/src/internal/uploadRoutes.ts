/**
 * The hosted service's chunked upload protocol under `/v1/uploads`, for its official clients: `init`
 * answers signed part URLs (the credential of each `PUT`), `{id}/url` the `cache://` URL to submit.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Media from "@pdf-transform/core/Media"
import {
  IncompleteUpload,
  InitRequest,
  InitResponse,
  PartResponse,
  UrlResponse
} from "@pdf-transform/core/UploadProtocol"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Crypto from "node:crypto"
import type { KeyIdentity } from "./auth.js"
import type { AppContext } from "./context.js"
import { refuseWhileDraining } from "./context.js"
import { insufficientStorage } from "./fileRoutes.js"
import { fail, HttpFailure, jsonResponse, readBody } from "./http.js"
import { jsonBodyDecoder } from "./jsonBody.js"
import { signedUrl, verifySigned } from "./signedUrls.js"
import { cacheUrlOf } from "./source.js"
import type { FileEntry } from "./store.js"

const decodeInitBody = jsonBodyDecoder(InitRequest)
const encodeInit = Schema.encodeSync(InitResponse)
const encodePart = Schema.encodeSync(PartResponse)
const encodeUrl = Schema.encodeSync(UrlResponse)
const encodeIncomplete = Schema.encodeSync(IncompleteUpload)

const partPath = (uploadId: string, part: number): string => `/v1/uploads/${uploadId}/parts/${part}`

/** What `init` answers: the protocol's fields, and URLs for the parts still missing. */
const describe = (context: AppContext, upload: FileEntry): typeof InitResponse.Type["data"] => {
  const urls: Record<string, string> = {}
  const received = new Set(upload.received)
  for (let part = 1; part <= upload.totalParts; part++) {
    if (!received.has(part)) {
      urls[String(part)] = signedUrl(
        context,
        "part",
        partPath(upload.id, part),
        `${upload.id}/${part}`,
        upload.expiresAt
      )
    }
  }
  return {
    upload_id: upload.id,
    part_size: upload.partSize,
    total_parts: upload.totalParts,
    uploaded_parts: [...upload.received],
    presigned_urls: urls,
    expires_at: new Date(upload.expiresAt).toISOString()
  }
}

const unknownUpload = (): HttpFailure => fail(404, "not_found", "Unknown or expired upload")

const alreadyComplete = (uploadId: string): HttpFailure =>
  fail(409, "upload_complete", `The upload is complete; GET /v1/uploads/${uploadId}/url answers its URL`)

const start = (context: AppContext, key: KeyIdentity, size: number, now: number) =>
  Effect.gen(function*() {
    const { incompleteRetentionMs, partSize } = context.options.uploads
    const upload: FileEntry = {
      kind: "upload",
      id: Crypto.randomUUID(),
      owner: key.id,
      size,
      partSize,
      totalParts: Math.ceil(size / partSize),
      received: [],
      createdAt: now,
      expiresAt: now + incompleteRetentionMs
    }
    if (!(yield* context.store.startUpload(upload, now))) return yield* insufficientStorage(context, size)
    yield* Effect.logInfo("upload started").pipe(
      Effect.annotateLogs({ key: key.id, uploadId: upload.id, bytes: size, parts: upload.totalParts })
    )
    return upload
  })

const resume = (context: AppContext, key: KeyIdentity, uploadId: string, size: number, now: number) =>
  Effect.gen(function*() {
    const entry = yield* context.store.entry(uploadId, now)
    if (Option.isNone(entry) || entry.value.owner !== key.id) return yield* unknownUpload()
    if (entry.value.kind === "file") return yield* alreadyComplete(uploadId)
    if (entry.value.size !== size) {
      return yield* fail(409, "size_mismatch", `The upload was started with size ${entry.value.size}, not ${size}`)
    }
    return entry.value
  })

export const init = (context: AppContext) =>
  Effect.gen(function*() {
    const key = yield* context.authenticate
    const body = yield* Effect.flatten(Effect.map(readBody(context.options.maxJsonBodyBytes), decodeInitBody))
    if (body.file_extension.replace(/^\./, "").toLowerCase() !== "pdf") {
      return yield* fail(
        400,
        "invalid_request",
        `Only PDF files are accepted (file_extension ${JSON.stringify(body.file_extension)})`
      )
    }
    const { maxBytes } = context.options.uploads
    if (body.size > maxBytes) {
      return yield* fail(413, "upload_too_large", `An upload may hold at most ${maxBytes} bytes, not ${body.size}`, {
        body: { max_bytes: maxBytes }
      })
    }
    // A new session is new work; an upload already started may resume and finish its parts.
    if (body.upload_id === undefined) yield* refuseWhileDraining(context, "upload")
    const now = yield* Clock.currentTimeMillis
    yield* context.store.sweepIfDue(now)
    const upload = body.upload_id === undefined
      ? yield* start(context, key, body.size, now)
      : yield* resume(context, key, body.upload_id, body.size, now)
    return jsonResponse(200, encodeInit({ data: describe(context, upload) }))
  })

export const putPart = (context: AppContext) =>
  Effect.gen(function*() {
    const params = yield* HttpRouter.params
    const uploadId = params["uploadId"] ?? ""
    const partText = params["partNumber"] ?? ""
    // The signature covers the id and the part number: both are as this server wrote them.
    const now = yield* verifySigned(context, "part", `${uploadId}/${partText}`)
    const found = yield* context.store.entry(uploadId, now)
    if (Option.isNone(found)) return yield* unknownUpload()
    const entry = found.value
    if (entry.kind === "file") return yield* alreadyComplete(uploadId)
    const part = Number(partText)
    const offset = (part - 1) * entry.partSize
    const expected = Math.min(entry.partSize, entry.size - offset)
    const bytes = yield* readBody(expected)
    if (bytes.byteLength !== expected) {
      return yield* fail(400, "invalid_part", `Part ${part} must be ${expected} bytes, not ${bytes.byteLength}`)
    }
    if (part === 1 && !Media.looksLikePdf(bytes)) {
      return yield* fail(400, "invalid_part", "Part 1 does not start with %PDF-: the file is not a PDF")
    }
    yield* context.store.putPart(uploadId, part, bytes)
    yield* Effect.logDebug("upload part received").pipe(Effect.annotateLogs({ uploadId, part, bytes: expected }))
    return jsonResponse(200, encodePart({ data: { part_number: part, size: expected } }))
  })

export const uploadUrl = (context: AppContext) =>
  Effect.gen(function*() {
    const key = yield* context.authenticate
    const params = yield* HttpRouter.params
    const uploadId = params["uploadId"] ?? ""
    const now = yield* Clock.currentTimeMillis
    const found = yield* context.store.entry(uploadId, now)
    if (Option.isNone(found) || found.value.owner !== key.id) return yield* unknownUpload()
    const entry = found.value
    if (entry.kind === "upload") {
      const received = new Set(entry.received)
      const missing = Array.from({ length: entry.totalParts }, (_, i) => i + 1).filter((n) => !received.has(n))
      if (missing.length > 0) {
        const listed = missing.length > 20 ? `${missing.slice(0, 20).join(", ")}, ...` : missing.join(", ")
        const message = `${entry.totalParts - missing.length} of ${entry.totalParts} parts received; missing: ${listed}`
        return yield* new HttpFailure({
          status: 409,
          body: encodeIncomplete({ error: "upload_incomplete", message, missing_parts: missing })
        })
      }
      yield* context.store.completeUpload(uploadId, now + context.options.uploads.retentionMs)
      yield* Effect.logInfo("upload completed").pipe(Effect.annotateLogs({ key: key.id, uploadId, bytes: entry.size }))
    }
    return jsonResponse(200, encodeUrl({ data: { url: cacheUrlOf(uploadId) } }))
  })
