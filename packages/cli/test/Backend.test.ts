import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import * as Backend from "../src/internal/backend.js"

const none = { apiKey: Option.none(), baseUrl: Option.none(), uploadBaseUrl: Option.none() }
const withEnv = (env: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("the backend", () => {
  it.effect("is this machine when neither a key nor a base URL is given", () =>
    Effect.gen(function*() {
      const backend = yield* Backend.choose(none).pipe(withEnv({ PDF_TRANSFORM_API_KEY: " " }))
      assert.deepStrictEqual(backend, { _tag: "Embedded" })
      assert.match(Backend.describe(backend), /^Backend: this machine/)
    }))

  it.effect("is the hosted service with a key alone, from the environment", () =>
    Effect.gen(function*() {
      const backend = yield* Backend.choose(none).pipe(withEnv({ PDF_TRANSFORM_API_KEY: "secret" }))
      assert.strictEqual(backend._tag, "Remote")
      if (backend._tag !== "Remote") return
      assert.strictEqual(backend.baseUrl, "https://fusion-api.oomol.com/v1")
      assert.isTrue(backend.hosted)
      assert.strictEqual(Redacted.value(backend.apiKey), "secret")
      assert.strictEqual(
        Backend.describe(backend),
        "Backend: https://fusion-api.oomol.com/v1 (the hosted service), API key from PDF_TRANSFORM_API_KEY"
      )
    }))

  it.effect("flags win over the environment; a base URL needs a key and must be http(s)", () =>
    Effect.gen(function*() {
      const env = withEnv({ PDF_TRANSFORM_API_KEY: "env-key", PDF_TRANSFORM_BASE_URL: "http://env/v1" })
      const flagged = yield* Backend.choose({
        ...none,
        apiKey: Option.some(Redacted.make("flag-key")),
        baseUrl: Option.some("http://127.0.0.1:8787/v1/")
      }).pipe(env)
      assert.strictEqual(flagged._tag === "Remote" && flagged.baseUrl, "http://127.0.0.1:8787/v1")
      assert.strictEqual(flagged._tag === "Remote" && flagged.keyFrom, "--api-key")
      const keyless = yield* Effect.flip(
        Backend.choose({ ...none, baseUrl: Option.some("http://h/v1") }).pipe(withEnv({}))
      )
      assert.include(keyless.message, "needs an API key")
      const ftp = yield* Effect.flip(
        Backend.choose({ ...none, baseUrl: Option.some("ftp://h/v1") }).pipe(withEnv({ PDF_TRANSFORM_API_KEY: "k" }))
      )
      assert.include(ftp.message, "--base-url must be an http(s) URL")
    }))

  it.effect("uploads through a reference server's /v1/files, and through the chunked protocol to the hosted service", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(Backend.uploadRoute({ _tag: "Embedded" }), { _tag: "Files" })
      const remote = (baseUrl: string, uploadBaseUrl?: string) =>
        Backend.choose({
          apiKey: Option.some(Redacted.make("k")),
          baseUrl: Option.some(baseUrl),
          uploadBaseUrl: Option.fromNullable(uploadBaseUrl)
        }).pipe(withEnv({}))
      assert.deepStrictEqual(Backend.uploadRoute(yield* remote("http://127.0.0.1:8787/v1")), { _tag: "Files" })
      assert.deepStrictEqual(Backend.uploadRoute(yield* remote("https://fusion-api.oomol.com/v1")), {
        _tag: "Chunked",
        uploadBaseUrl: Backend.hostedUploadBaseUrl
      })
      assert.deepStrictEqual(
        Backend.uploadRoute(yield* remote("http://127.0.0.1:8787/v1", "http://127.0.0.1:8787/v1/uploads")),
        { _tag: "Chunked", uploadBaseUrl: "http://127.0.0.1:8787/v1/uploads" }
      )
    }))
})
