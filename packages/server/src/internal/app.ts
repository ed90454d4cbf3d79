/**
 * The HTTP application of the reference server: routes, handlers, the task lifecycle and the
 * background conversions. Every answer is built here; nothing below knows about HTTP.
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Converter } from "@pdf-transform/converter/Converter"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import * as Contract from "@pdf-transform/core/Contract"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Crypto from "node:crypto"
import type { ResolvedTarget } from "./addresses.js"
import { fetchTarget, resolveTarget } from "./addresses.js"
import type { AuthResult, KeyIdentity } from "./auth.js"
import { makeKeyRing } from "./auth.js"
import { contentDisposition, sanitizeFilename } from "./disposition.js"
import * as Gate from "./gate.js"
import { fail, failureResponse, HttpFailure, jsonResponse, pathOf, queryOf, readBody } from "./http.js"
import * as Limiter from "./limiter.js"
import { openApiDocument } from "./openapi.js"
import type { ResolvedOptions } from "./options.js"
import { makeSigner } from "./signing.js"
import type { TaskRecord } from "./store.js"
import { FileStore, TaskStore } from "./store.js"

/**
 * The submit body as the server enforces it: core's `ConversionRequest` fields, with `model`
 * required as the contract says (core's Schema defaults it for callers), bounded strings, and
 * unknown keys ignored as the hosted service does.
 */
export const SubmitBody = Schema.Struct({
  ...Contract.ConversionRequest.fields,
  pdfURL: Contract.HttpUrl.pipe(Schema.maxLength(4096)),
  model: Contract.Model,
  filename: Schema.optional(Schema.String.pipe(Schema.maxLength(255)))
})

const decodeSubmitBody = Schema.decodeUnknownEither(SubmitBody, { errors: "all", onExcessProperty: "ignore" })
const encodeSubmitted = Schema.encodeSync(Contract.SubmittedTask)
const encodeStatus = Schema.encodeSync(Contract.TaskStatus)
const encodeNotFound = Schema.encodeSync(Contract.NotFoundBody)
const encodeUnauthenticated = Schema.encodeSync(Contract.UnauthenticatedBody)
const encodeRateLimited = Schema.encodeSync(Contract.RateLimitedBody)

const realm = "pdf-transform"

const contentTypes: Record<Contract.Format, string> = {
  markdown: "text/markdown; charset=utf-8",
  epub: "application/epub+zip"
}
const extensions: Record<Contract.Format, string> = { markdown: ".md", epub: ".epub" }

/** `%PDF-` within the first 1024 bytes, as PDF readers accept it. */
export const looksLikePdf = (bytes: Uint8Array): boolean =>
  Buffer.from(bytes.subarray(0, 1024 + 5)).includes("%PDF-", 0, "latin1")

type Source =
  | { readonly _tag: "Local"; readonly bytes: Uint8Array }
  | { readonly _tag: "Remote"; readonly target: ResolvedTarget }

const problemOf = (error: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((issue) => `${issue.path.length === 0 ? "body" : issue.path.join(".")}: ${issue.message}`)
    .join("; ")
    .slice(0, 2000)

/** Everything the application holds; exposed to tests through `makeApp`'s second result. */
export interface AppState {
  readonly tasks: TaskStore
  readonly files: FileStore
  readonly limiter: Limiter.Limiter
}

export const makeApp = (
  options: ResolvedOptions
): Effect.Effect<
  { readonly app: HttpApp.Default<never, never>; readonly state: AppState },
  never,
  ConverterModule.Converter | Scope.Scope
> =>
  Effect.gen(function*() {
    const converter = yield* Converter
    const keyRing = makeKeyRing(options.keys)
    const signer = makeSigner(options.signingKey)
    const limiter = Limiter.make(options.limiter)
    const tasks = new TaskStore({ maxEntries: options.maxTasks, maxBytes: options.maxStoredOutputBytes })
    const files = new FileStore({ maxEntries: options.uploads.maxFiles, maxBytes: options.uploads.maxTotalBytes })
    const conversions = Gate.make(options.maxConcurrentConversions)
    // Background conversions belong to the server's scope: closing it interrupts them.
    const runInBackground = yield* FiberSet.makeRuntime<never, void, never>()
    const publicBase = options.publicUrl.href.replace(/\/+$/, "")
    const publicPath = options.publicUrl.pathname.replace(/\/+$/, "")

    // --- authentication -----------------------------------------------------------------------

    const unauthenticated = (result: Exclude<AuthResult, { _tag: "Authenticated" }>): HttpFailure => {
      const message = result._tag === "Missing"
        ? "No API key was sent"
        : result._tag === "Malformed"
        ? "The Authorization header is malformed"
        : "The API key is not valid for this server"
      return new HttpFailure({
        status: 401,
        body: encodeUnauthenticated({
          error: "Unauthorized",
          code: "UNAUTHENTICATED",
          message,
          resolution:
            "Send the header 'Authorization: Bearer <API key>' with a key configured on this server (PDF_TRANSFORM_SERVER_KEYS)"
        }),
        headers: {
          "www-authenticate": `Bearer realm="${realm}", error="invalid_token", error_description="${message}"`
        }
      })
    }

    const authenticate: Effect.Effect<KeyIdentity, HttpFailure, HttpServerRequest.HttpServerRequest> = Effect.flatMap(
      HttpServerRequest.HttpServerRequest,
      (request) => {
        const result = keyRing.authenticate(request.headers["authorization"])
        return result._tag === "Authenticated" ? Effect.succeed(result.key) : Effect.fail(unauthenticated(result))
      }
    )

    // --- URLs -------------------------------------------------------------------------------------

    const signedUrl = (purpose: "download" | "file", path: string, id: string, expiresAtMs: number): string => {
      const expires = Math.floor(expiresAtMs / 1000)
      const signature = signer.sign(purpose, id, expires)
      return `${publicBase}${path}${encodeURIComponent(id)}?expires=${expires}&signature=${signature}`
    }

    /** The upload id a pdfURL names, when it points at this server's `/v1/files/`. */
    const ownFileId = (url: URL, requestHost: string | undefined): string | undefined => {
      const onPublicUrl = url.origin === options.publicUrl.origin && url.pathname.startsWith(`${publicPath}/v1/files/`)
      const onRequestHost = requestHost !== undefined && url.host === requestHost.toLowerCase() &&
        url.pathname.startsWith("/v1/files/")
      if (!onPublicUrl && !onRequestHost) return undefined
      const prefix = onPublicUrl ? `${publicPath}/v1/files/` : "/v1/files/"
      const encoded = url.pathname.slice(prefix.length)
      try {
        const id = decodeURIComponent(encoded)
        return id === "" || id.includes("/") ? "" : id
      } catch {
        return ""
      }
    }

    const resolveSource = (
      pdfURL: string,
      key: KeyIdentity,
      requestHost: string | undefined,
      now: number
    ): Effect.Effect<Source, HttpFailure> => {
      const url = new URL(pdfURL)
      const fileId = ownFileId(url, requestHost)
      if (fileId !== undefined) {
        const file = fileId === "" ? undefined : files.get(fileId, now)
        if (file === undefined || file.owner !== key.id) {
          return Effect.fail(
            fail(400, "invalid_request", "pdfURL names no upload of this server (unknown, expired or another key's)")
          )
        }
        return Effect.succeed({ _tag: "Local", bytes: file.bytes })
      }
      if (!options.remoteFetch.enabled) {
        return Effect.fail(
          fail(
            400,
            "invalid_request",
            "pdfURL must be a URL returned by POST /v1/files on this server (remote fetching is disabled)"
          )
        )
      }
      return resolveTarget(pdfURL, {
        resolve: options.remoteFetch.resolve,
        timeoutMs: options.remoteFetch.resolveTimeoutMs
      }).pipe(
        Effect.map((target): Source => ({ _tag: "Remote", target })),
        Effect.mapError((refused) => fail(400, "invalid_request", refused.reason))
      )
    }

    // --- the task lifecycle -------------------------------------------------------------------------

    const runConversion = (
      task: TaskRecord,
      source: Source,
      request: typeof SubmitBody.Type,
      key: KeyIdentity
    ): Effect.Effect<void> => {
      const onProgress = (progress: ConverterModule.Progress) =>
        Effect.sync(() => {
          if (progress.pagesTotal <= 0) return
          const percent = Math.floor((progress.pagesDone / progress.pagesTotal) * 100)
          // Never 100 before the output exists; never backwards for the poller.
          task.progress = Math.max(task.progress, Math.min(99, Math.max(0, percent)))
        })
      const convertOptions: ConverterModule.ConvertOptions = {
        ignorePdfErrors: request.ignore_pdf_errors,
        ignoreOcrErrors: request.ignore_ocr_errors,
        filename: request.filename,
        onProgress,
        timeout: options.conversionTimeoutMs
      }
      const fetchPdf: Effect.Effect<Uint8Array, { readonly message: string }> = source._tag === "Local"
        ? Effect.succeed(source.bytes)
        : fetchTarget(source.target, {
          maxBytes: options.remoteFetch.maxBytes,
          timeoutMs: options.remoteFetch.timeoutMs
        }).pipe(Effect.mapError((failure) => ({ message: failure.reason })))
      const convert = (pdf: Uint8Array): Effect.Effect<Uint8Array, { readonly message: string }> =>
        (task.format === "markdown"
          ? Effect.map(converter.toMarkdown(pdf, convertOptions), (c) => new TextEncoder().encode(c.output))
          : Effect.map(converter.toEpub(pdf, convertOptions), (c) => c.output)).pipe(
            // The converter has its own limit; this one also covers a converter that ignores it.
            Effect.timeoutFail({
              duration: options.conversionTimeoutMs + 1000,
              onTimeout: () => ({
                message: `Conversion did not finish within ${Math.round(options.conversionTimeoutMs / 1000)} s`
              })
            })
          )
      const finish = (outcome: { readonly output: Uint8Array } | { readonly error: string }) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync(() => tasks.finish(task, outcome, now + options.taskRetentionMs)))

      return fetchPdf.pipe(
        Effect.flatMap((pdf) =>
          conversions.withPermit(convert(pdf))
        ),
        Effect.matchCauseEffect({
          onSuccess: (output) =>
            Effect.zipRight(
              finish({ output }),
              Effect.logInfo("task completed").pipe(Effect.annotateLogs({ bytes: output.byteLength }))
            ),
          onFailure: (cause) => {
            if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
            const failure = Cause.failureOption(cause)
            const reason = failure._tag === "Some" && failure.value.message !== ""
              ? failure.value.message
              : "Internal conversion error"
            return Effect.zipRight(
              finish({ error: reason }),
              failure._tag === "Some"
                ? Effect.logInfo("task failed").pipe(Effect.annotateLogs({ reason }))
                : Effect.logError("task failed with a defect", cause)
            )
          }
        }),
        Effect.ensuring(limiter.release(key.id)),
        Effect.annotateLogs({ taskId: task.id, format: task.format, key: key.id }),
        Effect.catchAllCause(() => Effect.void)
      )
    }

    // --- handlers -----------------------------------------------------------------------------------

    const rateLimitHeaders = (headers: Limiter.RateLimitHeaders | undefined): Record<string, string> =>
      headers === undefined ? {} : { "ratelimit-policy": headers["ratelimit-policy"], ratelimit: headers.ratelimit }

    const submit = (format: Contract.Format) =>
      Effect.gen(function*() {
        const key = yield* authenticate
        const request = yield* HttpServerRequest.HttpServerRequest
        const raw = yield* readBody(options.maxJsonBodyBytes)
        let json: unknown
        try {
          json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw))
        } catch {
          return yield* fail(400, "invalid_json", "The request body is not valid UTF-8 JSON")
        }
        const decoded = decodeSubmitBody(json)
        if (decoded._tag === "Left") {
          return yield* fail(400, "invalid_request", problemOf(decoded.left))
        }
        const body = decoded.right
        const now = yield* Clock.currentTimeMillis
        tasks.sweepIfDue(now)
        files.sweepIfDue(now)
        const source = yield* resolveSource(body.pdfURL, key, request.headers["host"], now)
        if (!tasks.hasRoom(now)) {
          return yield* fail(503, "server_busy", "Too many tasks are in progress on this server; retry later", {
            headers: { "retry-after": "5" }
          })
        }
        const decision = yield* limiter.acquire(key.id)
        if (decision._tag === "Rejected") {
          yield* Effect.logInfo("submit rate limited").pipe(
            Effect.annotateLogs({ key: key.id, reason: decision.reason })
          )
          return jsonResponse(
            429,
            encodeRateLimited({ error: "rate_limited", reason: decision.reason, retryAfterMs: decision.retryAfterMs }),
            {
              "retry-after": String(Math.ceil(decision.retryAfterMs / 1000)),
              ...rateLimitHeaders(decision.headers)
            }
          )
        }
        const task: TaskRecord = {
          id: Crypto.randomUUID(),
          format,
          owner: key.id,
          filename: body.filename,
          createdAt: now,
          state: "processing",
          progress: 0,
          output: undefined,
          error: undefined,
          expiresAt: Number.POSITIVE_INFINITY
        }
        tasks.insert(task)
        runInBackground(runConversion(task, source, body, key))
        yield* Effect.logInfo("task submitted").pipe(
          Effect.annotateLogs({ taskId: task.id, format, key: key.id, source: source._tag })
        )
        return jsonResponse(
          200,
          encodeSubmitted({ success: true, sessionID: Contract.SessionId.make(task.id) }),
          rateLimitHeaders(decision.headers)
        )
      })

    const notFound = (detail: string) =>
      new HttpFailure({ status: 404, body: encodeNotFound({ success: false, state: "not_found", error: detail }) })

    const result = (format: Contract.Format) =>
      Effect.gen(function*() {
        const key = yield* authenticate
        const params = yield* HttpRouter.params
        const taskId = params["taskId"] ?? ""
        const now = yield* Clock.currentTimeMillis
        tasks.sweepIfDue(now)
        const task = tasks.get(taskId, now)
        // A task of another format or another key is as unknown as a missing one.
        if (task === undefined || task.format !== format || task.owner !== key.id) {
          return yield* notFound("Unknown or expired task id")
        }
        switch (task.state) {
          case "processing":
            return jsonResponse(200, encodeStatus({ success: true, state: "processing", progress: task.progress }))
          case "failed":
            return jsonResponse(
              200,
              encodeStatus({ success: false, state: "failed", progress: task.progress, error: task.error ?? "failed" })
            )
          case "completed": {
            const downloadURL = signedUrl(
              "download",
              "/v1/downloads/",
              task.id,
              Math.min(now + options.downloadUrlTtlMs, task.expiresAt)
            )
            return jsonResponse(
              200,
              encodeStatus({ success: true, state: "completed", progress: 100, data: { downloadURL } })
            )
          }
        }
      })

    const verifySignature = (purpose: "download" | "file", id: string) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const query = queryOf(request.url)
        const now = yield* Clock.currentTimeMillis
        const verdict = signer.verify(
          purpose,
          id,
          query.get("expires") ?? undefined,
          query.get("signature") ?? undefined,
          now
        )
        if (verdict === "invalid") {
          return yield* fail(403, "invalid_signature", "The URL signature is missing or does not match")
        }
        if (verdict === "expired") {
          return yield* fail(
            410,
            "expired",
            purpose === "download"
              ? "This download URL has expired; poll the result again for a fresh one"
              : "This file URL has expired"
          )
        }
        return now
      })

    const download = Effect.gen(function*() {
      const params = yield* HttpRouter.params
      const taskId = params["taskId"] ?? ""
      const now = yield* verifySignature("download", taskId)
      const task = tasks.get(taskId, now)
      if (task === undefined || task.state !== "completed" || task.output === undefined) {
        return yield* fail(404, "not_found", "The output no longer exists")
      }
      const name = `${sanitizeFilename(task.filename, "document")}${extensions[task.format]}`
      return HttpServerResponse.uint8Array(task.output, {
        status: 200,
        contentType: contentTypes[task.format],
        headers: {
          "content-disposition": contentDisposition(name),
          "cache-control": "private, no-store",
          "x-content-type-options": "nosniff"
        }
      })
    })

    const upload = Effect.gen(function*() {
      const key = yield* authenticate
      const bytes = yield* readBody(options.uploads.maxBytes)
      if (bytes.byteLength === 0) return yield* fail(400, "invalid_request", "The request body is empty")
      if (!looksLikePdf(bytes)) return yield* fail(400, "invalid_request", "The body is not a PDF (no %PDF- header)")
      const now = yield* Clock.currentTimeMillis
      const id = Crypto.randomUUID()
      const expiresAt = now + options.uploads.retentionMs
      if (!files.insert({ id, owner: key.id, bytes, createdAt: now, expiresAt }, now)) {
        return yield* fail(503, "storage_full", "The server's upload storage is full; retry later", {
          headers: { "retry-after": "60" }
        })
      }
      yield* Effect.logInfo("file uploaded").pipe(Effect.annotateLogs({ key: key.id, bytes: bytes.byteLength }))
      return jsonResponse(201, { url: signedUrl("file", "/v1/files/", id, expiresAt) })
    })

    const fetchFile = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = yield* HttpRouter.params
      const fileId = params["fileId"] ?? ""
      const signed = queryOf(request.url).has("signature")
      const now = yield* Clock.currentTimeMillis
      let owner: string | undefined
      if (signed) {
        yield* verifySignature("file", fileId)
      } else {
        owner = (yield* authenticate).id
      }
      const file = files.get(fileId, now)
      if (file === undefined || (owner !== undefined && file.owner !== owner)) {
        return yield* fail(404, "not_found", "Unknown or expired file")
      }
      return HttpServerResponse.uint8Array(file.bytes, {
        status: 200,
        contentType: "application/pdf",
        headers: { "cache-control": "private, no-store", "x-content-type-options": "nosniff" }
      })
    })

    const openApi = Effect.as(authenticate, jsonResponse(200, openApiDocument))

    const v1 = Contract.versionPrefix
    const resultRoute = (path: string) => `${v1}${path.replace("{taskId}", ":taskId")}` as `/${string}`
    const router = HttpRouter.empty.pipe(
      HttpRouter.post(`${v1}${Contract.paths.markdownSubmit}`, submit("markdown")),
      HttpRouter.post(`${v1}${Contract.paths.epubSubmit}`, submit("epub")),
      HttpRouter.get(resultRoute(Contract.paths.markdownResult), result("markdown")),
      HttpRouter.get(resultRoute(Contract.paths.epubResult), result("epub")),
      HttpRouter.post(`${v1}/files`, upload),
      HttpRouter.get(`${v1}/files/:fileId`, fetchFile),
      HttpRouter.get(`${v1}/downloads/:taskId`, download),
      HttpRouter.get(`${v1}/openapi.json`, openApi)
    )
    const routed = yield* HttpRouter.toHttpApp(router)
    const resultPrefix = /^\/v1\/pdf-transform-(markdown|epub)\/result\//

    const app: HttpApp.Default<never, never> = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = pathOf(request.url)
      // The router decodes the path with decodeURI, which throws on a malformed escape.
      try {
        decodeURIComponent(path)
      } catch {
        yield* authenticate
        return yield* fail(400, "invalid_request", "The request path is not valid percent-encoding")
      }
      if (path.length > 2048) {
        yield* authenticate
        return yield* fail(414, "uri_too_long", "The request path is too long")
      }
      return yield* routed
    }).pipe(
      Effect.catchTag("RouteNotFound", ({ request }) =>
        Effect.as(
          authenticate,
          // A task id the router cannot match (an encoded slash, too long) is an unknown task.
          resultPrefix.test(request.url)
            ? failureResponse(notFound("Unknown or expired task id"))
            : jsonResponse(404, { error: "not_found", message: "No such endpoint (see /v1/openapi.json)" })
        )),
      Effect.catchTag("HttpFailure", (failure) => Effect.succeed(failureResponse(failure))),
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause)
          : Effect.as(
            Effect.logError("request failed", cause),
            jsonResponse(500, { error: "internal_error", message: "The server failed to answer this request" })
          )
      ),
      Effect.catchAllCause(() => Effect.succeed(HttpServerResponse.empty({ status: 499 })))
    )

    return { app, state: { tasks, files, limiter } }
  })
