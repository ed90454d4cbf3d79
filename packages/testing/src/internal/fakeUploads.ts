/**
 * The chunked upload protocol in the fake (core's `UploadProtocol`): `init` with the key answers a
 * presigned part URL on a storage host of its own, parts are `PUT` there with no key (faults
 * scripted per part number), and `url` answers the `cache://` URL once every part is there.
 */
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as UploadProtocol from "@pdf-transform/core/UploadProtocol"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as FakeServer from "../FakeServer.js"
import { FakeResponse } from "./response.js"

/** @internal */
export const defaultPartSize = 5 * 1024 * 1024

/** @internal */
export const storageOrigin = "https://storage.fake.pdf-transform.test"

/** @internal */
export interface Deps {
  /** Where `init` and `url` live. */
  readonly baseUrl: string
  readonly options: FakeServer.UploadOptions
  /** The 401 answer for a request without an accepted key, else undefined. */
  readonly authenticate: (
    request: HttpClientRequest.HttpClientRequest
  ) => HttpClientResponse.HttpClientResponse | undefined
  readonly record: (entry: FakeServer.RecordedRequest) => void
}

interface UploadRecord {
  readonly uploadId: string
  readonly size: number
  readonly partSize: number
  readonly totalParts: number
  readonly signature: string
  readonly parts: Map<number, Uint8Array>
  completed: boolean
}

const textEncoder = new TextEncoder()
const textDecoder = new TextDecoder()
const notJson = textEncoder.encode("<html>oops")

const decodeInit = Schema.decodeUnknownEither(Schema.parseJson(UploadProtocol.InitRequest))

const respond = (
  request: HttpClientRequest.HttpClientRequest,
  status: number,
  body: unknown,
  options: { readonly delayMs?: number | undefined } = {}
): FakeResponse => {
  const text = typeof body === "string" ? body : JSON.stringify(body)
  const headers = { "content-type": typeof body === "string" ? "text/html" : "application/json" }
  return new FakeResponse(request, status, headers, [textEncoder.encode(text)], options.delayMs)
}

const errorBody = (error: string, message: string, extra: Record<string, unknown> = {}) => ({
  error,
  message,
  ...extra
})

const reset = (request: HttpClientRequest.HttpClientRequest, code: "ECONNREFUSED" | "ECONNRESET") =>
  new HttpClientError.RequestError({
    request,
    reason: "Transport",
    cause: Object.assign(new Error(code === "ECONNREFUSED" ? "connect ECONNREFUSED" : "read ECONNRESET"), { code }),
    description: code
  })

/** The request's body as bytes; with `upTo`, stops pulling the body once that many bytes arrived. */
const bodyBytes = (
  request: HttpClientRequest.HttpClientRequest,
  upTo?: number
): Effect.Effect<Uint8Array, HttpClientError.RequestError> => {
  const body = request.body
  switch (body._tag) {
    case "Uint8Array":
      return Effect.succeed(body.body)
    case "Raw":
      return Effect.succeed(typeof body.body === "string" ? textEncoder.encode(body.body) : new Uint8Array(0))
    case "Stream": {
      let received = 0
      const stream = Stream.tap(body.stream, (chunk) => Effect.sync(() => void (received += chunk.byteLength)))
      return (upTo === undefined ? stream : Stream.takeUntil(stream, () => received >= upTo)).pipe(
        Stream.runCollect,
        Effect.map((chunks) => Buffer.concat(Chunk.toReadonlyArray(chunks))),
        Effect.mapError((cause) => new HttpClientError.RequestError({ request, reason: "Encode", cause }))
      )
    }
    default:
      return Effect.succeed(new Uint8Array(0))
  }
}

/** @internal */
export const make = (deps: Deps) => {
  const base = deps.baseUrl.replace(/\/+$/, "")
  const partSize = deps.options.partSize ?? defaultPartSize
  const envelope = <A>(data: A) => deps.options.envelope === false ? data : { data }
  const uploads = new Map<string, UploadRecord>()
  const partQueues = new Map<number, Array<FakeServer.PartStep>>()
  let counter = 0

  const partUrl = (upload: UploadRecord, part: number) =>
    `${storageOrigin}/parts/${upload.uploadId}/${part}?sig=${upload.signature}`

  const describe = (upload: UploadRecord): UploadProtocol.InitData => {
    const urls: Record<string, string> = {}
    for (let part = 1; part <= upload.totalParts; part++) {
      if (!upload.parts.has(part)) urls[String(part)] = partUrl(upload, part)
    }
    return {
      upload_id: upload.uploadId,
      part_size: upload.partSize,
      total_parts: upload.totalParts,
      uploaded_parts: [...upload.parts.keys()].sort((a, b) => a - b),
      presigned_urls: urls,
      expires_at: new Date(Date.UTC(2100, 0, 1)).toISOString()
    }
  }

  const init = (request: HttpClientRequest.HttpClientRequest, text: string): FakeResponse => {
    const body = decodeInit(text)
    if (Either.isLeft(body)) {
      return respond(request, 400, errorBody("invalid_request", ParseResult.TreeFormatter.formatErrorSync(body.left)))
    }
    const { file_extension, size, upload_id } = body.right
    if (file_extension.replace(/^\./, "").toLowerCase() !== "pdf") {
      return respond(request, 400, errorBody("invalid_request", `Only PDF files are accepted, not ${file_extension}`))
    }
    const maxBytes = deps.options.maxBytes
    if (maxBytes !== undefined && size > maxBytes) {
      const message = `An upload may hold at most ${maxBytes} bytes, not ${size}`
      return respond(request, 413, errorBody("upload_too_large", message, { max_bytes: maxBytes }))
    }
    if (upload_id !== undefined) {
      const upload = uploads.get(upload_id)
      if (upload === undefined) return respond(request, 404, errorBody("not_found", "Unknown upload"))
      if (upload.completed || upload.size !== size) {
        return respond(request, 409, errorBody("conflict", "The upload is complete or has another size"))
      }
      return respond(request, 200, envelope(describe(upload)))
    }
    counter++
    const upload: UploadRecord = {
      uploadId: `upload-${counter}`,
      size,
      partSize,
      totalParts: UploadProtocol.partCount(size, partSize),
      signature: (Math.imul(counter, 2246822519) >>> 0).toString(16).padStart(8, "0"),
      parts: new Map(),
      completed: false
    }
    uploads.set(upload.uploadId, upload)
    return respond(request, 200, envelope(describe(upload)))
  }

  const finish = (request: HttpClientRequest.HttpClientRequest, uploadId: string): FakeResponse => {
    const upload = uploads.get(uploadId)
    if (upload === undefined) return respond(request, 404, errorBody("not_found", "Unknown upload"))
    const missing = Array.from({ length: upload.totalParts }, (_, i) => i + 1).filter((n) => !upload.parts.has(n))
    if (missing.length > 0) {
      return respond(request, 409, {
        error: "upload_incomplete",
        message: `missing parts: ${missing.join(", ")}`,
        missing_parts: missing
      })
    }
    upload.completed = true
    return respond(request, 200, envelope({ url: UploadProtocol.cacheUrl(uploadId) }))
  }

  /** Stores a part the way the reference server does: the exact size, at its place, replacing an earlier copy. */
  const store = (
    request: HttpClientRequest.HttpClientRequest,
    upload: UploadRecord,
    part: number,
    bytes: Uint8Array,
    delayMs?: number
  ): FakeResponse => {
    const { length } = UploadProtocol.partRange(upload.size, upload.partSize, part)
    if (bytes.byteLength !== length) {
      const message = `Part ${part} must be ${length} bytes, not ${bytes.byteLength}`
      return respond(request, 400, errorBody("invalid_part", message))
    }
    upload.parts.set(part, bytes)
    return respond(request, 200, { data: { part_number: part, size: length } }, { delayMs })
  }

  const putPart = (request: HttpClientRequest.HttpClientRequest, url: URL) =>
    Effect.gen(function*() {
      const [, kind, uploadId, partText, ...rest] = url.pathname.split("/")
      const upload = uploads.get(uploadId ?? "")
      const part = Number(partText)
      if (
        kind !== "parts" || rest.length > 0 || request.method !== "PUT" || upload === undefined ||
        !Number.isInteger(part) || part < 1 || part > upload.totalParts ||
        url.searchParams.get("sig") !== upload.signature
      ) {
        return respond(request, 403, errorBody("forbidden", "Not a valid part URL"))
      }
      if (upload.completed) return respond(request, 409, errorBody("upload_complete", "The upload is complete"))
      const step = partQueues.get(part)?.shift()
      if (step?._tag === "ResetMidPart") {
        const { length } = UploadProtocol.partRange(upload.size, upload.partSize, part)
        yield* bodyBytes(request, Math.ceil(length / 2))
        return yield* reset(request, "ECONNRESET")
      }
      const fault = step?.fault
      switch (fault?._tag) {
        case "ResetBeforeSend":
          return yield* reset(request, "ECONNREFUSED")
        case "ServerError":
          return respond(request, fault.status ?? 503, "<html><body><h1>Service Unavailable</h1></body></html>")
        case "Raw":
          return new FakeResponse(
            request,
            fault.response.status,
            { ...fault.response.headers },
            fault.response.body === undefined ? [] : [
              typeof fault.response.body === "string" ? textEncoder.encode(fault.response.body) : fault.response.body
            ],
            undefined
          )
      }
      const bytes = yield* bodyBytes(request)
      switch (fault?._tag) {
        case "ResetAfterSend":
          store(request, upload, part, bytes)
          return yield* reset(request, "ECONNRESET")
        case "SlowBody":
          return store(request, upload, part, bytes, Duration.toMillis(Duration.decode(fault.delay)))
        case "InvalidBody":
        case "NotJson":
          store(request, upload, part, bytes)
          return fault._tag === "InvalidBody"
            ? respond(request, 200, { success: "yes" })
            : new FakeResponse(request, 200, { "content-type": "application/json" }, [notJson], undefined)
      }
      return store(request, upload, part, bytes)
    })

  const handle = (
    request: HttpClientRequest.HttpClientRequest,
    url: URL,
    now: number
  ): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.RequestError> =>
    Effect.gen(function*() {
      const isPart = url.origin === storageOrigin
      const text = isPart ? "" : textDecoder.decode(yield* bodyBytes(request))
      deps.record({
        method: request.method,
        url: url.toString(),
        path: url.pathname,
        headers: request.headers,
        body: text === "" ? undefined : Either.getOrElse(Either.try(() => JSON.parse(text) as unknown), () => text),
        at: now
      })
      if (isPart) return yield* putPart(request, url)
      const denied = deps.authenticate(request)
      if (denied !== undefined) return denied
      const path = url.href.slice(base.length).split("?")[0]!
      if (path === "/init" && request.method === "POST") return init(request, text)
      const [, uploadId, action, ...rest] = path.split("/")
      if (action === "url" && rest.length === 0 && request.method === "GET") {
        return finish(request, decodeURIComponent(uploadId ?? ""))
      }
      return respond(request, 404, errorBody("not_found", `No route for ${request.method} ${url.pathname}`))
    })

  return {
    baseUrl: base,
    /** Whether a request is for the upload API or the storage host. */
    owns: (url: URL): boolean => url.origin === storageOrigin || url.href.startsWith(`${base}/`),
    handle,
    enqueuePart: (part: number, ...steps: ReadonlyArray<FakeServer.PartStep>) =>
      Effect.sync(() => {
        const queue = partQueues.get(part)
        if (queue === undefined) partQueues.set(part, [...steps])
        else queue.push(...steps)
      }),
    uploads: Effect.sync((): ReadonlyArray<FakeServer.FakeUpload> =>
      Array.from(uploads.values(), (upload) => {
        const bytes = new Uint8Array(upload.size)
        for (const [part, chunk] of upload.parts) bytes.set(chunk, (part - 1) * upload.partSize)
        return {
          uploadId: upload.uploadId,
          size: upload.size,
          partSize: upload.partSize,
          totalParts: upload.totalParts,
          received: [...upload.parts.keys()].sort((a, b) => a - b),
          completed: upload.completed,
          bytes
        }
      })
    )
  }
}
