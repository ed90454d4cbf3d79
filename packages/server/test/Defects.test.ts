/**
 * The server defects of issue 10, each pinned by a test that failed before its fix.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Contract from "@pdf-transform/core/Contract"
import { ConfigProvider, Effect, Exit, Layer, Logger, LogLevel, TestClock } from "effect"
import * as Server from "../src/Server.js"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import { bearer, json, serve, settle, status, submitted, upload } from "./harness.js"
import type { Harness } from "./harness.js"
import { fakePdf } from "./utils.js"

const submitPath = `/v1${Contract.paths.markdownSubmit}`
const withKey = { ...bearer, ...json }

/** A logger that keeps every line at Warning or above, to assert that nothing was logged as an error. */
const recordingLogger = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ logLevel, message }) => {
    if (LogLevel.greaterThanEqual(logLevel, LogLevel.Warning)) lines.push(`${logLevel.label} ${String(message)}`)
  })
  return { lines, layer: Logger.replace(Logger.defaultLogger, logger) }
}

const completedDownload = (h: Harness) =>
  Effect.gen(function*() {
    const pdfURL = yield* upload(h)
    const sessionID = yield* submitted(h, "markdown", { pdfURL })
    yield* TestClock.adjust("1 second")
    yield* settle
    const done = yield* status(h, "markdown", sessionID)
    return { download: new URL(done.state === "completed" ? done.data.downloadURL : ""), file: new URL(pdfURL) }
  })

/** The signature variants that decode to the same 32 bytes in a lenient base64url decoder. */
const lenientVariants = (signature: string): ReadonlyArray<readonly [string, string]> => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
  const last = alphabet.indexOf(signature[signature.length - 1]!)
  // 32 bytes take 42 full characters and 4 bits of the 43rd: its 2 low bits are ignored by the decoder.
  const sameBytes = `${signature.slice(0, -1)}${alphabet[last ^ 1]}`
  return [
    ["a dot inserted", `${signature.slice(0, 10)}.${signature.slice(10)}`],
    ["%21 inserted", `${signature.slice(0, 10)}%21${signature.slice(10)}`],
    ["%20 inserted", `${signature.slice(0, 10)}%20${signature.slice(10)}`],
    ["a trailing =", `${signature}=`],
    ["the last character's ignored bits changed", sameBytes]
  ]
}

describe("issue 10 defects", () => {
  it.scoped("a submit body nested thousands of levels deep is a 400 with a short message and no error log", () => {
    const recorder = recordingLogger()
    return Effect.gen(function*() {
      const h = yield* serve()
      const depth = 5000
      const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`
      for (
        const body of [nested, `{"pdfURL":${nested},"model":"gundam"}`, `{"pdfURL":"http://x/a.pdf","model":${nested}}`]
      ) {
        const response = yield* h.request({ method: "POST", path: submitPath, headers: withKey, body })
        assert.strictEqual(response.status, 400, response.body.toString().slice(0, 300))
        assert.isBelow(response.body.byteLength, 500)
        assert.match((response.json as { message: string }).message, /nested/)
      }
      assert.deepStrictEqual(recorder.lines, [])
    }).pipe(Effect.provide(recorder.layer))
  })

  it.scoped("a download or file signature with extra or ignored characters is 403", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      const { download, file } = yield* completedDownload(h)
      for (const url of [download, file]) {
        assert.strictEqual((yield* h.request({ path: `${url.pathname}${url.search}` })).status, 200)
        const signature = url.searchParams.get("signature")!
        assert.strictEqual(signature.length, 43)
        const expires = url.searchParams.get("expires")!
        for (const [name, variant] of lenientVariants(signature)) {
          const response = yield* h.request({ path: `${url.pathname}?expires=${expires}&signature=${variant}` })
          assert.strictEqual(response.status, 403, `${url.pathname}: ${name}`)
        }
      }
    }))

  it.scoped("a 401 without credentials has no error code in WWW-Authenticate; a wrong key keeps invalid_token", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      const missing = yield* h.request({ path: "/v1/openapi.json" })
      assert.strictEqual(missing.status, 401)
      assert.strictEqual(missing.headers["www-authenticate"], "Bearer realm=\"pdf-transform\"")
      const wrong = yield* h.request({ path: "/v1/openapi.json", headers: { authorization: "Bearer wrong" } })
      assert.strictEqual(wrong.status, 401)
      assert.match(String(wrong.headers["www-authenticate"]), /^Bearer realm="pdf-transform", error="invalid_token"/)
    }))

  it.scoped("an invalid boolean field is reported once", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      const response = yield* h.request({
        method: "POST",
        path: submitPath,
        headers: withKey,
        body: JSON.stringify({ pdfURL: "http://127.0.0.1/x", model: "gundam", ignore_pdf_errors: "yes" })
      })
      assert.strictEqual(response.status, 400)
      assert.strictEqual(
        (response.json as { message: string }).message,
        "ignore_pdf_errors: Expected boolean, actual \"yes\""
      )
    }))

  it.effect("an invalid value in Server.layerConfig's configuration is a ConfigError, not a defect", () =>
    Effect.gen(function*() {
      const converter = SimulatedConverter.layer({ duration: "100 millis" })
      for (
        const [name, map] of [
          ["a short signing key", { PDF_TRANSFORM_SERVER_SIGNING_KEY: "short" }],
          ["a key no header can carry", { PDF_TRANSFORM_SERVER_KEYS: "has space,ok" }],
          ["a public URL that is not http(s)", { PDF_TRANSFORM_SERVER_PUBLIC_URL: "ftp://example.test" }]
        ] as const
      ) {
        const provider = ConfigProvider.fromMap(
          new Map(Object.entries({ PDF_TRANSFORM_SERVER_KEYS: "k1", PDF_TRANSFORM_SERVER_PORT: "0", ...map }))
        )
        const exit = yield* Effect.exit(
          Effect.scoped(Layer.build(
            Server.layerConfig().pipe(
              Layer.provide(converter),
              Layer.provide(Layer.setConfigProvider(provider))
            )
          ))
        )
        assert.isTrue(Exit.isFailure(exit), name)
        if (Exit.isFailure(exit)) {
          const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
          assert.isTrue(failure !== undefined && "_op" in failure && failure._op === "InvalidData", `${name}: ${exit}`)
        }
      }
    }))

  it.scoped("POST /v1/files stores the file part of a multipart body, and refuses what is not a PDF", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      const pdf = fakePdf(300)
      const boundary = "----form-boundary-7MA4YWxkTrZu0gW"
      const multipart = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n`),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`
        ),
        pdf,
        Buffer.from(`\r\n--${boundary}--\r\n`)
      ])
      const stored = yield* h.request({
        method: "POST",
        path: "/v1/files",
        headers: { ...bearer, "content-type": `multipart/form-data; boundary=${boundary}` },
        body: multipart
      })
      assert.strictEqual(stored.status, 201, stored.body.toString())
      const url = new URL((stored.json as { url: string }).url)
      const served = yield* h.request({ path: `${url.pathname}${url.search}` })
      assert.deepStrictEqual(new Uint8Array(served.body), pdf)
      for (
        const [name, contentType, body] of [
          ["an envelope sent as octet-stream", "application/octet-stream", multipart],
          ["junk before %PDF-", "application/pdf", Buffer.concat([Buffer.from("junk\n"), pdf])],
          [
            "a multipart body without a file part",
            `multipart/form-data; boundary=${boundary}`,
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`
            )
          ]
        ] as const
      ) {
        const refused = yield* h.request({
          method: "POST",
          path: "/v1/files",
          headers: { ...bearer, "content-type": contentType },
          body: body
        })
        assert.strictEqual(refused.status, 400, `${name}: ${refused.body.toString()}`)
      }
    }))
})
