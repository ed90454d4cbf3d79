import { assert, describe, it } from "@effect/vitest"
import { PdfInvalid } from "@pdf-transform/converter/Converter"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import * as Contract from "@pdf-transform/core/Contract"
import * as RateLimit from "@pdf-transform/core/RateLimit"
import { Deferred, Effect, Exit, Schema, Scope, TestClock } from "effect"
import { strFromU8, unzipSync } from "fflate"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import { bearer, otherBearer, poll, serve, settle, status, submit, submitted, upload } from "./harness.js"

describe("task lifecycle (TestClock)", () => {
  it.scoped("markdown: processing with progress, then completed with a signed download", () =>
    Effect.gen(function*() {
      const h = yield* serve({ conversions: { retention: "10 minutes" } })
      const id = yield* submitted(h, "markdown", { filename: "Résumé: 2024/Q1" })
      assert.deepStrictEqual(yield* status(h, "markdown", id), { success: true, state: "processing", progress: 0 })
      yield* TestClock.adjust("250 millis")
      yield* settle
      assert.deepStrictEqual(yield* status(h, "markdown", id), { success: true, state: "processing", progress: 25 })
      yield* TestClock.adjust("500 millis")
      yield* settle
      assert.deepStrictEqual(yield* status(h, "markdown", id), { success: true, state: "processing", progress: 75 })
      yield* TestClock.adjust("250 millis")
      yield* settle
      const done = yield* status(h, "markdown", id)
      assert.strictEqual(done.state, "completed")
      assert.strictEqual(done.progress, 100)
      const url = new URL(done.state === "completed" ? done.data.downloadURL : "")
      assert.strictEqual(url.origin, h.base)
      const file = yield* h.request({ path: `${url.pathname}${url.search}` })
      assert.strictEqual(file.status, 200)
      assert.strictEqual(file.headers["content-type"], "text/markdown; charset=utf-8")
      assert.strictEqual(file.headers["content-length"], String(file.body.byteLength))
      assert.strictEqual(
        file.headers["content-disposition"],
        "attachment; filename=\"R_sum__ 2024_Q1.md\"; filename*=UTF-8''R%C3%A9sum%C3%A9_%202024_Q1.md"
      )
      assert.match(file.body.toString("utf8"), /^# Résumé: 2024\/Q1\n/)
    }))

  it.scoped("epub: a valid EPUB zip with mimetype first and stored", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      const id = yield* submitted(h, "epub")
      yield* TestClock.adjust("1 second")
      yield* settle
      const done = yield* status(h, "epub", id)
      assert.strictEqual(done.state, "completed")
      const url = new URL(done.state === "completed" ? done.data.downloadURL : "")
      const file = yield* h.request({ path: `${url.pathname}${url.search}` })
      assert.strictEqual(file.headers["content-type"], "application/epub+zip")
      assert.match(String(file.headers["content-disposition"]), /filename="document\.epub"/)
      // Local file header: signature, then compression method 0 (stored) for "mimetype" at offset 30.
      assert.strictEqual(file.body.readUInt32LE(0), 0x04034b50)
      assert.strictEqual(file.body.readUInt16LE(8), 0)
      assert.strictEqual(file.body.subarray(30, 38).toString(), "mimetype")
      const entries = unzipSync(new Uint8Array(file.body))
      // Built by the converter's EPUB writer, as a real conversion's output is.
      assert.strictEqual(Object.keys(entries)[0], "mimetype")
      assert.includeMembers(Object.keys(entries), ["META-INF/container.xml", "OEBPS/content.opf", "OEBPS/nav.xhtml"])
      assert.strictEqual(strFromU8(entries["mimetype"]!), "application/epub+zip")
      assert.include(strFromU8(entries["OEBPS/content.opf"]!), "<dc:title>Simulated document</dc:title>")
    }))

  it.scoped("a failed conversion is HTTP 200, success false, with the converter's reason", () =>
    Effect.gen(function*() {
      const h = yield* serve({}, SimulatedConverter.make({ duration: "1 second", failureRate: 1 }))
      const id = yield* submitted(h, "markdown")
      yield* TestClock.adjust("1 second")
      yield* settle
      const failed = yield* status(h, "markdown", id)
      assert.deepStrictEqual(failed, {
        success: false,
        state: "failed",
        progress: 25,
        error: "Not a readable PDF: Simulated conversion failure"
      })
    }))

  it.scoped("retention: a finished task answers 404 once its retention has passed", () =>
    Effect.gen(function*() {
      const h = yield* serve({ conversions: { retention: "1 hour" } })
      const id = yield* submitted(h, "markdown")
      // Never polled again: it must go too.
      yield* submitted(h, "epub")
      yield* TestClock.adjust("1 second")
      yield* settle
      assert.strictEqual((yield* status(h, "markdown", id)).state, "completed")
      yield* TestClock.adjust("59 minutes")
      assert.strictEqual((yield* status(h, "markdown", id)).state, "completed")
      yield* TestClock.adjust("1 minute")
      const gone = yield* poll(h, "markdown", id)
      assert.strictEqual(gone.status, 404)
      assert.deepStrictEqual(Schema.decodeUnknownSync(Contract.NotFoundBody)(gone.json).state, "not_found")
      assert.strictEqual(yield* h.state.store.taskCount, 0)
    }))

  it.scoped("download URLs: expired is 410, tampered is 403, both JSON", () =>
    Effect.gen(function*() {
      const h = yield* serve({ downloadUrlTtl: "15 minutes" })
      const id = yield* submitted(h, "markdown")
      yield* TestClock.adjust("1 second")
      yield* settle
      const done = yield* status(h, "markdown", id)
      const url = new URL(done.state === "completed" ? done.data.downloadURL : "")
      const tampered = new URL(url)
      tampered.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600))
      const forged = yield* h.request({ path: `${tampered.pathname}${tampered.search}` })
      assert.strictEqual(forged.status, 403)
      assert.strictEqual((forged.json as { error: string }).error, "invalid_signature")
      const unsigned = yield* h.request({ path: url.pathname })
      assert.strictEqual(unsigned.status, 403)
      yield* TestClock.adjust("15 minutes")
      const expired = yield* h.request({ path: `${url.pathname}${url.search}` })
      assert.strictEqual(expired.status, 410)
      assert.strictEqual((expired.json as { error: string }).error, "expired")
      // A fresh poll gives a fresh URL that works.
      const again = yield* status(h, "markdown", id)
      const fresh = new URL(again.state === "completed" ? again.data.downloadURL : "")
      assert.strictEqual((yield* h.request({ path: `${fresh.pathname}${fresh.search}` })).status, 200)
    }))

  it.scoped("a task is unknown on the other format's endpoint and to another key", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      const id = yield* submitted(h, "markdown")
      assert.strictEqual((yield* poll(h, "epub", id)).status, 404)
      assert.strictEqual((yield* poll(h, "markdown", id, otherBearer)).status, 404)
      assert.strictEqual((yield* poll(h, "markdown", id)).status, 200)
    }))

  it.scoped("an upload of one key cannot be submitted by another", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      const pdfURL = yield* upload(h)
      const response = yield* submit(h, "markdown", { pdfURL, model: "gundam" }, otherBearer)
      assert.strictEqual(response.status, 400)
      assert.match((response.json as { message: string }).message, /no upload of this server/)
      // And the uploaded file is served with the signature, or with its owner's key only.
      const url = new URL(pdfURL)
      assert.strictEqual((yield* h.request({ path: `${url.pathname}${url.search}` })).status, 200)
      assert.strictEqual((yield* h.request({ path: url.pathname, headers: bearer })).status, 200)
      assert.strictEqual((yield* h.request({ path: url.pathname, headers: otherBearer })).status, 404)
      assert.strictEqual((yield* h.request({ path: url.pathname })).status, 401)
    }))

  it.scoped("conversions run at most maxConcurrent at once; the others wait as processing", () =>
    Effect.gen(function*() {
      const h = yield* serve({ conversions: { maxConcurrent: 1 } })
      const first = yield* submitted(h, "markdown")
      const second = yield* submitted(h, "markdown")
      yield* TestClock.adjust("1 second")
      yield* settle
      assert.strictEqual((yield* status(h, "markdown", first)).state, "completed")
      assert.deepStrictEqual(yield* status(h, "markdown", second), { success: true, state: "processing", progress: 0 })
      yield* TestClock.adjust("1 second")
      yield* settle
      assert.strictEqual((yield* status(h, "markdown", second)).state, "completed")
    }))

  it.scoped("tasks in memory are bounded: when all are processing, a submit gets 503", () =>
    Effect.gen(function*() {
      const h = yield* serve({ conversions: { maxTasks: 2 } })
      yield* submitted(h, "markdown")
      yield* submitted(h, "markdown")
      const pdfURL = yield* upload(h)
      const refused = yield* submit(h, "markdown", { pdfURL, model: "gundam" })
      assert.strictEqual(refused.status, 503)
      yield* TestClock.adjust("1 second")
      yield* settle
      // Finished tasks make room: the oldest finished one is dropped.
      assert.strictEqual((yield* submit(h, "markdown", { pdfURL, model: "gundam" })).status, 200)
      assert.strictEqual(yield* h.state.store.taskCount, 2)
    }))
})

describe("limits (TestClock)", () => {
  const rejected = (response: { status: number; headers: Record<string, unknown>; json: unknown }) => {
    assert.strictEqual(response.status, 429)
    const body = Schema.decodeUnknownSync(Contract.RateLimitedBody)(response.json)
    return { body, retryAfter: response.headers["retry-after"], info: RateLimit.fromHeaders(response.headers as never) }
  }

  it.scoped("rate_exceeded: 429 with Retry-After and RateLimit headers; no task; accepted after the delay", () =>
    Effect.gen(function*() {
      const h = yield* serve({ limits: { rate: { limit: 2, window: "10 seconds" }, quota: false, concurrency: false } })
      const pdfURL = yield* upload(h)
      const first = yield* submit(h, "markdown", { pdfURL, model: "gundam" })
      assert.strictEqual(first.status, 200)
      assert.strictEqual(first.headers["ratelimit-policy"], "\"burst\";q=2;w=10")
      assert.strictEqual(first.headers["ratelimit"], "\"burst\";r=1;t=5")
      assert.strictEqual((yield* submit(h, "markdown", { pdfURL, model: "gundam" })).status, 200)
      const tasksBefore = yield* h.state.store.taskCount
      const { body, info, retryAfter } = rejected(yield* submit(h, "markdown", { pdfURL, model: "gundam" }))
      assert.deepStrictEqual(body, { error: "rate_limited", reason: "rate_exceeded", retryAfterMs: 5000 })
      assert.strictEqual(retryAfter, "5")
      assert.deepStrictEqual(info.states, [{ name: "burst", remaining: 0, reset: 10 }])
      assert.strictEqual(yield* h.state.store.taskCount, tasksBefore)
      yield* TestClock.adjust("5 seconds")
      assert.strictEqual((yield* submit(h, "markdown", { pdfURL, model: "gundam" })).status, 200)
    }))

  it.scoped("quota_exceeded: Retry-After is the end of the window, rounded up to seconds", () =>
    Effect.gen(function*() {
      const h = yield* serve({ limits: { rate: false, quota: { limit: 1, window: "1 hour" }, concurrency: false } })
      yield* TestClock.adjust("1500 millis")
      const pdfURL = yield* upload(h)
      assert.strictEqual((yield* submit(h, "epub", { pdfURL, model: "gundam" })).status, 200)
      const { body, retryAfter } = rejected(yield* submit(h, "markdown", { pdfURL, model: "gundam" }))
      assert.deepStrictEqual(body, { error: "rate_limited", reason: "quota_exceeded", retryAfterMs: 3_598_500 })
      assert.strictEqual(retryAfter, "3599")
    }))

  it.scoped("concurrency_exceeded: held while tasks run, freed when one ends", () =>
    Effect.gen(function*() {
      const h = yield* serve({ limits: { rate: false, quota: false, concurrency: 1 } })
      const pdfURL = yield* upload(h)
      const accepted = yield* submit(h, "markdown", { pdfURL, model: "gundam" })
      assert.strictEqual(accepted.headers["ratelimit-policy"], "\"conc\";q=1;qu=\"concurrent-requests\"")
      assert.strictEqual(accepted.headers["ratelimit"], "\"conc\";r=0")
      const { body, info } = rejected(yield* submit(h, "markdown", { pdfURL, model: "gundam" }))
      assert.strictEqual(body.reason, "concurrency_exceeded")
      assert.strictEqual(info.policies[0]?.unit, "concurrent-requests")
      // Another key has its own limits.
      assert.strictEqual(
        (yield* submit(h, "markdown", { pdfURL: yield* upload(h, otherBearer), model: "gundam" }, otherBearer)).status,
        200
      )
      yield* TestClock.adjust("1 second")
      yield* settle
      assert.strictEqual((yield* submit(h, "markdown", { pdfURL, model: "gundam" })).status, 200)
    }))
})

describe("shutdown", () => {
  it.effect("closing the server's scope interrupts running conversions", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const never = Effect.zipRight(Deferred.succeed(started, undefined), Effect.never).pipe(
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
      )
      const converter: ConverterModule.Service = {
        toMarkdown: () => never,
        toEpub: () => Effect.fail(new PdfInvalid({ reason: "unused" }))
      }
      const scope = yield* Scope.make()
      const h = yield* serve({}, converter).pipe(Scope.extend(scope))
      yield* submitted(h, "markdown")
      yield* Deferred.await(started)
      yield* Scope.close(scope, Exit.void)
      yield* Deferred.await(interrupted)
    }))
})
