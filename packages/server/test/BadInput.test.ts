import { assert, describe, it } from "@effect/vitest"
import * as Contract from "@pdf-transform/core/Contract"
import { Cause, Effect, Schema, TestClock } from "effect"
import { bearer, serve, settle, status, submitted } from "./harness.js"
import { fakePdf } from "./utils.js"
import type { RawRequest } from "./utils.js"

interface Case {
  readonly name: string
  readonly request: RawRequest
  readonly status: number
  /** A fragment the JSON body's text must contain. */
  readonly mentions?: string
}

const submitPath = `/v1${Contract.paths.markdownSubmit}`
const resultPath = `/v1/pdf-transform-markdown/result/`
const json = { ...bearer, "content-type": "application/json" }

const submitCase = (name: string, body: string | Uint8Array, status: number, mentions?: string): Case => ({
  name,
  request: { method: "POST", path: submitPath, headers: json, body },
  status,
  ...(mentions === undefined ? {} : { mentions })
})

const withUrl = (name: string, pdfURL: string, mentions?: string): Case =>
  submitCase(name, JSON.stringify({ pdfURL, model: "gundam" }), 400, mentions)

const cases: ReadonlyArray<Case> = [
  // Authentication, on every route.
  { name: "submit without Authorization", request: { method: "POST", path: submitPath, body: "{}" }, status: 401 },
  {
    name: "Basic credentials",
    request: { method: "POST", path: submitPath, headers: { authorization: "Basic dXNlcjpwYXNz" }, body: "{}" },
    status: 401
  },
  {
    name: "Bearer without a key",
    request: { method: "POST", path: submitPath, headers: { authorization: "Bearer" }, body: "{}" },
    status: 401
  },
  {
    name: "a wrong key",
    request: { method: "POST", path: submitPath, headers: { authorization: "Bearer wrong" }, body: "{}" },
    status: 401
  },
  {
    name: "a key with a valid prefix",
    request: { path: `${resultPath}x`, headers: { authorization: "Bearer test-key-1x" } },
    status: 401
  },
  {
    name: "a key followed by junk",
    request: { path: `${resultPath}x`, headers: { authorization: "Bearer test-key-1 junk" } },
    status: 401
  },
  {
    name: "another scheme",
    request: { path: `${resultPath}x`, headers: { authorization: "Token test-key-1" } },
    status: 401
  },
  {
    name: "a very long key",
    request: { path: `${resultPath}x`, headers: { authorization: `Bearer ${"k".repeat(6000)}` } },
    status: 401
  },
  { name: "result without Authorization", request: { path: `${resultPath}x` }, status: 401 },
  {
    name: "upload without Authorization",
    request: { method: "POST", path: "/v1/files", body: fakePdf() },
    status: 401
  },
  { name: "unknown route without Authorization", request: { path: "/v1/admin" }, status: 401 },
  { name: "openapi without Authorization", request: { path: "/v1/openapi.json" }, status: 401 },
  // Bodies.
  submitCase("not JSON", "{\"pdfURL\": ", 400, "JSON"),
  submitCase("an empty body", "", 400, "JSON"),
  submitCase("a JSON array", "[]", 400),
  submitCase("JSON null", "null", 400),
  submitCase("a JSON string", "\"http://x/a.pdf\"", 400),
  submitCase("missing pdfURL", JSON.stringify({ model: "gundam" }), 400, "pdfURL"),
  submitCase("another model", JSON.stringify({ pdfURL: "http://127.0.0.1/v1/files/x", model: "gpt" }), 400, "model"),
  submitCase("missing model", JSON.stringify({ pdfURL: "http://127.0.0.1/v1/files/x" }), 400, "model"),
  submitCase("pdfURL of the wrong type", JSON.stringify({ pdfURL: 42, model: "gundam" }), 400, "pdfURL"),
  submitCase("a relative pdfURL", JSON.stringify({ pdfURL: "/v1/files/x", model: "gundam" }), 400, "pdfURL"),
  submitCase("a file: pdfURL", JSON.stringify({ pdfURL: "file:///etc/passwd", model: "gundam" }), 400, "pdfURL"),
  submitCase("a javascript: pdfURL", JSON.stringify({ pdfURL: "javascript:alert(1)", model: "gundam" }), 400, "pdfURL"),
  submitCase(
    "a string where a boolean goes",
    JSON.stringify({ pdfURL: "http://127.0.0.1/x", model: "gundam", ignore_pdf_errors: "yes" }),
    400,
    "ignore_pdf_errors"
  ),
  submitCase(
    "a filename too long",
    JSON.stringify({ pdfURL: "http://127.0.0.1/x", model: "gundam", filename: "f".repeat(300) }),
    400,
    "filename"
  ),
  submitCase(
    "a filename of the wrong type",
    JSON.stringify({ pdfURL: "http://127.0.0.1/x", model: "gundam", filename: ["a"] }),
    400,
    "filename"
  ),
  submitCase("invalid UTF-8", new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 400, "UTF-8"),
  submitCase("a huge body with Content-Length", `{"pdfURL":"${"a".repeat(200_000)}"}`, 413),
  {
    name: "a huge chunked body",
    request: { method: "POST", path: submitPath, headers: json, body: `{"x":"${"a".repeat(200_000)}"}`, chunked: true },
    status: 413
  },
  // pdfURL that names no upload.
  withUrl("an unknown upload of this server", "http://127.0.0.1:1/v1/files/does-not-exist", "pdfURL"),
  // SSRF: remote fetching is on; every one of these is refused at submit time.
  withUrl("loopback IPv4", "http://127.0.0.1/x.pdf", "public"),
  withUrl("cloud metadata", "http://169.254.169.254/latest/meta-data/", "public"),
  withUrl("loopback IPv6", "http://[::1]/x.pdf", "public"),
  withUrl("a name resolving to loopback", "http://localhost:9/x.pdf", "public"),
  withUrl("IPv4-mapped IPv6 loopback", "http://[::ffff:127.0.0.1]/x.pdf", "public"),
  withUrl("a private network", "http://10.0.0.1/x.pdf", "public"),
  withUrl("CGNAT", "http://100.64.1.1/x.pdf", "public"),
  withUrl("unique-local IPv6", "http://[fd00::1]/x.pdf", "public"),
  withUrl("link-local IPv6", "http://[fe80::1]/x.pdf", "public"),
  withUrl("the unspecified address", "http://0/x.pdf", "public"),
  withUrl("loopback as a decimal number", "http://2130706433/x.pdf", "public"),
  withUrl("loopback in hex", "http://0x7f.0.0.1/x.pdf", "public"),
  withUrl("credentials in the URL", "https://user:pw@8.8.8.8/x.pdf", "credentials"),
  withUrl("not http", "ftp://8.8.8.8/x.pdf", "pdfURL"),
  // Paths.
  {
    name: "encoded ../ in taskId",
    request: { path: `${resultPath}..%2F..%2Fetc%2Fpasswd`, headers: bearer },
    status: 404
  },
  { name: "encoded dots and slash", request: { path: `${resultPath}%2e%2e%2fsecrets`, headers: bearer }, status: 404 },
  { name: "an encoded slash", request: { path: `${resultPath}a%2Fb`, headers: bearer }, status: 404 },
  {
    name: "a taskId over 100 characters",
    request: { path: `${resultPath}${"a".repeat(200)}`, headers: bearer },
    status: 404
  },
  { name: "a very long path", request: { path: `${resultPath}${"a".repeat(5000)}`, headers: bearer }, status: 414 },
  { name: "a malformed escape", request: { path: `${resultPath}%E0%A4%A`, headers: bearer }, status: 400 },
  { name: "an empty taskId", request: { path: resultPath, headers: bearer }, status: 404 },
  { name: "a raw ../ in the path", request: { path: `${resultPath}x/../../files`, headers: bearer }, status: 404 },
  { name: "a NUL in the taskId", request: { path: `${resultPath}a%00b`, headers: bearer }, status: 404 },
  { name: "the wrong method", request: { path: submitPath, headers: bearer }, status: 404 },
  { name: "an unknown route", request: { path: "/v1/admin", headers: bearer }, status: 404 },
  {
    name: "a forged download signature",
    request: { path: "/v1/downloads/x?expires=99999999999&signature=abc" },
    status: 403
  },
  { name: "a download without signature", request: { path: "/v1/downloads/..%2F..%2Fetc" }, status: 403 },
  { name: "an unknown file", request: { path: "/v1/files/nope", headers: bearer }, status: 404 },
  // Uploads.
  {
    name: "an upload that is not a PDF",
    request: { method: "POST", path: "/v1/files", headers: bearer, body: "<html>hi</html>" },
    status: 400,
    mentions: "PDF"
  },
  { name: "an empty upload", request: { method: "POST", path: "/v1/files", headers: bearer, body: "" }, status: 400 },
  {
    name: "an upload over the limit",
    request: { method: "POST", path: "/v1/files", headers: bearer, body: fakePdf(2 * 1024 * 1024) },
    status: 413
  },
  {
    name: "a chunked upload over the limit",
    request: { method: "POST", path: "/v1/files", headers: bearer, body: fakePdf(2 * 1024 * 1024), chunked: true },
    status: 413
  }
]

describe("bad input", () => {
  it.scoped(`${cases.length} malformed requests each get the right 4xx with a JSON body; the server still serves`, () =>
    Effect.gen(function*() {
      assert.isAtLeast(cases.length, 30)
      const h = yield* serve({ remoteFetch: { enabled: true }, uploads: { maxBytes: 1024 * 1024 } })
      const failures: Array<string> = []
      for (const { mentions, name, request, status } of cases) {
        const exit = yield* Effect.exit(h.request(request))
        if (exit._tag === "Failure") {
          failures.push(`${name}: no answer (${String(Cause.squash(exit.cause))})`)
          continue
        }
        const response = exit.value
        const text = response.body.toString("utf8")
        if (response.status !== status) failures.push(`${name}: HTTP ${response.status} (expected ${status}) ${text}`)
        if (!String(response.headers["content-type"]).startsWith("application/json") || response.json === undefined) {
          failures.push(`${name}: not a JSON body: ${text.slice(0, 100)}`)
        }
        if (mentions !== undefined && !text.includes(mentions)) {
          failures.push(`${name}: body does not mention ${mentions}: ${text}`)
        }
        if (status === 401) {
          const www = String(response.headers["www-authenticate"])
          // RFC 6750 §3.1: no error code when no credential was sent.
          const expected = request.headers?.["authorization"] === undefined
            ? /^Bearer realm="pdf-transform"$/
            : /^Bearer realm="pdf-transform", error="invalid_token"/
          if (!expected.test(www)) {
            failures.push(`${name}: challenge ${www}`)
          }
          if (!Schema.is(Contract.UnauthenticatedBody)(response.json)) failures.push(`${name}: 401 body ${text}`)
        }
        if (status === 404 && request.path.startsWith(resultPath)) {
          if (!Schema.is(Contract.NotFoundBody)(response.json)) failures.push(`${name}: 404 body ${text}`)
        }
      }
      assert.deepStrictEqual(failures, [])
      assert.strictEqual(yield* h.state.store.taskCount, 0)

      // Still serving: a whole valid round trip.
      const sessionID = yield* submitted(h, "markdown")
      yield* TestClock.adjust("1 second")
      yield* settle
      assert.strictEqual((yield* status(h, "markdown", sessionID)).state, "completed")
    }))
})
