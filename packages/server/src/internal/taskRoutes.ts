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
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import * as Crypto from "node:crypto"
import type { AppContext } from "./context.js"
import { refuseWhileDraining } from "./context.js"
import { contentDisposition, sanitizeFilename } from "./disposition.js"
import { fail, HttpFailure, jsonResponse, readBody } from "./http.js"
import * as Limiter from "./limiter.js"
import { note } from "./observe.js"
import { signedUrl, verifySigned } from "./signedUrls.js"
import { resolveSource } from "./source.js"
import type { NewTask, Task } from "./store.js"
import { parseSubmitBody, SubmitBody } from "./submitBody.js"

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

const encodeRequest = Schema.encodeSync(Schema.parseJson(SubmitBody))

export const submit = (context: AppContext, format: Contract.Format) =>
  Effect.gen(function*() {
    const key = yield* context.authenticate
    yield* refuseWhileDraining(context, "submit")
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.flatten(Effect.map(readBody(context.options.maxJsonBodyBytes), parseSubmitBody))
    const now = yield* Clock.currentTimeMillis
    yield* context.store.sweepIfDue(now)
    const source = yield* resolveSource(context, body.pdfURL, key, request.headers["host"], now)
    const task: NewTask = {
      id: Crypto.randomUUID(),
      format,
      owner: key.id,
      filename: body.filename,
      createdAt: now,
      source,
      request: encodeRequest(body)
    }
    const decision = yield* context.store.createTask(
      task,
      now,
      (inFlight, state) => Limiter.decideStored(key.limiter, state, now, inFlight)
    )
    if (decision._tag === "Full") {
      return yield* fail(503, "server_busy", "Too many tasks are in progress on this server; retry later", {
        headers: { "retry-after": "5" }
      })
    }
    if (decision._tag === "Rejected") {
      yield* context.metrics.rateLimited(decision.reason)
      yield* Effect.logInfo("submit rate limited").pipe(Effect.annotateLogs({ key: key.id, reason: decision.reason }))
      return rateLimited(decision)
    }
    yield* note({ task: task.id })
    yield* context.metrics.submitted(format)
    yield* Queue.offer(context.wakeUps, undefined)
    yield* Effect.logInfo("task submitted").pipe(
      Effect.annotateLogs({ taskId: task.id, format, key: key.id, source: source._tag })
    )
    return jsonResponse(
      200,
      encodeSubmitted({ success: true, sessionID: Contract.SessionId.make(task.id) }),
      rateLimitHeaders(decision.headers)
    )
  })

const statusOf = (context: AppContext, task: Task, now: number): Contract.TaskStatus => {
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
    yield* context.store.sweepIfDue(now)
    const task = yield* context.store.task(params["taskId"] ?? "", now)
    // A task of another format or another key is as unknown as a missing one.
    if (Option.isNone(task) || task.value.format !== format || task.value.owner !== key.id) {
      return yield* taskNotFound()
    }
    return jsonResponse(200, encodeStatus(statusOf(context, task.value, now)))
  })

export const download = (context: AppContext) =>
  Effect.gen(function*() {
    const params = yield* HttpRouter.params
    const taskId = params["taskId"] ?? ""
    const now = yield* verifySigned(context, "download", taskId)
    const task = yield* context.store.task(taskId, now)
    const output = Option.isSome(task) && task.value.state === "completed"
      ? yield* context.store.output(taskId, now)
      : Option.none()
    if (Option.isNone(task) || Option.isNone(output)) {
      return yield* fail(404, "not_found", "The output no longer exists")
    }
    const name = `${sanitizeFilename(task.value.filename, "document")}${Media.extension(task.value.format)}`
    return HttpServerResponse.uint8Array(output.value, {
      status: 200,
      contentType: Media.contentType(task.value.format),
      headers: {
        "content-disposition": contentDisposition(name),
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff"
      }
    })
  })
