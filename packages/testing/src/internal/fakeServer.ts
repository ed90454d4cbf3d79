import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Contract from "@pdf-transform/core/Contract"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as FakeServer from "../FakeServer.js"
import { FakeResponse } from "./response.js"

/** Downloads are delivered in chunks of this size, like a socket would. */
const chunkSize = 64 * 1024

/** @internal */
export const defaultBaseUrl = "https://fake.pdf-transform.test/v1"

/** @internal */
export const defaultApiKey = "test-key"

/** @internal */
export const completedImmediately: FakeServer.Timeline = [{ after: 0, status: { state: "completed" } }]

/** A few fixed bytes: the start of a ZIP archive whose first entry is `mimetype`, like an EPUB. */
const epubBytes = new Uint8Array([
  0x50,
  0x4b,
  0x03,
  0x04,
  ...new TextEncoder().encode("mimetypeapplication/epub+zip")
])

const textEncoder = new TextEncoder()
const textDecoder = new TextDecoder()

const formats: ReadonlyArray<Contract.Format> = ["markdown", "epub"]

const contentTypes: Record<Contract.Format, string> = {
  markdown: "text/markdown; charset=utf-8",
  epub: "application/epub+zip"
}

/** Statuses whose responses cannot carry a body (fetch's Response refuses one). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304])

type ContractStep = FakeServer.ProcessingStep | FakeServer.CompletedStep | FakeServer.FailedStep | FakeServer.RawStep

interface Reply {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body?: string | Uint8Array | undefined
  /** How many bytes of the body are actually delivered, for truncated downloads. */
  readonly deliver?: number | undefined
}

type Outcome =
  | { readonly _tag: "Reply"; readonly reply: Reply; readonly slowMs?: number | undefined }
  | { readonly _tag: "Reset"; readonly code: "ECONNREFUSED" | "ECONNRESET" }

interface TimedStep {
  readonly atMs: number
  readonly status: FakeServer.StatusStep
}

interface TaskRecord {
  readonly task: FakeServer.FakeTask
  readonly steps: ReadonlyArray<TimedStep>
  readonly signature: string
  /** The output its `Accept` step gave, if any. */
  readonly output: FakeServer.Output | undefined
}

const reply = (r: Reply, slowMs?: number): Outcome =>
  slowMs === undefined ? { _tag: "Reply", reply: r } : {
    _tag: "Reply",
    reply: r,
    slowMs
  }

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body)
})

const errorJson = (status: number, error: string, message: string): Reply => json(status, { error, message })

const toTimedSteps = (timeline: FakeServer.Timeline): ReadonlyArray<TimedStep> =>
  timeline
    .map((step) => ({ atMs: Duration.toMillis(Duration.decode(step.after)), status: step.status }))
    // Array.prototype.sort is stable, so steps with the same `after` keep their order.
    .sort((a, b) => a.atMs - b.atMs)

const parseBodyText = (text: string): unknown => {
  if (text.length === 0) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const readBody = (
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<unknown, HttpClientError.RequestError> => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(undefined)
    case "Uint8Array":
      return Effect.succeed(parseBodyText(textDecoder.decode(body.body)))
    case "Raw":
      if (typeof body.body === "string") return Effect.succeed(parseBodyText(body.body))
      if (body.body instanceof Uint8Array) return Effect.succeed(parseBodyText(textDecoder.decode(body.body)))
      return Effect.succeed(body.body)
    case "FormData":
      return Effect.succeed(body.formData)
    case "Stream":
      return body.stream.pipe(
        Stream.runFold([] as Array<Uint8Array>, (chunks, chunk) => {
          chunks.push(chunk)
          return chunks
        }),
        Effect.map((chunks) => parseBodyText(Buffer.concat(chunks).toString("utf8"))),
        Effect.mapError((cause) =>
          new HttpClientError.RequestError({
            request,
            reason: "Encode",
            cause,
            description: "request body stream failed"
          })
        )
      )
  }
}

const connectionError = (code: "ECONNREFUSED" | "ECONNRESET"): Error =>
  Object.assign(new Error(code === "ECONNREFUSED" ? "connect ECONNREFUSED" : "read ECONNRESET"), { code })

const toResponse = (
  request: HttpClientRequest.HttpClientRequest,
  outcome: Extract<Outcome, { _tag: "Reply" }>
): FakeResponse => {
  const { body, headers, status } = outcome.reply
  const chunks: Array<Uint8Array> = []
  if (body !== undefined && !nullBodyStatuses.has(status)) {
    const bytes = typeof body === "string" ? textEncoder.encode(body) : body
    const deliver = Math.min(outcome.reply.deliver ?? bytes.length, bytes.length)
    for (let offset = 0; offset < deliver; offset += chunkSize) {
      chunks.push(bytes.subarray(offset, Math.min(offset + chunkSize, deliver)))
    }
  }
  // A slow body's delay runs on the reading fiber's Clock: a TestClock in tests decides when it arrives.
  return new FakeResponse(request, status, headers, chunks, outcome.slowMs)
}

const unauthenticated = (authorization: string | undefined): Reply =>
  json(
    401,
    Schema.encodeSync(Contract.UnauthenticatedBody)({
      error: "Unauthorized",
      code: "UNAUTHENTICATED",
      message: authorization === undefined ? "Missing API key" : "Invalid API key",
      resolution: "Send the header `Authorization: Bearer <API key>` with a key from the console"
    }),
    { "www-authenticate": "Bearer realm=\"pdf-transform\", error=\"invalid_token\"" }
  )

/** What a proxy in front of a failing server answers. */
const serverError = (status: number): Reply => {
  const title = `${status} ${status === 503 ? "Service Temporarily Unavailable" : "Server Error"}`
  return {
    status,
    headers: { "content-type": "text/html" },
    body: `<html><head><title>${title}</title></head><body><h1>${title}</h1><hr><center>nginx</center></body></html>`
  }
}

const rawReply = (response: FakeServer.RawResponse): Reply => ({
  status: response.status,
  headers: { ...response.headers },
  body: response.body
})

/**
 * The fault in place of the answer `handle` would give. `handle` runs only for faults that happen
 * after the server handled the request, so its side effects (a created task) happen then only.
 */
const withFault = (fault: FakeServer.Fault, handle: () => Reply): Outcome => {
  switch (fault._tag) {
    case "ResetBeforeSend":
      return { _tag: "Reset", code: "ECONNREFUSED" }
    case "ServerError":
      return reply(serverError(fault.status ?? 503))
    case "Raw":
      return reply(rawReply(fault.response))
    case "ResetAfterSend":
      handle()
      return { _tag: "Reset", code: "ECONNRESET" }
    case "SlowBody":
      return reply(handle(), Duration.toMillis(Duration.decode(fault.delay)))
    case "InvalidBody":
      handle()
      return reply(json(200, { success: "yes" }))
    case "NotJson":
      handle()
      return reply({ status: 200, headers: { "content-type": "application/json" }, body: "<html>oops" })
  }
}

const isBearer = /^bearer\s+/i

/** @internal */
export const make = (options: FakeServer.Options = {}): Effect.Effect<FakeServer.Service> =>
  Effect.sync(() => {
    const baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, "")
    const base = new URL(baseUrl)
    const origin = base.origin
    const basePath = base.pathname === "/" ? "" : base.pathname
    const apiKeys = new Set(options.apiKeys ?? [defaultApiKey])
    const recordRequests = options.recordRequests ?? true
    const apiKey = (options.apiKeys ?? [defaultApiKey])[0] ?? defaultApiKey
    const defaultSteps = toTimedSteps(options.defaultTimeline ?? completedImmediately)
    const acceptHeaders: Record<string, string> = {}
    if (options.rateLimitHeaders?.policy !== undefined) {
      acceptHeaders["ratelimit-policy"] = options.rateLimitHeaders.policy
    }
    if (options.rateLimitHeaders?.state !== undefined) acceptHeaders["ratelimit"] = options.rateLimitHeaders.state

    const requests: Array<FakeServer.RecordedRequest> = []
    const tasks = new Map<string, TaskRecord>()
    const submitQueue: Array<FakeServer.SubmitStep> = []
    let submitIndex = 0
    const resultQueues = new Map<string, Array<FakeServer.StatusStep>>()
    const downloadQueues = new Map<string, Array<FakeServer.DownloadStep>>()
    const pendingTimelines = new Map<string, FakeServer.Timeline>()
    let concurrencyLimit = options.concurrencyLimit
    /** Tasks that may still be in flight; pruned as their timelines reach a terminal step. */
    const live = new Set<string>()
    let taskCounter = 0
    let signatureCounter = 0

    const output = (record: TaskRecord): Uint8Array => {
      const given = record.output ??
        (typeof options.output === "function" ? options.output(record.task) : options.output)
      if (given === undefined) {
        return record.task.format === "markdown" ? textEncoder.encode(`# ${record.task.sessionId}\n`) : epubBytes
      }
      return typeof given === "string" ? textEncoder.encode(given) : given
    }

    const authenticate = (request: HttpClientRequest.HttpClientRequest): Reply | undefined => {
      const authorization = request.headers["authorization"]
      if (authorization === undefined) return unauthenticated(undefined)
      const key = isBearer.test(authorization) ? authorization.replace(isBearer, "") : authorization
      return apiKeys.has(key.trim()) ? undefined : unauthenticated(authorization)
    }

    const downloadURL = (format: Contract.Format, sessionId: string): string => {
      const signature = tasks.get(sessionId)?.signature ?? "unknown"
      return `${origin}/downloads/${format}/${encodeURIComponent(sessionId)}?sig=${signature}`
    }

    const createTask = (
      format: Contract.Format,
      body: unknown,
      now: number,
      step: FakeServer.SubmitStep | undefined
    ): string => {
      let sessionId = step?._tag === "Accept" ? step.sessionId : undefined
      if (sessionId === undefined) {
        do sessionId = `task-${++taskCounter}`
        while (tasks.has(sessionId))
      }
      const given = pendingTimelines.get(sessionId) ?? (step?._tag === "Accept" ? step.timeline : undefined)
      pendingTimelines.delete(sessionId)
      signatureCounter++
      tasks.set(sessionId, {
        task: {
          sessionId,
          format,
          request: body,
          createdAt: now,
          timeline: given ?? options.defaultTimeline ?? completedImmediately
        },
        steps: given === undefined ? defaultSteps : toTimedSteps(given),
        signature: (Math.imul(signatureCounter, 2654435761) >>> 0).toString(16).padStart(8, "0"),
        output: step?._tag === "Accept" ? step.output : undefined
      })
      return sessionId
    }

    const inFlightAt = (now: number): number => {
      let count = 0
      for (const sessionId of live) {
        const record = tasks.get(sessionId)
        const state = record === undefined ? "completed" : stepAt(record, now).underlying.state
        if (state === "completed" || state === "failed") live.delete(sessionId)
        else count++
      }
      return count
    }

    /** The answer headers of a submit: the configured ones, then the concurrency policy. */
    const submitHeaders = (inFlight: number): Record<string, string> => {
      if (concurrencyLimit === undefined) return acceptHeaders
      const join = (first: string | undefined, second: string) => first === undefined ? second : `${first}, ${second}`
      return {
        ...acceptHeaders,
        "ratelimit-policy": join(
          acceptHeaders["ratelimit-policy"],
          `"conc";q=${concurrencyLimit};qu="concurrent-requests"`
        ),
        "ratelimit": join(acceptHeaders["ratelimit"], `"conc";r=${Math.max(0, concurrencyLimit - inFlight)}`)
      }
    }

    const submit = (
      format: Contract.Format,
      request: HttpClientRequest.HttpClientRequest,
      body: unknown,
      now: number
    ): Outcome => {
      const step = submitQueue[submitIndex]
      const scripted = step !== undefined && step._tag !== "Accept"
      // An Accept step (or none) is subject to the concurrency limit; a refused one stays queued.
      if (scripted) submitIndex++
      const handle = (): Reply => {
        const denied = authenticate(request)
        if (denied) return denied
        const decoded = Schema.decodeUnknownEither(Contract.ConversionRequest)(body)
        if (Either.isLeft(decoded)) {
          return errorJson(400, "invalid_request", ParseResult.TreeFormatter.formatErrorSync(decoded.left))
        }
        if (step?._tag === "RateLimited") return rateLimited(step)
        const inFlight = inFlightAt(now)
        if (concurrencyLimit !== undefined && inFlight >= concurrencyLimit) {
          return json(429, { error: "rate_limited", reason: "concurrency_exceeded" }, submitHeaders(inFlight))
        }
        if (!scripted && step !== undefined) submitIndex++
        const sessionId = createTask(format, body, now, step)
        live.add(sessionId)
        return json(
          200,
          Schema.encodeSync(Contract.SubmittedTask)({ success: true, sessionID: Contract.SessionId.make(sessionId) }),
          submitHeaders(inFlight + 1)
        )
      }
      return step?._tag === "Fault" ? withFault(step.fault, handle) : reply(handle())
    }

    const renderStep = (format: Contract.Format, sessionId: string, step: ContractStep): Reply => {
      switch (step.state) {
        case "processing": {
          const status: Contract.ProcessingStatus = step.progress === undefined
            ? { success: true, state: "processing" }
            : { success: true, state: "processing", progress: step.progress }
          return json(step.httpStatus ?? 200, Schema.encodeSync(Contract.ProcessingStatus)(status))
        }
        case "completed":
          return json(
            200,
            Schema.encodeSync(Contract.CompletedStatus)({
              success: true,
              state: "completed",
              progress: step.progress ?? 100,
              data: { downloadURL: downloadURL(format, sessionId) }
            })
          )
        case "failed": {
          const status: Contract.FailedStatus = step.progress === undefined
            ? { success: false, state: "failed", error: step.error }
            : { success: false, state: "failed", error: step.error, progress: step.progress }
          return json(200, Schema.encodeSync(Contract.FailedStatus)(status))
        }
        case "raw":
          return rawReply(step.response)
      }
    }

    const notFound = (sessionId: string): Reply =>
      json(
        404,
        Schema.encodeSync(Contract.NotFoundBody)({
          success: false,
          state: "not_found",
          error: `Task ${sessionId} not found`
        })
      )

    /** The contract step at `now`: a fault in the timeline stands for the step it hides. */
    const stepAt = (
      record: TaskRecord,
      now: number
    ): { readonly current: FakeServer.StatusStep; readonly underlying: ContractStep } => {
      const elapsed = now - record.task.createdAt
      let current: FakeServer.StatusStep | undefined
      const steps = record.steps
      let i = steps.length - 1
      while (i >= 0 && steps[i]!.atMs > elapsed) i--
      for (; i >= 0; i--) {
        const status = steps[i]!.status
        if (current === undefined) current = status
        if (status.state !== "fault") return { current, underlying: status }
      }
      const processing: ContractStep = { state: "processing" }
      return { current: current ?? processing, underlying: processing }
    }

    const result = (
      format: Contract.Format,
      sessionId: string,
      request: HttpClientRequest.HttpClientRequest,
      now: number
    ): Outcome => {
      const override = resultQueues.get(sessionId)?.shift()
      const record = tasks.get(sessionId)
      const known = record !== undefined && record.task.format === format ? record : undefined
      const timelineReply = (): Reply =>
        authenticate(request) ??
          (known ? renderStep(format, sessionId, stepAt(known, now).underlying) : notFound(sessionId))
      if (override !== undefined) {
        if (override.state === "fault") return withFault(override.fault, timelineReply)
        return reply(authenticate(request) ?? renderStep(format, sessionId, override))
      }
      if (known !== undefined) {
        const { current } = stepAt(known, now)
        if (current.state === "fault") return withFault(current.fault, timelineReply)
      }
      return reply(timelineReply())
    }

    const download = (format: Contract.Format, sessionId: string, signature: string | null): Outcome => {
      const step = downloadQueues.get(sessionId)?.shift()
      const record = tasks.get(sessionId)
      const file = (truncate: boolean): Reply => {
        if (record === undefined || record.task.format !== format || record.signature !== signature) {
          return errorJson(404, "not_found", "No such download")
        }
        const bytes = output(record)
        return {
          status: 200,
          headers: {
            "content-type": contentTypes[format],
            // A truncated answer promises at least one byte more than it delivers.
            "content-length": String(truncate ? Math.max(bytes.length, 1) : bytes.length)
          },
          body: bytes,
          deliver: truncate ? Math.floor(bytes.length / 2) : bytes.length
        }
      }
      if (step === undefined) return reply(file(false))
      switch (step._tag) {
        case "Truncated":
          return reply(file(true))
        case "Expired":
          return reply(errorJson(410, "expired", "The download URL has expired"))
        case "Status":
          return reply({ status: step.status, headers: { "content-type": "text/plain" }, body: `HTTP ${step.status}` })
        case "Fault":
          return withFault(step.fault, () => file(false))
      }
    }

    const route = (
      request: HttpClientRequest.HttpClientRequest,
      url: URL,
      body: unknown,
      now: number
    ): Outcome => {
      if (url.origin !== origin) return reply(errorJson(404, "not_found", `Unknown host ${url.host}`))
      const path = url.pathname
      const noRoute = reply(errorJson(404, "not_found", `No route for ${request.method} ${path}`))
      if (path.startsWith("/downloads/")) {
        const [format, id, ...rest] = path.slice("/downloads/".length).split("/")
        const sessionId = id === undefined ? undefined : decode(id)
        if (request.method !== "GET" || rest.length > 0 || !isFormat(format) || !sessionId) return noRoute
        return download(format, sessionId, url.searchParams.get("sig"))
      }
      if (!path.startsWith(`${basePath}/pdf-transform-`)) return noRoute
      const [endpoint, action, id, ...rest] = path.slice(`${basePath}/pdf-transform-`.length).split("/")
      if (!isFormat(endpoint) || rest.length > 0) return noRoute
      if (action === "submit" && id === undefined && request.method === "POST") {
        return submit(endpoint, request, body, now)
      }
      const sessionId = id === undefined ? undefined : decode(id)
      if (action === "result" && sessionId && request.method === "GET") return result(endpoint, sessionId, request, now)
      return noRoute
    }

    const handle = (request: HttpClientRequest.HttpClientRequest) =>
      Effect.gen(function*() {
        const url = yield* Either.mapLeft(
          UrlParams.makeUrl(request.url, request.urlParams, request.hash),
          (cause) => new HttpClientError.RequestError({ request, reason: "InvalidUrl", cause })
        )
        const now = yield* Clock.currentTimeMillis
        const body = yield* readBody(request)
        if (recordRequests) {
          requests.push({
            method: request.method,
            url: url.toString(),
            path: url.pathname,
            headers: request.headers,
            body,
            at: now
          })
        }
        const outcome = route(request, url, body, now)
        if (outcome._tag === "Reset") {
          return yield* new HttpClientError.RequestError({
            request,
            reason: "Transport",
            cause: connectionError(outcome.code),
            description: outcome.code
          })
        }
        return toResponse(request, outcome)
      })

    // `makeWith` rather than `make`: no socket to abort, so no AbortController, finalization
    // registry or span per request, which would cost more than the client under test.
    const httpClient = HttpClient.makeWith(
      (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) => Effect.flatMap(request, handle),
      Effect.succeed
    )

    const rateLimited = (step: Extract<FakeServer.SubmitStep, { _tag: "RateLimited" }>): Reply => {
      const headers: Record<string, string> = {}
      if (step.retryAfter !== undefined) headers["retry-after"] = step.retryAfter
      if (step.date !== undefined) headers["date"] = step.date
      if (step.policy !== undefined) headers["ratelimit-policy"] = step.policy
      if (step.state !== undefined) headers["ratelimit"] = step.state
      if (step.body !== undefined) {
        return typeof step.body === "string"
          ? { status: 429, headers: { "content-type": "application/json", ...headers }, body: step.body }
          : json(429, step.body, headers)
      }
      const fields: Record<string, unknown> = { error: "rate_limited" }
      if (step.reason !== undefined) fields.reason = step.reason
      if (step.retryAfterMs !== undefined) fields.retryAfterMs = step.retryAfterMs
      // A valid body goes through the contract's Schema; an invalid one (a test of the client's
      // tolerance) is sent as given.
      const encoded = Schema.decodeUnknownEither(Contract.RateLimitedBody)(fields).pipe(
        Either.flatMap(Schema.encodeEither(Contract.RateLimitedBody))
      )
      return json(429, Either.isRight(encoded) ? encoded.right : fields, headers)
    }

    const enqueue = <A>(queues: Map<string, Array<A>>, sessionId: string, steps: ReadonlyArray<A>) =>
      Effect.sync(() => {
        const queue = queues.get(sessionId)
        if (queue === undefined) queues.set(sessionId, [...steps])
        else queue.push(...steps)
      })

    const service: FakeServer.Service = {
      baseUrl,
      apiKey,
      httpClient,
      enqueueSubmit: (...steps) => Effect.sync(() => void submitQueue.push(...steps)),
      enqueueResult: (sessionId, ...steps) => enqueue(resultQueues, sessionId, steps),
      enqueueDownload: (sessionId, ...steps) => enqueue(downloadQueues, sessionId, steps),
      setTimeline: (sessionId, timeline) =>
        Effect.sync(() => {
          const record = tasks.get(sessionId)
          if (record === undefined) {
            pendingTimelines.set(sessionId, timeline)
            return
          }
          tasks.set(sessionId, { ...record, task: { ...record.task, timeline }, steps: toTimedSteps(timeline) })
        }),
      setConcurrencyLimit: (limit) =>
        Effect.sync(() => {
          concurrencyLimit = limit
        }),
      inFlight: Effect.map(Clock.currentTimeMillis, inFlightAt),
      requests: Effect.sync(() => requests.slice()),
      tasks: Effect.sync(() => Array.from(tasks.values(), (record) => record.task))
    }
    return service
  })

const isFormat = (s: string | undefined): s is Contract.Format =>
  s !== undefined && formats.includes(s as Contract.Format)

const decode = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}
