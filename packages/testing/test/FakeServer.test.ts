import { HttpClientError, HttpClientRequest } from "@effect/platform"
import type { HttpClient, HttpClientResponse } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Contract } from "@pdf-transform/core"
import { Cause, Chunk, Effect, Either, Exit, Fiber, Option, Schema, Stream, TestClock } from "effect"
import { FakeServer } from "../src/index.js"

const base = FakeServer.defaultBaseUrl

const submitRequest = (format: Contract.Format, body: unknown, key: string | null = FakeServer.defaultApiKey) => {
  const request = HttpClientRequest.post(`${base}${Contract.submitPath(format)}`).pipe(
    HttpClientRequest.bodyUnsafeJson(body)
  )
  return key === null ? request : HttpClientRequest.bearerToken(request, key)
}

const resultRequest = (format: Contract.Format, id: string, key: string = FakeServer.defaultApiKey) =>
  HttpClientRequest.get(`${base}${Contract.resultPath(format, id)}`).pipe(HttpClientRequest.bearerToken(key))

const validBody = { pdfURL: "https://files.example.com/a.pdf", model: "gundam" }

/** Runs `f` against a fresh fake server. */
const withServer = <A, E>(
  f: (server: FakeServer.Service, client: HttpClient.HttpClient) => Effect.Effect<A, E>,
  options?: FakeServer.Options
) => Effect.flatMap(FakeServer.make(options), (server) => f(server, server.httpClient))

const submitted = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.flatMap(response.json, Schema.decodeUnknown(Contract.SubmittedTask))

const statusOf = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.flatMap(response.json, Schema.decodeUnknown(Contract.TaskStatus))

const submitOne = (client: HttpClient.HttpClient, format: Contract.Format = "markdown") =>
  Effect.flatMap(client.execute(submitRequest(format, validBody)), submitted)

const transportCode = (exit: Exit.Exit<unknown, unknown>): unknown => {
  const error = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined
  assert.instanceOf(error, HttpClientError.RequestError)
  assert.strictEqual(error.reason, "Transport")
  return (error.cause as { readonly code?: unknown }).code
}

describe("FakeServer", () => {
  describe("authentication", () => {
    it.effect("answers 401 with the challenge and the contract's body when the key is missing or wrong", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          for (const key of [null, "wrong-key"]) {
            const response = yield* client.execute(submitRequest("markdown", validBody, key))
            assert.strictEqual(response.status, 401)
            assert.strictEqual(
              response.headers["www-authenticate"],
              "Bearer realm=\"pdf-transform\", error=\"invalid_token\""
            )
            assert.strictEqual(response.headers["content-type"], "application/json")
            const body = yield* Effect.flatMap(response.json, Schema.decodeUnknown(Contract.UnauthenticatedBody))
            assert.strictEqual(body.code, "UNAUTHENTICATED")
            assert.strictEqual(body.error, "Unauthorized")
            assert.isAbove(body.resolution.length, 0)
          }
          const result = yield* client.execute(resultRequest("markdown", "task-1", "wrong-key"))
          assert.strictEqual(result.status, 401)
          assert.lengthOf(yield* server.tasks, 0)
        })
      ))

    it.effect("accepts a raw key without Bearer, and any configured key", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          assert.strictEqual(server.apiKey, "k1")
          const raw = yield* client.execute(
            HttpClientRequest.post(`${base}/pdf-transform-epub/submit`).pipe(
              HttpClientRequest.setHeader("authorization", "k2"),
              HttpClientRequest.bodyUnsafeJson(validBody)
            )
          )
          assert.strictEqual(raw.status, 200)
          const bearer = yield* client.execute(submitRequest("epub", validBody, "k1"))
          assert.strictEqual(bearer.status, 200)
          const old = yield* client.execute(submitRequest("epub", validBody, FakeServer.defaultApiKey))
          assert.strictEqual(old.status, 401)
        }), { apiKeys: ["k1", "k2"] }))
  })

  describe("submit", () => {
    it.effect("creates a task and answers the SubmittedTask body with unique ids", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          const response = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(response.status, 200)
          assert.strictEqual(response.headers["content-type"], "application/json")
          assert.isUndefined(response.headers["ratelimit"])
          const first = yield* submitted(response)
          const second = yield* submitOne(client, "epub")
          assert.notStrictEqual(first.sessionID, second.sessionID)
          const tasks = yield* server.tasks
          assert.deepStrictEqual(tasks.map((task) => [task.sessionId, task.format]), [
            [first.sessionID, "markdown"],
            [second.sessionID, "epub"]
          ])
          assert.deepStrictEqual(tasks[0]!.request, validBody)
        })
      ))

    it.effect("sends the configured RateLimit headers on accepted submits", () =>
      withServer((_, client) =>
        Effect.gen(function*() {
          const response = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(response.headers["ratelimit-policy"], "\"burst\";q=10;w=1")
          assert.strictEqual(response.headers["ratelimit"], "\"burst\";r=9;t=1")
        }), { rateLimitHeaders: { policy: "\"burst\";q=10;w=1", state: "\"burst\";r=9;t=1" } }))

    it.effect("refuses a body that fails the ConversionRequest Schema with 400 and creates nothing", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          for (
            const body of [{ model: "gundam" }, { pdfURL: "ftp://x/a.pdf" }, { pdfURL: validBody.pdfURL, model: "x" }]
          ) {
            const response = yield* client.execute(submitRequest("markdown", body))
            assert.strictEqual(response.status, 400)
            const json = (yield* response.json) as { error: string; message: string }
            assert.strictEqual(json.error, "invalid_request")
            assert.isString(json.message)
          }
          const text = yield* client.execute(
            HttpClientRequest.post(`${base}/pdf-transform-markdown/submit`).pipe(
              HttpClientRequest.bearerToken(FakeServer.defaultApiKey),
              HttpClientRequest.bodyText("not json", "application/json")
            )
          )
          assert.strictEqual(text.status, 400)
          assert.lengthOf(yield* server.tasks, 0)
        })
      ))

    it.effect("uses the sessionId and timeline of an Accept step", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({
            _tag: "Accept",
            sessionId: "my id/1",
            timeline: [{ after: 0, status: { state: "failed", error: "bad pdf", progress: 0 } }]
          })
          const { sessionID } = yield* submitOne(client)
          assert.strictEqual(sessionID, "my id/1")
          const status = yield* Effect.flatMap(client.execute(resultRequest("markdown", sessionID)), statusOf)
          assert.deepStrictEqual(status, { success: false, state: "failed", error: "bad pdf", progress: 0 })
          const requests = yield* server.requests
          assert.strictEqual(requests[1]!.path, "/v1/pdf-transform-markdown/result/my%20id%2F1")
        })
      ))
  })

  describe("result", () => {
    it.effect("follows the task's timeline on the Clock", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({
            _tag: "Accept",
            timeline: [
              { after: "1 second", status: { state: "processing", progress: 10 } },
              { after: "5 seconds", status: { state: "processing", progress: 60, httpStatus: 202 } },
              { after: "10 seconds", status: { state: "completed" } }
            ]
          })
          yield* TestClock.adjust("3 seconds")
          const { sessionID } = yield* submitOne(client)
          const poll = client.execute(resultRequest("markdown", sessionID))

          const initial = yield* poll
          assert.strictEqual(initial.status, 200)
          assert.deepStrictEqual(yield* statusOf(initial), { success: true, state: "processing" })

          yield* TestClock.adjust("1 second")
          assert.deepStrictEqual(yield* Effect.flatMap(poll, statusOf), {
            success: true,
            state: "processing",
            progress: 10
          })

          yield* TestClock.adjust("4 seconds")
          const accepted = yield* poll
          assert.strictEqual(accepted.status, 202)
          assert.deepStrictEqual(yield* statusOf(accepted), { success: true, state: "processing", progress: 60 })

          yield* TestClock.adjust("5 seconds")
          const done = yield* statusOf(yield* poll)
          assert.strictEqual(done.state, "completed")
          assert.strictEqual(done.progress, 100)
          const url = new URL((done as Contract.CompletedStatus).data.downloadURL)
          assert.strictEqual(url.origin, "https://fake.pdf-transform.test")
          assert.strictEqual(url.pathname, `/downloads/markdown/${sessionID}`)
          assert.isTrue(url.searchParams.has("sig"))

          const requests = yield* server.requests
          assert.deepStrictEqual(requests.map((request) => request.at), [3000, 3000, 4000, 8000, 13000])
        })
      ))

    it.effect("uses the default timeline of the options", () =>
      withServer((_, client) =>
        Effect.gen(function*() {
          const { sessionID } = yield* submitOne(client)
          const status = yield* Effect.flatMap(client.execute(resultRequest("markdown", sessionID)), statusOf)
          assert.deepStrictEqual(status, { success: true, state: "processing", progress: 5 })
        }), { defaultTimeline: [{ after: 0, status: { state: "processing", progress: 5 } }] }))

    it.effect("answers 404 not_found for an unknown id and for a task of the other format", () =>
      withServer((_, client) =>
        Effect.gen(function*() {
          const { sessionID } = yield* submitOne(client, "markdown")
          for (const [format, id] of [["markdown", "nope"], ["epub", sessionID]] as const) {
            const response = yield* client.execute(resultRequest(format, id))
            assert.strictEqual(response.status, 404)
            const body = yield* Effect.flatMap(response.json, Schema.decodeUnknown(Contract.NotFoundBody))
            assert.strictEqual(body.state, "not_found")
          }
          const other = yield* client.execute(HttpClientRequest.get(`${base}/pdf-transform-markdown/state/x`))
          assert.strictEqual(other.status, 404)
          assert.strictEqual(other.headers["content-type"], "application/json")
        })
      ))

    it.effect("serves one-shot result steps before the timeline, and setTimeline replaces it", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          const { sessionID } = yield* submitOne(client)
          yield* server.enqueueResult(
            sessionID,
            {
              state: "raw",
              response: { status: 200, headers: { "content-type": "application/json" }, body: "{\"state\":\"queued\"}" }
            },
            { state: "completed" },
            { state: "fault", fault: { _tag: "ServerError", status: 502 } }
          )
          const poll = client.execute(resultRequest("markdown", sessionID))
          assert.deepStrictEqual(yield* Effect.flatMap(poll, (r) => r.json), { state: "queued" })
          assert.strictEqual((yield* Effect.flatMap(poll, statusOf)).state, "completed")
          assert.strictEqual((yield* poll).status, 502)
          yield* server.setTimeline(sessionID, [{ after: 0, status: { state: "processing", progress: 1 } }])
          assert.deepStrictEqual(yield* Effect.flatMap(poll, statusOf), {
            success: true,
            state: "processing",
            progress: 1
          })
          const [task] = yield* server.tasks
          assert.deepStrictEqual(task!.timeline, [{ after: 0, status: { state: "processing", progress: 1 } }])
        })
      ))

    it.effect("applies a fault step of the timeline while it lasts", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({
            _tag: "Accept",
            timeline: [
              { after: 0, status: { state: "processing", progress: 10 } },
              { after: "2 seconds", status: { state: "fault", fault: { _tag: "ServerError" } } },
              { after: "4 seconds", status: { state: "completed" } }
            ]
          })
          const { sessionID } = yield* submitOne(client)
          const poll = client.execute(resultRequest("markdown", sessionID))
          assert.strictEqual((yield* poll).status, 200)
          yield* TestClock.adjust("2 seconds")
          const failed = yield* poll
          assert.strictEqual(failed.status, 503)
          assert.strictEqual(failed.headers["content-type"], "text/html")
          assert.match(yield* failed.text, /<html>/)
          yield* TestClock.adjust("2 seconds")
          assert.strictEqual((yield* Effect.flatMap(poll, statusOf)).state, "completed")
        })
      ))
  })

  describe("429", () => {
    it.effect("answers the scripted headers and body, and creates no task", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit(
            {
              _tag: "RateLimited",
              reason: "rate_exceeded",
              retryAfterMs: 1500,
              retryAfter: "2",
              date: "Wed, 21 Oct 2015 07:28:00 GMT",
              policy: "\"burst\";q=10;w=1",
              state: "\"burst\";r=0;t=2"
            },
            { _tag: "RateLimited" },
            { _tag: "RateLimited", retryAfterMs: -3, reason: "weird" }
          )
          const first = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(first.status, 429)
          assert.strictEqual(first.headers["retry-after"], "2")
          assert.strictEqual(first.headers["date"], "Wed, 21 Oct 2015 07:28:00 GMT")
          assert.strictEqual(first.headers["ratelimit-policy"], "\"burst\";q=10;w=1")
          assert.strictEqual(first.headers["ratelimit"], "\"burst\";r=0;t=2")
          const body = yield* Effect.flatMap(first.json, Schema.decodeUnknown(Contract.RateLimitedBody))
          assert.deepStrictEqual(body, { error: "rate_limited", reason: "rate_exceeded", retryAfterMs: 1500 })

          const bare = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(bare.status, 429)
          assert.isUndefined(bare.headers["retry-after"])
          assert.isUndefined(bare.headers["ratelimit"])
          assert.deepStrictEqual(yield* bare.json, { error: "rate_limited" })

          const garbage = yield* client.execute(submitRequest("markdown", validBody))
          assert.deepStrictEqual(yield* garbage.json, { error: "rate_limited", reason: "weird", retryAfterMs: -3 })

          assert.lengthOf(yield* server.tasks, 0)
          const accepted = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(accepted.status, 200)
          assert.lengthOf(yield* server.tasks, 1)
        })
      ))

    it.effect("sends a custom body as given", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({ _tag: "RateLimited", body: { message: "slow down" } })
          const response = yield* client.execute(submitRequest("epub", validBody))
          assert.deepStrictEqual(yield* response.json, { message: "slow down" })
        })
      ))
  })

  describe("tasks in flight", () => {
    const twoSeconds: FakeServer.Timeline = [{ after: "2 seconds", status: { state: "completed" } }]

    it.effect("refuses a submit beyond the limit with 429 concurrency_exceeded and announces the policy", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          const first = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(first.status, 200)
          assert.strictEqual(first.headers["ratelimit-policy"], "\"conc\";q=2;qu=\"concurrent-requests\"")
          assert.strictEqual(first.headers["ratelimit"], "\"conc\";r=1")
          assert.strictEqual((yield* client.execute(submitRequest("markdown", validBody))).status, 200)
          const refused = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(refused.status, 429)
          assert.deepStrictEqual(yield* refused.json, { error: "rate_limited", reason: "concurrency_exceeded" })
          assert.strictEqual(refused.headers["ratelimit"], "\"conc\";r=0")
          assert.lengthOf(yield* server.tasks, 2)
          assert.strictEqual(yield* server.inFlight, 2)
          // Both end at 2 s: the slots are free again.
          yield* TestClock.adjust("2 seconds")
          assert.strictEqual(yield* server.inFlight, 0)
          assert.strictEqual((yield* client.execute(submitRequest("markdown", validBody))).status, 200)
        }), { concurrencyLimit: 2, defaultTimeline: twoSeconds }))

    it.effect("the limit can change mid-run; a refused Accept step stays queued for the next submit", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          assert.strictEqual((yield* client.execute(submitRequest("markdown", validBody))).status, 200)
          yield* server.enqueueSubmit({ _tag: "Accept", sessionId: "scripted" })
          assert.strictEqual((yield* client.execute(submitRequest("markdown", validBody))).status, 429)
          yield* server.setConcurrencyLimit(3)
          const accepted = yield* submitted(yield* client.execute(submitRequest("markdown", validBody)))
          assert.strictEqual(accepted.sessionID, "scripted")
          yield* server.setConcurrencyLimit(undefined)
          const free = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(free.status, 200)
          assert.isUndefined(free.headers["ratelimit-policy"])
        }), { concurrencyLimit: 1, defaultTimeline: twoSeconds }))

    it.effect("rateLimit, fixed window: q per window, refused with the RateLimit fields as the only hint", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* TestClock.adjust("200 millis")
          const statuses: Array<number> = []
          for (let i = 0; i < 4; i++) {
            statuses.push((yield* client.execute(submitRequest("markdown", validBody))).status)
          }
          assert.deepStrictEqual(statuses, [200, 200, 200, 429])
          const refused = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(refused.headers["ratelimit-policy"], `"rate";q=3;w=2`)
          assert.strictEqual(refused.headers["ratelimit"], `"rate";r=0;t=2`)
          assert.isUndefined(refused.headers["retry-after"])
          assert.deepStrictEqual(yield* refused.json, { error: "rate_limited", reason: "rate_exceeded" })
          // The next window (from 2 s) takes three again.
          yield* TestClock.adjust("1800 millis")
          const next = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(next.status, 200)
          assert.strictEqual(next.headers["ratelimit"], `"rate";r=2;t=2`)
          assert.lengthOf(yield* server.tasks, 4)
        }), { rateLimit: { quota: 3, window: "2 seconds" } }))

    it.effect("rateLimit, token bucket: a burst of q, then one every window / q; announced beside conc", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          const first = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(first.headers["ratelimit-policy"], `"rate";q=2;w=1, "conc";q=8;qu="concurrent-requests"`)
          assert.strictEqual(first.headers["ratelimit"], `"rate";r=1;t=1, "conc";r=7`)
          assert.strictEqual((yield* client.execute(submitRequest("markdown", validBody))).status, 200)
          assert.strictEqual((yield* client.execute(submitRequest("markdown", validBody))).status, 429)
          yield* TestClock.adjust("499 millis")
          assert.strictEqual((yield* client.execute(submitRequest("markdown", validBody))).status, 429)
          yield* TestClock.adjust("1 millis")
          assert.strictEqual((yield* client.execute(submitRequest("markdown", validBody))).status, 200)
          assert.lengthOf(yield* server.tasks, 3)
        }), { rateLimit: { quota: 2, window: "1 second", kind: "token-bucket" }, concurrencyLimit: 8 }))
  })

  describe("faults", () => {
    it.effect("ServerError: 503 text/html by default, or the given status; no task", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit(
            { _tag: "Fault", fault: { _tag: "ServerError" } },
            { _tag: "Fault", fault: { _tag: "ServerError", status: 500 } }
          )
          const first = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(first.status, 503)
          assert.strictEqual(first.headers["content-type"], "text/html")
          assert.strictEqual((yield* client.execute(submitRequest("markdown", validBody))).status, 500)
          assert.lengthOf(yield* server.tasks, 0)
        })
      ))

    it.effect("InvalidBody: 200 JSON that fails the Schema", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({ _tag: "Fault", fault: { _tag: "InvalidBody" } })
          const response = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(response.status, 200)
          assert.strictEqual(response.headers["content-type"], "application/json")
          const decoded = yield* Effect.either(submitted(response))
          assert.isTrue(Either.isLeft(decoded))
          assert.deepStrictEqual(yield* response.json, { success: "yes" })
        })
      ))

    it.effect("NotJson: 200 application/json whose body is HTML", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          const { sessionID } = yield* submitOne(client)
          yield* server.enqueueResult(sessionID, { state: "fault", fault: { _tag: "NotJson" } })
          const response = yield* client.execute(resultRequest("markdown", sessionID))
          assert.strictEqual(response.status, 200)
          assert.strictEqual(response.headers["content-type"], "application/json")
          assert.strictEqual(yield* response.text, "<html>oops")
          const parsed = yield* Effect.either(
            Effect.flatMap(client.execute(resultRequest("markdown", sessionID)), statusOf)
          )
          assert.isTrue(Either.isRight(parsed))
        })
      ))

    it.effect("ResetBeforeSend fails with ECONNREFUSED and creates no task", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({ _tag: "Fault", fault: { _tag: "ResetBeforeSend" } })
          const exit = yield* Effect.exit(client.execute(submitRequest("markdown", validBody)))
          assert.strictEqual(transportCode(exit), "ECONNREFUSED")
          assert.lengthOf(yield* server.tasks, 0)
          assert.lengthOf(yield* server.requests, 1)
        })
      ))

    it.effect("ResetAfterSend fails with ECONNRESET but the task is created", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({ _tag: "Fault", fault: { _tag: "ResetAfterSend" } })
          const exit = yield* Effect.exit(client.execute(submitRequest("epub", validBody)))
          assert.strictEqual(transportCode(exit), "ECONNRESET")
          const tasks = yield* server.tasks
          assert.lengthOf(tasks, 1)
          assert.strictEqual(tasks[0]!.format, "epub")
        })
      ))

    it.effect("ResetAfterSend on an unauthenticated submit creates nothing", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({ _tag: "Fault", fault: { _tag: "ResetAfterSend" } })
          yield* Effect.exit(client.execute(submitRequest("epub", validBody, "bad")))
          assert.lengthOf(yield* server.tasks, 0)
        })
      ))

    it.effect("SlowBody: status and headers at once, the body after the delay of Clock time; the task exists", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({ _tag: "Fault", fault: { _tag: "SlowBody", delay: "5 seconds" } })
          const response = yield* client.execute(submitRequest("markdown", validBody))
          assert.strictEqual(response.status, 200)
          assert.strictEqual(response.headers["content-type"], "application/json")
          assert.lengthOf(yield* server.tasks, 1)
          const body = yield* Effect.fork(submitted(response))
          yield* TestClock.adjust("4 seconds")
          assert.isTrue((yield* Fiber.poll(body))._tag === "None")
          yield* TestClock.adjust("1 second")
          const { sessionID } = yield* Fiber.join(body)
          assert.strictEqual(sessionID, (yield* server.tasks)[0]!.sessionId)
        })
      ))

    it.effect("Raw: any answer, before the credential is checked", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({
            _tag: "Fault",
            fault: {
              _tag: "Raw",
              response: { status: 402, headers: { "x-code": "OOMOL_INSUFFICIENT_CREDIT" }, body: "pay" }
            }
          })
          const response = yield* client.execute(submitRequest("markdown", validBody, "bad"))
          assert.strictEqual(response.status, 402)
          assert.strictEqual(response.headers["x-code"], "OOMOL_INSUFFICIENT_CREDIT")
          assert.strictEqual(yield* response.text, "pay")
          assert.lengthOf(yield* server.tasks, 0)
        })
      ))

    it.effect("a fault on a result poll", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          const { sessionID } = yield* submitOne(client)
          yield* server.enqueueResult(
            sessionID,
            { state: "fault", fault: { _tag: "ResetAfterSend" } },
            { state: "fault", fault: { _tag: "SlowBody", delay: "1 second" } }
          )
          const poll = client.execute(resultRequest("markdown", sessionID))
          assert.strictEqual(transportCode(yield* Effect.exit(poll)), "ECONNRESET")
          const slow = yield* poll
          const status = yield* Effect.fork(statusOf(slow))
          yield* TestClock.adjust("1 second")
          assert.strictEqual((yield* Fiber.join(status)).state, "completed")
        })
      ))
  })

  describe("downloads", () => {
    const completedUrl = (client: HttpClient.HttpClient, format: Contract.Format = "markdown") =>
      Effect.gen(function*() {
        const { sessionID } = yield* submitOne(client, format)
        const status = yield* Effect.flatMap(client.execute(resultRequest(format, sessionID)), statusOf)
        assert.strictEqual(status.state, "completed")
        return { sessionID, url: (status as Contract.CompletedStatus).data.downloadURL }
      })

    it.effect("serves the output with Content-Type and Content-Length, without credentials", () =>
      withServer((_, client) =>
        Effect.gen(function*() {
          const { sessionID, url } = yield* completedUrl(client)
          const response = yield* client.execute(HttpClientRequest.get(url))
          assert.strictEqual(response.status, 200)
          assert.strictEqual(response.headers["content-type"], "text/markdown; charset=utf-8")
          assert.strictEqual(yield* response.text, `# ${sessionID}\n`)
          assert.strictEqual(response.headers["content-length"], String(`# ${sessionID}\n`.length))

          const epub = yield* completedUrl(client, "epub")
          const epubResponse = yield* client.execute(HttpClientRequest.get(epub.url))
          assert.strictEqual(epubResponse.headers["content-type"], "application/epub+zip")
          const bytes = new Uint8Array(yield* epubResponse.arrayBuffer)
          assert.deepStrictEqual([...bytes.slice(0, 4)], [0x50, 0x4b, 0x03, 0x04])
        })
      ))

    it.effect("serves the output of the Accept step, else the fake's own, text or bytes", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({ _tag: "Accept", output: "# scripted\n" })
          const scripted = yield* completedUrl(client)
          const text = yield* Effect.flatMap(client.execute(HttpClientRequest.get(scripted.url)), (r) => r.text)
          assert.strictEqual(text, "# scripted\n")
          const other = yield* completedUrl(client)
          const bytes = yield* Effect.flatMap(client.execute(HttpClientRequest.get(other.url)), (r) => r.arrayBuffer)
          assert.deepStrictEqual([...new Uint8Array(bytes)], [1, 2, 3])
        }), { output: new Uint8Array([1, 2, 3]) }))

    it.effect("delivers a large output in several chunks", () =>
      withServer((_, client) =>
        Effect.gen(function*() {
          const { url } = yield* completedUrl(client)
          const response = yield* client.execute(HttpClientRequest.get(url))
          assert.strictEqual(response.headers["content-length"], String(200_000))
          const chunks = yield* Stream.runCollect(response.stream)
          assert.isAtLeast(chunks.length, 3)
          assert.strictEqual(Chunk.reduce(chunks, 0, (n, chunk) => n + chunk.length), 200_000)
        }), { output: () => new Uint8Array(200_000).fill(7) }))

    it.effect("refuses a wrong signature, another format or an unknown task with 404", () =>
      withServer((_, client) =>
        Effect.gen(function*() {
          const { url } = yield* completedUrl(client)
          const wrongSig = new URL(url)
          wrongSig.searchParams.set("sig", "forged")
          const otherFormat = url.replace("/downloads/markdown/", "/downloads/epub/")
          const unknown = url.replace(/\/downloads\/markdown\/[^?]+/, "/downloads/markdown/nope")
          for (const target of [wrongSig.toString(), otherFormat, unknown]) {
            assert.strictEqual((yield* client.execute(HttpClientRequest.get(target))).status, 404)
          }
        })
      ))

    it.effect("scripted download steps: Truncated, Expired, Status, Fault, then the normal download", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          const { sessionID, url } = yield* completedUrl(client)
          yield* server.enqueueDownload(
            sessionID,
            { _tag: "Truncated" },
            { _tag: "Expired" },
            { _tag: "Status", status: 403 },
            { _tag: "Fault", fault: { _tag: "ResetBeforeSend" } }
          )
          const get = client.execute(HttpClientRequest.get(url))

          const truncated = yield* get
          assert.strictEqual(truncated.status, 200)
          assert.strictEqual(truncated.headers["content-length"], "100000")
          const received = yield* Stream.runFold(truncated.stream, 0, (n, chunk) => n + chunk.length)
          assert.strictEqual(received, 50000)

          assert.strictEqual((yield* get).status, 410)
          assert.strictEqual((yield* get).status, 403)
          assert.strictEqual(transportCode(yield* Effect.exit(get)), "ECONNREFUSED")
          const whole = yield* get
          assert.strictEqual((yield* whole.arrayBuffer).byteLength, 100000)
        }), { output: () => new Uint8Array(100_000) }))
  })

  describe("recording", () => {
    it.effect("records every request with its method, path, headers, body and Clock time", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          yield* server.enqueueSubmit({ _tag: "Fault", fault: { _tag: "ResetBeforeSend" } })
          yield* Effect.exit(client.execute(submitRequest("markdown", validBody)))
          yield* TestClock.adjust("7 seconds")
          const { sessionID } = yield* submitOne(client, "epub")
          yield* client.execute(resultRequest("epub", sessionID))
          const requests = yield* server.requests
          assert.deepStrictEqual(
            requests.map(({ at, body, method, path }) => ({ at, body, method, path })),
            [
              { at: 0, body: validBody, method: "POST", path: "/v1/pdf-transform-markdown/submit" },
              { at: 7000, body: validBody, method: "POST", path: "/v1/pdf-transform-epub/submit" },
              { at: 7000, body: undefined, method: "GET", path: `/v1/pdf-transform-epub/result/${sessionID}` }
            ]
          )
          assert.strictEqual(requests[2]!.headers["authorization"], "Bearer test-key")
          assert.strictEqual(requests[2]!.url, `${base}/pdf-transform-epub/result/${sessionID}`)
          assert.strictEqual((yield* server.tasks)[0]!.createdAt, 7000)
        })
      ))

    it.effect("handles thousands of tasks quickly", () =>
      withServer((server, client) =>
        Effect.gen(function*() {
          const ids = yield* Effect.forEach(Array.from({ length: 2000 }), () => submitOne(client))
          yield* Effect.forEach(ids, ({ sessionID }) => client.execute(resultRequest("markdown", sessionID)))
          assert.strictEqual(new Set(ids.map((id) => id.sessionID)).size, 2000)
          assert.lengthOf(yield* server.requests, 4000)
        })
      ))
  })

  it.effect("layer provides the fake and its HttpClient", () =>
    Effect.gen(function*() {
      const server = yield* FakeServer.FakeServer
      assert.strictEqual(server.baseUrl, "https://example.test/v1")
      const response = yield* server.httpClient.execute(
        HttpClientRequest.post("https://example.test/v1/pdf-transform-markdown/submit").pipe(
          HttpClientRequest.bearerToken(server.apiKey),
          HttpClientRequest.bodyUnsafeJson(validBody)
        )
      )
      assert.strictEqual(response.status, 200)
    }).pipe(Effect.provide(FakeServer.layer({ baseUrl: "https://example.test/v1/" }))))
})
