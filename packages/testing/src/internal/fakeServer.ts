/** The fake server: routing, the contract's operations over the task store, and the scripted steps. */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Contract from "@pdf-transform/core/Contract"
import * as Media from "@pdf-transform/core/Media"
import * as RateLimitRule from "@pdf-transform/core/RateLimitRule"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as FakeServer from "../FakeServer.js"
import * as FakeUploads from "./fakeUploads.js"
import * as RateRule from "./rateRule.js"
import {
  connectionReset,
  errorJson,
  json,
  notFound,
  type Outcome,
  renderStep,
  type Reply,
  reply,
  toResponse,
  unauthenticated,
  withFault
} from "./replies.js"
import { readBody } from "./requestBody.js"
import { decodeSegment } from "./segment.js"
import { stepAt, type TaskRecord, TaskStore } from "./tasks.js"

export const defaultBaseUrl = "https://fake.pdf-transform.test/v1"

export const defaultApiKey = "test-key"

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

const formats: ReadonlyArray<Contract.Format> = ["markdown", "epub"]

const isBearer = /^bearer\s+/i

const isFormat = (s: string | undefined): s is Contract.Format =>
  s !== undefined && formats.includes(s as Contract.Format)

const decodeRequest = Schema.decodeUnknownEither(Contract.ConversionRequest)
const encodeSubmitted = Schema.encodeSync(Contract.SubmittedTask)

/** 429 as a `RateLimited` step says. A valid body goes through the contract's Schema; an invalid one is sent as given. */
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
  const encoded = Schema.decodeUnknownEither(Contract.RateLimitedBody)(fields).pipe(
    Either.flatMap(Schema.encodeEither(Contract.RateLimitedBody))
  )
  return json(429, Either.isRight(encoded) ? encoded.right : fields, headers)
}

class Fake {
  readonly baseUrl: string
  readonly origin: string
  readonly basePath: string
  readonly apiKeys: ReadonlySet<string>
  readonly apiKey: string
  readonly acceptHeaders: Record<string, string> = {}
  readonly store: TaskStore
  readonly requests: Array<FakeServer.RecordedRequest> = []
  readonly submitQueue: Array<FakeServer.SubmitStep> = []
  readonly resultQueues = new Map<string, Array<FakeServer.StatusStep>>()
  readonly downloadQueues = new Map<string, Array<FakeServer.DownloadStep>>()
  submitIndex = 0
  concurrencyLimit: number | undefined
  readonly rateRule: RateRule.RateRule | undefined
  readonly latencyMs: number
  unreachable = false
  readonly uploads: ReturnType<typeof FakeUploads.make>

  constructor(readonly options: FakeServer.Options) {
    this.baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, "")
    const base = new URL(this.baseUrl)
    this.origin = base.origin
    this.basePath = base.pathname === "/" ? "" : base.pathname
    const keys = options.apiKeys ?? [defaultApiKey]
    this.apiKeys = new Set(keys)
    this.apiKey = keys[0] ?? defaultApiKey
    if (options.rateLimitHeaders?.policy !== undefined) {
      this.acceptHeaders["ratelimit-policy"] = options.rateLimitHeaders.policy
    }
    if (options.rateLimitHeaders?.state !== undefined) this.acceptHeaders["ratelimit"] = options.rateLimitHeaders.state
    this.store = new TaskStore(options.defaultTimeline ?? completedImmediately)
    this.concurrencyLimit = options.concurrencyLimit
    this.latencyMs = options.latency === undefined ? 0 : Duration.toMillis(options.latency)
    this.rateRule = options.rateLimit === undefined ?
      undefined :
      RateRule.make(options.rateLimit, Duration.toMillis(options.rateLimit.window))
    this.uploads = FakeUploads.make({
      baseUrl: options.uploads?.baseUrl ?? `${this.baseUrl}/uploads`,
      options: options.uploads ?? {},
      authenticate: (request) => {
        const denied = this.authenticate(request)
        return denied && toResponse(request, { _tag: "Reply", reply: denied })
      },
      record: (entry) => {
        if (this.options.recordRequests ?? true) this.requests.push(entry)
      }
    })
  }

  authenticate(request: HttpClientRequest.HttpClientRequest): Reply | undefined {
    const authorization = request.headers["authorization"]
    if (authorization === undefined) return unauthenticated(undefined)
    const key = isBearer.test(authorization) ? authorization.replace(isBearer, "") : authorization
    return this.apiKeys.has(key.trim()) ? undefined : unauthenticated(authorization)
  }

  downloadURL(format: Contract.Format, sessionId: string): string {
    const signature = this.store.get(sessionId)?.signature ?? "unknown"
    return `${this.origin}/downloads/${format}/${encodeURIComponent(sessionId)}?sig=${signature}`
  }

  /** The answer headers of a submit: the configured ones, then the rate rule's, then the concurrency policy. */
  submitHeaders(inFlight: number, rate?: RateLimitRule.Field): Record<string, string> {
    const limit = this.concurrencyLimit
    if (limit === undefined && rate === undefined) return this.acceptHeaders
    const conc = limit === undefined ? undefined : RateLimitRule.concurrencyField("conc", limit, inFlight)
    const join = (...parts: ReadonlyArray<string | undefined>) => {
      const present = parts.filter((part) => part !== undefined)
      return present.length === 0 ? undefined : present.join(", ")
    }
    const headers: Record<string, string> = { ...this.acceptHeaders }
    const policy = join(this.acceptHeaders["ratelimit-policy"], rate?.policy, conc?.policy)
    const state = join(this.acceptHeaders["ratelimit"], rate?.state, conc?.state)
    if (policy !== undefined) headers["ratelimit-policy"] = policy
    if (state !== undefined) headers["ratelimit"] = state
    return headers
  }

  submit(format: Contract.Format, request: HttpClientRequest.HttpClientRequest, body: unknown, now: number): Outcome {
    const step = this.submitQueue[this.submitIndex]
    const scripted = step !== undefined && step._tag !== "Accept"
    // An Accept step (or none) is subject to the concurrency limit; a refused one stays queued.
    if (scripted) this.submitIndex++
    const handle = (): Reply => {
      const denied = this.authenticate(request)
      if (denied) return denied
      const decoded = decodeRequest(body)
      if (Either.isLeft(decoded)) {
        return errorJson(400, "invalid_request", ParseResult.TreeFormatter.formatErrorSync(decoded.left))
      }
      if (step?._tag === "RateLimited") return rateLimited(step)
      const inFlight = this.store.inFlightAt(now)
      if (this.concurrencyLimit !== undefined && inFlight >= this.concurrencyLimit) {
        return json(429, { error: "rate_limited", reason: "concurrency_exceeded" }, this.submitHeaders(inFlight))
      }
      const rate = this.rateRule?.decide(now)
      if (rate !== undefined && !rate.allowed) {
        return json(429, { error: "rate_limited", reason: "rate_exceeded" }, this.submitHeaders(inFlight, rate.field))
      }
      if (!scripted && step !== undefined) this.submitIndex++
      const sessionId = this.store.create(format, body, now, step?._tag === "Accept" ? step : undefined)
      const answer = encodeSubmitted({ success: true, sessionID: Contract.SessionId.make(sessionId) })
      return json(200, answer, this.submitHeaders(inFlight + 1, rate?.field))
    }
    return step?._tag === "Fault" ? withFault(step.fault, handle) : reply(handle())
  }

  result(format: Contract.Format, sessionId: string, request: HttpClientRequest.HttpClientRequest, now: number) {
    const override = this.resultQueues.get(sessionId)?.shift()
    const record = this.store.get(sessionId)
    const known = record !== undefined && record.task.format === format ? record : undefined
    const url = () => this.downloadURL(format, sessionId)
    const timelineReply = (): Reply =>
      this.authenticate(request) ??
        (known ? renderStep(stepAt(known, now).underlying, url) : notFound(sessionId))
    if (override !== undefined) {
      if (override.state === "fault") return withFault(override.fault, timelineReply)
      return reply(this.authenticate(request) ?? renderStep(override, url))
    }
    if (known !== undefined) {
      const { current } = stepAt(known, now)
      if (current.state === "fault") return withFault(current.fault, timelineReply)
    }
    return reply(timelineReply())
  }

  output(record: TaskRecord): Uint8Array {
    const options = this.options
    const given = record.output ??
      (typeof options.output === "function" ? options.output(record.task) : options.output)
    if (given === undefined) {
      return record.task.format === "markdown" ? textEncoder.encode(`# ${record.task.sessionId}\n`) : epubBytes
    }
    return typeof given === "string" ? textEncoder.encode(given) : given
  }

  download(format: Contract.Format, sessionId: string, signature: string | null): Outcome {
    const step = this.downloadQueues.get(sessionId)?.shift()
    const record = this.store.get(sessionId)
    const file = (truncate: boolean): Reply => {
      if (record === undefined || record.task.format !== format || record.signature !== signature) {
        return errorJson(404, "not_found", "No such download")
      }
      const bytes = this.output(record)
      return {
        status: 200,
        headers: {
          "content-type": Media.contentType(format),
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

  route(request: HttpClientRequest.HttpClientRequest, url: URL, body: unknown, now: number): Outcome {
    if (url.origin !== this.origin) return reply(errorJson(404, "not_found", `Unknown host ${url.host}`))
    const path = url.pathname
    const noRoute = reply(errorJson(404, "not_found", `No route for ${request.method} ${path}`))
    if (path.startsWith("/downloads/")) {
      const [format, id, ...rest] = path.slice("/downloads/".length).split("/")
      const sessionId = decodeSegment(id)
      if (request.method !== "GET" || rest.length > 0 || !isFormat(format) || !sessionId) return noRoute
      return this.download(format, sessionId, url.searchParams.get("sig"))
    }
    const prefix = `${this.basePath}/pdf-transform-`
    if (!path.startsWith(prefix)) return noRoute
    const [endpoint, action, id, ...rest] = path.slice(prefix.length).split("/")
    if (!isFormat(endpoint) || rest.length > 0) return noRoute
    if (action === "submit" && id === undefined && request.method === "POST") {
      return this.submit(endpoint, request, body, now)
    }
    const sessionId = decodeSegment(id)
    if (action === "result" && sessionId && request.method === "GET") {
      return this.result(endpoint, sessionId, request, now)
    }
    return noRoute
  }

  handle(request: HttpClientRequest.HttpClientRequest) {
    return Effect.gen(this, function*() {
      // Nothing listens: the connection is refused before anything is sent or recorded.
      if (this.unreachable) return yield* connectionReset(request, "ECONNREFUSED")
      const url = yield* Either.mapLeft(
        UrlParams.makeUrl(request.url, request.urlParams, request.hash),
        (cause) => new HttpClientError.RequestError({ request, reason: "InvalidUrl", cause })
      )
      const now = yield* Clock.currentTimeMillis
      if (this.uploads.owns(url)) return yield* this.uploads.handle(request, url, now)
      const body = yield* readBody(request)
      if (this.options.recordRequests ?? true) {
        const { headers, method } = request
        this.requests.push({ method, url: url.toString(), path: url.pathname, headers, body, at: now })
      }
      const outcome = this.route(request, url, body, now)
      if (this.latencyMs > 0) yield* Effect.sleep(this.latencyMs)
      if (outcome._tag === "Reset") return yield* connectionReset(request, outcome.code)
      return toResponse(request, outcome)
    })
  }
}

const enqueue = <A>(queues: Map<string, Array<A>>, sessionId: string, steps: ReadonlyArray<A>) =>
  Effect.sync(() => {
    const queue = queues.get(sessionId)
    if (queue === undefined) queues.set(sessionId, [...steps])
    else queue.push(...steps)
  })

export const make = (options: FakeServer.Options = {}): Effect.Effect<FakeServer.Service> =>
  Effect.sync(() => {
    const fake = new Fake(options)
    // `makeWith`: no socket to abort, so none of `make`'s per-request AbortController and span.
    const httpClient = HttpClient.makeWith(
      (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) => Effect.flatMap(request, (r) => fake.handle(r)),
      Effect.succeed
    )
    const service: FakeServer.Service = {
      baseUrl: fake.baseUrl,
      apiKey: fake.apiKey,
      httpClient,
      enqueueSubmit: (...steps) => Effect.sync(() => void fake.submitQueue.push(...steps)),
      enqueueResult: (sessionId, ...steps) => enqueue(fake.resultQueues, sessionId, steps),
      enqueueDownload: (sessionId, ...steps) => enqueue(fake.downloadQueues, sessionId, steps),
      setTimeline: (sessionId, timeline) => Effect.sync(() => fake.store.setTimeline(sessionId, timeline)),
      setConcurrencyLimit: (limit) =>
        Effect.sync(() => {
          fake.concurrencyLimit = limit
        }),
      inFlight: Effect.map(Clock.currentTimeMillis, (now) => fake.store.inFlightAt(now)),
      setUnreachable: (unreachable) =>
        Effect.sync(() => {
          fake.unreachable = unreachable
        }),
      uploadBaseUrl: fake.uploads.baseUrl,
      enqueuePart: fake.uploads.enqueuePart,
      uploads: fake.uploads.uploads,
      requests: Effect.sync(() => fake.requests.slice()),
      tasks: Effect.sync(() => fake.store.all())
    }
    return service
  })
