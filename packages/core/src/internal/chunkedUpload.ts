/** The chunked upload protocol, client side: `init`, the missing parts in parallel, `url`. */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import type * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { PdfUrl } from "../Contract.js"
import { InvalidResponse } from "../PdfTransformError.js"
import * as Retry from "../Retry.js"
import * as Uploader from "../Uploader.js"
import * as Protocol from "../UploadProtocol.js"
import * as Exchange from "./exchange.js"
import { type ReadFailure, resolve, type Source } from "./uploadSource.js"

export interface Settings {
  readonly apiKey: Redacted.Redacted<string>
  readonly uploadBaseUrl: string
  readonly concurrency: number
  readonly retry: Schedule.Schedule<unknown, unknown>
  readonly requestTimeout: Duration.Duration
  readonly maxBytes: number | undefined
}

/** Why one attempt of a request failed, and whether another attempt may succeed. */
interface AttemptFailure {
  readonly transient: boolean
  readonly reason: string
  readonly status?: number | undefined
  readonly bodyExcerpt?: string | undefined
  readonly read?: boolean | undefined
  readonly cause?: unknown
}

const isTransientStatus = Retry.isTransientStatus

const fromStatus = (answer: Exchange.Answer): AttemptFailure => ({
  transient: isTransientStatus(answer.status),
  reason: `HTTP ${answer.status}`,
  status: answer.status,
  bodyExcerpt: Exchange.excerpt(answer.text)
})

/** A failure with no answer: every transport failure may pass on a new attempt, a malformed request never. */
const fromExchange = (failure: Exchange.Failure): AttemptFailure =>
  failure._tag === "Malformed"
    ? { transient: false, reason: failure.reason }
    : { transient: true, reason: failure.reason, cause: failure.cause }

/** The answers of `init` and `url`, in their `data` envelope or not. */
const InitBody = Schema.Union(Schema.Struct({ data: Protocol.InitAnswer }), Protocol.InitAnswer)
const UrlBody = Schema.Union(Schema.Struct({ data: Schema.Struct({ url: PdfUrl }) }), Schema.Struct({ url: PdfUrl }))
const InitJson = Schema.parseJson(InitBody)
const UrlJson = Schema.parseJson(UrlBody)
const decodeTooLarge = Schema.decodeUnknownEither(Schema.parseJson(Protocol.TooLarge))
const decodeIncomplete = Schema.decodeUnknownEither(Schema.parseJson(Protocol.IncompleteUpload))

const unwrap = <A>(body: A | { readonly data: A }): A =>
  typeof body === "object" && body !== null && "data" in body ? body.data : body

/** What `init` said, checked: every part still missing has a URL, and the parts cover the file. */
interface Plan {
  readonly uploadId: string
  readonly partSize: number
  readonly missing: ReadonlyArray<{ readonly part: number; readonly url: string }>
  readonly received: number
}

const planOf = (
  settings: Settings,
  file: Source,
  answer: Exchange.Answer,
  init: Protocol.InitAnswer
): Either.Either<Plan, InvalidResponse> => {
  const invalid = (problem: string) =>
    Either.left(
      new InvalidResponse({
        operation: "upload",
        status: answer.status,
        problem,
        bodyExcerpt: Exchange.excerpt(answer.text)
      })
    )
  const parts = Protocol.partCount(file.size, init.part_size)
  if (init.total_parts !== undefined && init.total_parts !== parts) {
    return invalid(`total_parts ${init.total_parts} does not cut ${file.size} bytes in parts of ${init.part_size}`)
  }
  const uploaded = new Set(init.uploaded_parts)
  const missing: Array<{ readonly part: number; readonly url: string }> = []
  let received = 0
  for (let part = 1; part <= parts; part++) {
    const { length } = Protocol.partRange(file.size, init.part_size, part)
    if (uploaded.has(part)) {
      received += length
      continue
    }
    const url = init.presigned_urls[String(part)]
    if (url === undefined || !URL.canParse(url, settings.uploadBaseUrl)) {
      return invalid(`no usable URL for part ${part}`)
    }
    missing.push({ part, url: new URL(url, settings.uploadBaseUrl).href })
  }
  return Either.right({ uploadId: init.upload_id, partSize: init.part_size, missing, received })
}

/** Parts larger than this are read into fresh chunks rather than a buffer kept per part in flight. */
const maxBufferedPartBytes = 16 * 1024 * 1024

/** One buffer per part in flight, reused by the next part: nothing allocated per chunk. */
const partBuffers = (partSize: number) => {
  const free: Array<Uint8Array> = []
  return {
    take: Effect.sync(() => partSize > maxBufferedPartBytes ? undefined : free.pop() ?? new Uint8Array(partSize)),
    give: (buffer: Uint8Array | undefined) => Effect.sync(() => void (buffer && free.push(buffer)))
  }
}

/** One request and its whole answer, within the request timeout. */
type Send = (request: HttpClientRequest.HttpClientRequest) => Effect.Effect<Exchange.Answer, Exchange.Failure>

/** What the steps of an upload share. */
interface Context {
  readonly settings: Settings
  /** The upload base, without a trailing slash. */
  readonly base: string
  /** For `init` and `url`: the key and `Accept: application/json` on every request. */
  readonly api: Send
  /** For parts: no key, and no platform span (it records `url.full`, and a presigned URL is a credential). */
  readonly storage: Send
  /** The known upload limit: given, or learnt from a 413, so that later files over it fail before any request. */
  readonly maxBytes: Ref.Ref<number | undefined>
}

/** Runs `attempt` until it succeeds, fails for good, or the schedule ends; counts the attempts. */
const retried = <A>(ctx: Context, attempt: Effect.Effect<A, AttemptFailure>) =>
  Effect.suspend(() => {
    let attempts = 0
    return Effect.retry(Effect.suspend(() => (attempts++, attempt)), {
      schedule: ctx.settings.retry,
      while: (failure) => failure.transient
    }).pipe(Effect.mapError((failure) => ({ failure, attempts })))
  })

/** The `UploadFailed` of a step whose attempts are spent. */
const failed = (
  name: string,
  step: Uploader.UploadStep,
  extra: { readonly part?: number; readonly uploadId?: string }
) =>
({ attempts, failure }: { readonly failure: AttemptFailure; readonly attempts: number }) =>
  new Uploader.UploadFailed({
    name,
    step: failure.read ? "read" : step,
    reason: failure.reason,
    attempts,
    ...extra,
    ...(failure.status === undefined ? {} : { status: failure.status }),
    ...(failure.bodyExcerpt === undefined ? {} : { bodyExcerpt: failure.bodyExcerpt }),
    ...(failure.cause === undefined ? {} : { cause: failure.cause })
  })

/** One exchange with the upload API; 2xx answers, 401 and `final` statuses are handed back. */
const call = (ctx: Context, request: HttpClientRequest.HttpClientRequest, final: (status: number) => boolean) =>
  Effect.flatMap(
    Effect.mapError(ctx.api(request), fromExchange),
    (answer) =>
      (answer.status >= 200 && answer.status < 300) || answer.status === 401 || final(answer.status)
        ? Effect.succeed(answer)
        : Effect.fail(fromStatus(answer))
  )

const tooLarge = (file: Source, maxBytes: number | undefined) =>
  new Uploader.UploadTooLarge({ name: file.name, bytes: file.size, ...(maxBytes === undefined ? {} : { maxBytes }) })

const init = (ctx: Context, file: Source, resume: string | undefined): Effect.Effect<Plan, Uploader.UploadError> =>
  Effect.gen(function*() {
    const body: Protocol.InitRequest = {
      file_extension: ".pdf",
      size: file.size,
      ...(resume ? { upload_id: resume } : {})
    }
    const request = HttpClientRequest.post(`${ctx.base}/init`).pipe(HttpClientRequest.bodyUnsafeJson(body))
    const answer = yield* Effect.mapError(
      retried(ctx, call(ctx, request, (status) => status === 413)),
      failed(file.name, "init", resume === undefined ? {} : { uploadId: resume })
    )
    if (answer.status === 401) return yield* Exchange.unauthenticated("upload", answer)
    if (answer.status === 413) {
      const limit = Either.getOrUndefined(decodeTooLarge(answer.text))?.max_bytes
      if (limit !== undefined) yield* Ref.set(ctx.maxBytes, limit)
      return yield* tooLarge(file, limit)
    }
    return yield* Exchange.decode(InitJson, "upload", answer).pipe(
      Either.flatMap((body) => planOf(ctx.settings, file, answer, unwrap(body)))
    )
  })

const sendPart = (
  ctx: Context,
  file: Source,
  plan: Plan,
  part: { readonly part: number; readonly url: string },
  progress: (delta: number) => Effect.Effect<void>,
  buffer: Uint8Array | undefined
) => {
  const { length, offset } = Protocol.partRange(file.size, plan.partSize, part.part)
  const attempt = Effect.gen(function*() {
    // The body is read by the HTTP client's fiber; what it counted and why it failed come back here.
    const sent = yield* Ref.make(0)
    const readFailure = yield* Ref.make<ReadFailure | undefined>(undefined)
    // A retry reads the same bytes into the same buffer, so a write still in flight sends the same.
    const body = file.read(offset, length, buffer).pipe(
      Stream.tap((chunk) => Effect.zipRight(Ref.update(sent, (n) => n + chunk.byteLength), progress(chunk.byteLength))),
      Stream.tapError((error) => Ref.set(readFailure, error))
    )
    const request = HttpClientRequest.put(part.url).pipe(
      HttpClientRequest.bodyStream(body, { contentType: "application/octet-stream", contentLength: length })
    )
    // `storage`, not `api`: a presigned URL is its own credential, and the key must never reach it.
    return yield* Effect.flatMap(
      Effect.mapError(ctx.storage(request), fromExchange),
      (answer): Effect.Effect<void, AttemptFailure> =>
        answer.status >= 200 && answer.status < 300 ? Effect.void : Effect.fail(fromStatus(answer))
    ).pipe(
      Effect.catchAll((failure) =>
        Effect.flatMap(Ref.get(readFailure), (read) =>
          Effect.fail<AttemptFailure>(
            read === undefined ? failure : { transient: false, reason: read.message, read: true }
          ))
      ),
      // What this attempt counted is sent again by the next one.
      Effect.tapError(() => Effect.flatMap(Ref.get(sent), (n) => progress(-n)))
    )
  })
  return retried(ctx, attempt).pipe(
    Effect.mapError(failed(file.name, "part", { part: part.part, uploadId: plan.uploadId })),
    Effect.withSpan("ChunkedUploader.part", { attributes: { part: part.part, bytes: length } })
  )
}

const finish = (ctx: Context, file: Source, plan: Plan): Effect.Effect<string, Uploader.UploadError> =>
  Effect.gen(function*() {
    const request = HttpClientRequest.get(`${ctx.base}/${encodeURIComponent(plan.uploadId)}/url`)
    const answer = yield* Effect.mapError(
      retried(ctx, call(ctx, request, (status) => status === 409)),
      failed(file.name, "url", { uploadId: plan.uploadId })
    )
    if (answer.status === 401) return yield* Exchange.unauthenticated("upload", answer)
    if (answer.status === 409) {
      const incomplete = Either.getOrUndefined(decodeIncomplete(answer.text))
      return yield* new Uploader.UploadFailed({
        name: file.name,
        step: "url",
        status: 409,
        bodyExcerpt: Exchange.excerpt(answer.text),
        reason: incomplete === undefined
          ? "the server reports the upload incomplete"
          : `the server reports parts ${incomplete.missing_parts.join(", ")} missing`,
        attempts: 1,
        uploadId: plan.uploadId
      })
    }
    return unwrap(yield* Exchange.decode(UrlJson, "upload", answer)).url
  })

/** The upload function of `Uploader.make`, over one client and file system. */
export const make = (settings: Settings, client: HttpClient.HttpClient, fs: FileSystem.FileSystem) => {
  const ctx: Context = {
    settings,
    base: settings.uploadBaseUrl.replace(/\/+$/, ""),
    api: Exchange.send(
      client.pipe(
        HttpClient.mapRequest((request) =>
          request.pipe(HttpClientRequest.bearerToken(settings.apiKey), HttpClientRequest.acceptJson)
        )
      ),
      settings.requestTimeout
    ),
    storage: Exchange.send(HttpClient.withTracerDisabledWhen(client, () => true), settings.requestTimeout),
    maxBytes: Ref.unsafeMake(settings.maxBytes)
  }
  return (
    source: Uploader.UploadSource,
    report: (progress: Uploader.Progress) => Effect.Effect<void>
  ): Effect.Effect<Uploader.Uploaded, Uploader.UploadError> =>
    Effect.gen(function*() {
      const file = yield* resolve(fs, source)
      yield* Effect.annotateCurrentSpan({ name: file.name, bytes: file.size })
      const maxBytes = yield* Ref.get(ctx.maxBytes)
      if (maxBytes !== undefined && file.size > maxBytes) return yield* tooLarge(file, maxBytes)
      const plan = yield* init(ctx, file, source.resume)
      yield* Effect.annotateCurrentSpan({ uploadId: plan.uploadId, parts: plan.missing.length })
      // Parts go concurrently: each adds what it sends, and takes it back when it fails.
      const sent = yield* Ref.make(plan.received)
      const progress = (delta: number) =>
        Effect.flatMap(
          Ref.updateAndGet(sent, (n) => n + delta),
          (now) => report({ _tag: "Progress", sent: now, total: file.size })
        )
      yield* progress(0)
      const buffers = partBuffers(plan.partSize)
      yield* Effect.forEach(
        plan.missing,
        (part) =>
          Effect.acquireUseRelease(
            buffers.take,
            (buffer) => sendPart(ctx, file, plan, part, progress, buffer),
            buffers.give
          ),
        { concurrency: settings.concurrency, discard: true }
      )
      const url = yield* finish(ctx, file, plan)
      yield* Effect.logDebug("upload finished").pipe(
        Effect.annotateLogs({ name: file.name, uploadId: plan.uploadId, bytes: file.size })
      )
      return { _tag: "Uploaded" as const, url, bytes: file.size }
    }).pipe(Effect.withSpan("ChunkedUploader.upload"))
}
