/** Core's chunked `UploadProtocol` in the fake: `init`, keyless part `PUT`s (faults per part), then `url`. */
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Media from "@pdf-transform/core/Media"
import * as UploadProtocol from "@pdf-transform/core/UploadProtocol"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as FakeServer from "../FakeServer.js"
import { bodyBytes } from "./requestBody.js"
import { FakeResponse } from "./response.js"
import { decodeSegment } from "./segment.js"

export const defaultPartSize = 5 * 1024 * 1024

export const storageOrigin = "https://storage.fake.pdf-transform.test"

export interface Deps {
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

/** What the routes share: the fake's hooks, the uploads by id, the scripted part steps. */
interface State {
  readonly deps: Deps
  readonly base: string
  readonly partSize: number
  readonly uploads: Map<string, UploadRecord>
  readonly partQueues: Map<number, Array<FakeServer.PartStep>>
  /** Uploads started so far: numbers the next one's id and signature. */
  counter: number
}

/** The answer of `init` or `url`, in the `{data}` envelope unless the options turn it off. */
const envelope = <A>(state: State, data: A) => state.deps.options.envelope === false ? data : { data }

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

/** A new upload of `size` bytes, numbered after the last one. */
const start = (state: State, size: number): UploadRecord => {
  state.counter++
  const upload: UploadRecord = {
    uploadId: `upload-${state.counter}`,
    size,
    partSize: state.partSize,
    totalParts: UploadProtocol.partCount(size, state.partSize),
    signature: (Math.imul(state.counter, 2246822519) >>> 0).toString(16).padStart(8, "0"),
    parts: new Map(),
    completed: false
  }
  state.uploads.set(upload.uploadId, upload)
  return upload
}

/** `POST {uploadBase}/init`: starts an upload, or describes the one named by `upload_id`. */
const init = (state: State, request: HttpClientRequest.HttpClientRequest, text: string): FakeResponse => {
  const body = decodeInit(text)
  if (Either.isLeft(body)) {
    return respond(request, 400, errorBody("invalid_request", ParseResult.TreeFormatter.formatErrorSync(body.left)))
  }
  const { file_extension, size, upload_id } = body.right
  if (file_extension.replace(/^\./, "").toLowerCase() !== "pdf") {
    return respond(request, 400, errorBody("invalid_request", `Only PDF files are accepted, not ${file_extension}`))
  }
  const maxBytes = state.deps.options.maxBytes
  if (maxBytes !== undefined && size > maxBytes) {
    const message = `An upload may hold at most ${maxBytes} bytes, not ${size}`
    return respond(request, 413, errorBody("upload_too_large", message, { max_bytes: maxBytes }))
  }
  if (upload_id === undefined) return respond(request, 200, envelope(state, describe(start(state, size))))
  const upload = state.uploads.get(upload_id)
  if (upload === undefined) return respond(request, 404, errorBody("not_found", "Unknown upload"))
  if (upload.completed || upload.size !== size) {
    return respond(request, 409, errorBody("conflict", "The upload is complete or has another size"))
  }
  return respond(request, 200, envelope(state, describe(upload)))
}

/** `GET {uploadBase}/{upload_id}/url`: the `cache://` URL once every part is there. */
const finish = (state: State, request: HttpClientRequest.HttpClientRequest, uploadId: string): FakeResponse => {
  const upload = state.uploads.get(uploadId)
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
  return respond(request, 200, envelope(state, { url: UploadProtocol.cacheUrl(uploadId) }))
}

/** Stores a part as the reference server does: exact size, replacing an earlier copy, part 1 only if a PDF. */
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
  if (part === 1 && !Media.looksLikePdf(bytes)) {
    return respond(request, 400, errorBody("invalid_part", "Part 1 does not start with %PDF-: the file is not a PDF"))
  }
  upload.parts.set(part, bytes)
  return respond(request, 200, { data: { part_number: part, size: length } }, { delayMs })
}

/** The upload and part number a presigned part URL names, when it is one this fake wrote. */
const partTarget = (
  state: State,
  request: HttpClientRequest.HttpClientRequest,
  url: URL
): { readonly upload: UploadRecord; readonly part: number } | undefined => {
  const [, kind, uploadId, partText, ...rest] = url.pathname.split("/")
  const upload = state.uploads.get(uploadId ?? "")
  const part = Number(partText)
  return kind !== "parts" || rest.length > 0 || request.method !== "PUT" || upload === undefined ||
      !Number.isInteger(part) || part < 1 || part > upload.totalParts ||
      url.searchParams.get("sig") !== upload.signature
    ? undefined
    : { upload, part }
}

/** `PUT` on the storage host: the part's next scripted step, else the part stored. */
const putPart = (state: State, request: HttpClientRequest.HttpClientRequest, url: URL) =>
  Effect.gen(function*() {
    const target = partTarget(state, request, url)
    if (target === undefined) return respond(request, 403, errorBody("forbidden", "Not a valid part URL"))
    const { part, upload } = target
    if (upload.completed) return respond(request, 409, errorBody("upload_complete", "The upload is complete"))
    const step = state.partQueues.get(part)?.shift()
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

/** Records the request, then routes it: a part to the storage host, `init` and `url` behind the key. */
const handle = (
  state: State,
  request: HttpClientRequest.HttpClientRequest,
  url: URL,
  now: number
): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.RequestError> =>
  Effect.gen(function*() {
    const isPart = url.origin === storageOrigin
    const text = isPart ? "" : textDecoder.decode(yield* bodyBytes(request))
    state.deps.record({
      method: request.method,
      url: url.toString(),
      path: url.pathname,
      headers: request.headers,
      body: text === "" ? undefined : Either.getOrElse(Either.try(() => JSON.parse(text) as unknown), () => text),
      at: now
    })
    if (isPart) return yield* putPart(state, request, url)
    const denied = state.deps.authenticate(request)
    if (denied !== undefined) return denied
    const path = url.href.slice(state.base.length).split("?")[0]!
    if (path === "/init" && request.method === "POST") return init(state, request, text)
    const [, uploadId, action, ...rest] = path.split("/")
    if (action === "url" && rest.length === 0 && request.method === "GET") {
      return finish(state, request, decodeSegment(uploadId) ?? "")
    }
    return respond(request, 404, errorBody("not_found", `No route for ${request.method} ${url.pathname}`))
  })

const enqueuePart = (state: State, part: number, steps: ReadonlyArray<FakeServer.PartStep>): void => {
  const queue = state.partQueues.get(part)
  if (queue === undefined) state.partQueues.set(part, [...steps])
  else queue.push(...steps)
}

/** The uploads as `FakeServer.uploads` shows them, each file assembled from its parts. */
const snapshot = (state: State): ReadonlyArray<FakeServer.FakeUpload> =>
  Array.from(state.uploads.values(), (upload) => {
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

export const make = (deps: Deps) => {
  const state: State = {
    deps,
    base: deps.baseUrl.replace(/\/+$/, ""),
    partSize: deps.options.partSize ?? defaultPartSize,
    uploads: new Map(),
    partQueues: new Map(),
    counter: 0
  }
  return {
    baseUrl: state.base,
    /** Whether a request is for the upload API or the storage host. */
    owns: (url: URL): boolean => url.origin === storageOrigin || url.href.startsWith(`${state.base}/`),
    handle: (request: HttpClientRequest.HttpClientRequest, url: URL, now: number) => handle(state, request, url, now),
    enqueuePart: (part: number, ...steps: ReadonlyArray<FakeServer.PartStep>) =>
      Effect.sync(() => enqueuePart(state, part, steps)),
    uploads: Effect.sync(() => snapshot(state))
  }
}
