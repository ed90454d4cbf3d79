/** `POST /v1/files` (the reference server's one-request upload) and `GET /v1/files/{id}`. */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Media from "@pdf-transform/core/Media"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Crypto from "node:crypto"
import type { AppContext } from "./context.js"
import { refuseWhileDraining } from "./context.js"
import type { HttpFailure } from "./http.js"
import { fail, jsonResponse, queryOf, readBody } from "./http.js"
import { singleFilePart } from "./multipart.js"
import { signedUrl, verifySigned } from "./signedUrls.js"
import type { StorageError } from "./store.js"

/** The PDF a body carries: the body itself, or the file part of a form. */
const pdfOf = (body: Uint8Array, contentType: string | undefined): Either.Either<Uint8Array, HttpFailure> => {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase()
  const bytes = type === "multipart/form-data"
    ? Either.mapLeft(singleFilePart(body, contentType ?? ""), (problem) => fail(400, "invalid_request", problem))
    : type === "" || type === Media.pdfContentType || type === "application/octet-stream"
    ? Either.right(body)
    : Either.left(
      fail(
        415,
        "unsupported_media_type",
        "Send the PDF as the body (application/pdf or application/octet-stream) or as the one file part of multipart/form-data"
      )
    )
  return Either.flatMap(bytes, (pdf) =>
    pdf.byteLength === 0
      ? Either.left(fail(400, "invalid_request", "The uploaded file is empty"))
      : Media.looksLikePdf(pdf)
      ? Either.right(pdf)
      : Either.left(fail(400, "invalid_request", "The uploaded file is not a PDF (it does not start with %PDF-)")))
}

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`

/** 507 when the upload store cannot hold `bytes` more: its budget, what is used, what was asked. */
export const insufficientStorage = (
  context: AppContext,
  bytes: number
): Effect.Effect<never, HttpFailure | StorageError> =>
  Effect.flatMap(context.store.fileUsage, (usage) => {
    const { maxFiles, maxTotalBytes } = context.options.uploads
    const message = usage.files >= maxFiles
      ? `The server holds its maximum of ${maxFiles} uploads; retry later`
      : `The server's upload storage cannot hold ${mib(bytes)} more (${mib(usage.bytes)} of ${
        mib(maxTotalBytes)
      } in use); retry later`
    return Effect.fail(fail(507, "insufficient_storage", message, { headers: { "retry-after": "60" } }))
  })

export const upload = (context: AppContext) =>
  Effect.gen(function*() {
    const key = yield* context.authenticate
    yield* refuseWhileDraining(context, "upload")
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* readBody(context.options.uploads.maxBytes)
    const bytes = yield* pdfOf(body, request.headers["content-type"])
    const now = yield* Clock.currentTimeMillis
    const id = Crypto.randomUUID()
    const expiresAt = now + context.options.uploads.retentionMs
    const file = { id, owner: key.id, size: bytes.byteLength, createdAt: now, expiresAt }
    if (!(yield* context.store.addFile(file, bytes, now))) return yield* insufficientStorage(context, bytes.byteLength)
    yield* Effect.logInfo("file uploaded").pipe(Effect.annotateLogs({ key: key.id, bytes: bytes.byteLength }))
    return jsonResponse(201, { url: signedUrl(context, "file", `/v1/files/${encodeURIComponent(id)}`, id, expiresAt) })
  })

export const fetchFile = (context: AppContext) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* HttpRouter.params
    const fileId = params["fileId"] ?? ""
    // With a signature the URL is the credential; without one, only the uploader's key opens it.
    const owner = queryOf(request.url).has("signature")
      ? yield* Effect.as(verifySigned(context, "file", fileId), undefined)
      : (yield* context.authenticate).id
    const now = yield* Clock.currentTimeMillis
    const entry = yield* context.store.entry(fileId, now)
    const bytes = Option.isSome(entry) && entry.value.kind === "file" &&
        (owner === undefined || entry.value.owner === owner)
      ? yield* context.store.fileBytes(fileId, now)
      : Option.none()
    if (Option.isNone(bytes)) return yield* fail(404, "not_found", "Unknown or expired file")
    return HttpServerResponse.uint8Array(bytes.value, {
      status: 200,
      contentType: Media.pdfContentType,
      headers: { "cache-control": "private, no-store", "x-content-type-options": "nosniff" }
    })
  })
