/**
 * The contract's operations: submit (limiter, task creation), result (the three states, a fresh
 * signed download URL with every completed poll) and the signed download itself.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Contract from "@pdf-transform/core/Contract"
import * as Media from "@pdf-transform/core/Media"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Crypto from "node:crypto"
import type { AppContext } from "./context.js"
import { runConversion } from "./conversion.js"
import { contentDisposition, sanitizeFilename } from "./disposition.js"
import { fail, HttpFailure, jsonResponse, readBody } from "./http.js"
import type * as Limiter from "./limiter.js"
import { signedUrl, verifySigned } from "./signedUrls.js"
import { resolveSource } from "./source.js"
import { parseSubmitBody } from "./submitBody.js"
import type { TaskRecord } from "./taskStore.js"

const encodeSubmitted = Schema.encodeSync(Contract.SubmittedTask)
const encodeStatus = Schema.encodeSync(Contract.TaskStatus)
const encodeNotFound = Schema.encodeSync(Contract.NotFoundBody)
const encodeRateLimited = Schema.encodeSync(Contract.RateLimitedBody)

const rateLimitHeaders = (headers: Limiter.RateLimitHeaders | undefined): Record<string, string> =>
  headers === undefined ? {} : { "ratelimit-policy": headers["ratelimit-policy"], ratelimit: headers.ratelimit }

/** The contract's 404 of the result operation. */
export const taskNotFound = (): HttpFailure =>
  new HttpFailure({
    status: 404,
    body: encodeNotFound({ success: false, state: "not_found", error: "Unknown or expired task id" })
  })

const rateLimited = (decision: Extract<Limiter.Decision, { _tag: "Rejected" }>) =>
  jsonResponse(
    429,
    encodeRateLimited({ error: "rate_limited", reason: decision.reason, retryAfterMs: decision.retryAfterMs }),
    { "retry-after": String(Math.ceil(decision.retryAfterMs / 1000)), ...rateLimitHeaders(decision.headers) }
  )

export const submit = (context: AppContext, format: Contract.Format) =>
  Effect.gen(function*() {
    const key = yield* context.authenticate
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.flatten(Effect.map(readBody(context.options.maxJsonBodyBytes), parseSubmitBody))
    const now = yield* Clock.currentTimeMillis
    context.tasks.sweepIfDue(now)
    context.files.sweepIfDue(now)
    const source = yield* resolveSource(context, body.pdfURL, key, request.headers["host"], now)
    if (!context.tasks.hasRoom(now)) {
      return yield* fail(503, "server_busy", "Too many tasks are in progress on this server; retry later", {
        headers: { "retry-after": "5" }
      })
    }
    const decision = yield* context.limiter.acquire(key.id)
    if (decision._tag === "Rejected") {
      yield* Effect.logInfo("submit rate limited").pipe(Effect.annotateLogs({ key: key.id, reason: decision.reason }))
      return rateLimited(decision)
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
    context.tasks.insert(task)
    context.runInBackground(runConversion(context, task, source, body, key))
    yield* Effect.logInfo("task submitted").pipe(
      Effect.annotateLogs({ taskId: task.id, format, key: key.id, source: source._tag })
    )
    return jsonResponse(
      200,
      encodeSubmitted({ success: true, sessionID: Contract.SessionId.make(task.id) }),
      rateLimitHeaders(decision.headers)
    )
  })

const statusOf = (context: AppContext, task: TaskRecord, now: number): Contract.TaskStatus => {
  switch (task.state) {
    case "processing":
      return { success: true, state: "processing", progress: task.progress }
    case "failed":
      return { success: false, state: "failed", progress: task.progress, error: task.error ?? "failed" }
    case "completed": {
      const expiresAt = Math.min(now + context.options.downloadUrlTtlMs, task.expiresAt)
      const path = `/v1/downloads/${encodeURIComponent(task.id)}`
      const downloadURL = signedUrl(context, "download", path, task.id, expiresAt)
      return { success: true, state: "completed", progress: 100, data: { downloadURL } }
    }
  }
}

export const result = (context: AppContext, format: Contract.Format) =>
  Effect.gen(function*() {
    const key = yield* context.authenticate
    const params = yield* HttpRouter.params
    const now = yield* Clock.currentTimeMillis
    context.tasks.sweepIfDue(now)
    const task = context.tasks.get(params["taskId"] ?? "", now)
    // A task of another format or another key is as unknown as a missing one.
    if (task === undefined || task.format !== format || task.owner !== key.id) return yield* taskNotFound()
    return jsonResponse(200, encodeStatus(statusOf(context, task, now)))
  })

export const download = (context: AppContext) =>
  Effect.gen(function*() {
    const params = yield* HttpRouter.params
    const taskId = params["taskId"] ?? ""
    const now = yield* verifySigned(context, "download", taskId)
    const task = context.tasks.get(taskId, now)
    if (task === undefined || task.state !== "completed" || task.output === undefined) {
      return yield* fail(404, "not_found", "The output no longer exists")
    }
    const name = `${sanitizeFilename(task.filename, "document")}${Media.extension(task.format)}`
    return HttpServerResponse.uint8Array(task.output, {
      status: 200,
      contentType: Media.contentType(task.format),
      headers: {
        "content-disposition": contentDisposition(name),
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff"
      }
    })
  })
