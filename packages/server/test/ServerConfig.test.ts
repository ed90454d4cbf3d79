/**
 * The server's settings: one Schema reads the config file, the environment and the flags' text;
 * a problem names where the value was given, the value and what is allowed; the first source that
 * sets a setting wins; the effective settings show no secret; a key table gives keys their own
 * limits, which the running server applies.
 */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either } from "effect"
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"
import * as ServerConfig from "../src/ServerConfig.js"
import { serve, submit, upload } from "./harness.js"

const decodeFile = (value: unknown) => ServerConfig.decodeFile(JSON.stringify(value), "server.json")

const problemsOf = <A>(result: Either.Either<A, ReadonlyArray<ServerConfig.Problem>>) =>
  Either.isLeft(result) ? result.left.map(({ message, where }) => `${where}: ${message}`) : []

const setting = (flag: string) => ServerConfig.settings.find((s) => s.flag === flag)!

describe("ServerConfig", () => {
  it("a config file with a typo'd key or a negative limit is refused: the path, the value and what is allowed", () => {
    assert.deepStrictEqual(problemsOf(decodeFile({ limits: { concurency: 2 } })), [
      "server.json: limits.concurency: is unexpected, expected: \"rate\" | \"quota\" | \"concurrency\" | " +
      "\"concurrencyRetryAfter\""
    ])
    assert.deepStrictEqual(problemsOf(decodeFile({ limits: { concurrency: -3 } })), [
      "server.json: limits.concurrency: -3 is not a whole number above 0, or false (off)"
    ])
    const two = problemsOf(decodeFile({ prot: 80, conversions: { timeout: "5 parsecs" } })).sort()
    assert.strictEqual(
      two[0],
      "server.json: conversions.timeout: \"5 parsecs\" is not a duration above zero, such as 500ms, 30s, 5m or 1h"
    )
    assert.match(two[1]!, /^server\.json: prot: is unexpected, expected: "port" \| "host" \| /)
    assert.deepStrictEqual(problemsOf(decodeFile({ keys: ["ok", { key: "has space", name: "team" }] })), [
      "server.json: keys.1.key: not an API key: 1 to 4096 visible ASCII characters without spaces"
    ])
    assert.deepStrictEqual(problemsOf(ServerConfig.decodeFile("{\"port\": 80,}", "server.json")).length, 1)
  })

  it("the text of flags and variables is read by the same Schema, each problem named as it was given", () => {
    const read = ServerConfig.decodeText(
      [[setting("limits-rate"), "10/2s"], [setting("uploads-max-bytes"), "64MiB"], [setting("remote-fetch"), "on"]],
      (s) => `--${s.flag}`
    )
    assert.isTrue(Either.isRight(read))
    const settings = Either.getOrThrow(read)
    assert.deepStrictEqual(settings.limits?.rate, { limit: 10, window: Duration.seconds(2) })
    assert.strictEqual(settings.uploads?.maxBytes, 64 * 1024 * 1024)
    assert.strictEqual(settings.remoteFetch?.enabled, true)
    assert.deepStrictEqual(
      problemsOf(
        ServerConfig.decodeEnv({ PDF_TRANSFORM_SERVER_PORT: "70000", PDF_TRANSFORM_SERVER_LIMITS_QUOTA: "x" })
      ),
      [
        "PDF_TRANSFORM_SERVER_PORT: \"70000\" is not a port from 0 (any free port) to 65535",
        "PDF_TRANSFORM_SERVER_LIMITS_QUOTA: \"x\" is not a limit such as 10/1s (so many per window) or " +
        "{\"limit\": 10, \"window\": \"1s\"}, or false (off)"
      ]
    )
  })

  it("a flag beats a variable, which beats the file, which beats the default; setting by setting", () => {
    const file = Either.getOrThrow(decodeFile({ port: 1001, host: "0.0.0.0", limits: { quota: "5/1h" } }))
    const env = Either.getOrThrow(
      ServerConfig.decodeEnv({ PDF_TRANSFORM_SERVER_PORT: "1002", PDF_TRANSFORM_SERVER_LIMITS_RATE: "3/1s" })
    )
    const flags = Either.getOrThrow(ServerConfig.decodeText([[setting("port"), "1003"]], (s) => s.flag))
    const merged = ServerConfig.merge(flags, env, file)
    assert.strictEqual(merged.port, 1003)
    assert.strictEqual(merged.host, "0.0.0.0")
    assert.deepStrictEqual(merged.limits, {
      rate: { limit: 3, window: Duration.seconds(1) },
      quota: { limit: 5, window: Duration.hours(1) }
    })
    const shown = ServerConfig.effective(ServerConfig.merge(env, file))
    assert.strictEqual(shown["port"], 1002)
    assert.deepStrictEqual((shown["limits"] as Record<string, unknown>)["concurrency"], 8)
    assert.deepStrictEqual((shown["conversions"] as Record<string, unknown>)["timeout"], "5m")
  })

  it("the effective settings show no secret: keys, the signing key and the database URL are redacted", () => {
    const secrets = ["first-secret-key", "second-secret-key", "signing-key-of-32-bytes-0123456", "postgres://u:pw@db/x"]
    const settings = Either.getOrThrow(decodeFile({
      keys: [secrets[0], { key: secrets[1], name: "batch", limits: { concurrency: 32 } }],
      signingKey: secrets[2],
      databaseUrl: secrets[3]
    }))
    const text = JSON.stringify(ServerConfig.effective(settings))
    for (const secret of secrets) assert.notInclude(text, secret)
    assert.include(text, "\"name\":\"batch\"")
    assert.strictEqual((text.match(/<redacted>/g) ?? []).length, 4)
  })

  it.effect("the environment through Config: an unusable value is a ConfigError naming the variable", () =>
    Effect.gen(function*() {
      const provider = ConfigProvider.fromMap(new Map([["PDF_TRANSFORM_SERVER_CONVERSIONS_MAX_CONCURRENT", "0"]]))
      const result = yield* Effect.either(Effect.withConfigProvider(ServerConfig.fromEnv, provider))
      assert.isTrue(Either.isLeft(result))
      assert.include(
        String(Either.isLeft(result) ? result.left : ""),
        "PDF_TRANSFORM_SERVER_CONVERSIONS_MAX_CONCURRENT"
      )
    }))

  it("the example config file of the README is whole and valid", () => {
    const file = fileURLToPath(new URL("../../../examples/server/server.json", import.meta.url))
    const settings = ServerConfig.decodeFile(Fs.readFileSync(file, "utf8"), file)
    assert.deepStrictEqual(problemsOf(settings), [])
    // Every group of settings appears in it, so it shows an operator the whole shape.
    const top = Object.keys(JSON.parse(Fs.readFileSync(file, "utf8")) as object)
    for (const group of ["keys", "limits", "conversions", "uploads", "remoteFetch", "node"]) {
      assert.include(top, group)
    }
  })

  it("the README's table names every setting, its flag and its place in the file", () => {
    const readme = Fs.readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8")
    for (const { flag, path } of ServerConfig.settings) {
      assert.include(readme, `\`--${flag}\``)
      assert.include(readme, path.length === 1 ? `\`${path[0]}\`` : `.${path[path.length - 1]}`, flag)
    }
  })

  it.scoped("a key table gives a key limits of its own; the others keep the server's", () =>
    Effect.gen(function*() {
      const settings = Either.getOrThrow(decodeFile({
        keys: ["plain-key", { key: "tight-key", name: "tight", limits: { concurrency: 1 } }],
        limits: { rate: false, concurrency: 3 }
      }))
      const { keys, limits } = ServerConfig.toOptions(settings)
      assert.isDefined(keys)
      const h = yield* serve({ keys: keys!, ...(limits === undefined ? {} : { limits }) })
      const submits = (authorization: string) =>
        Effect.gen(function*() {
          const headers = { authorization }
          const pdfURL = yield* upload(h, headers)
          const answers: Array<readonly [number, string]> = []
          for (let i = 0; i < 4; i++) {
            const answer = yield* submit(h, "markdown", { pdfURL, model: "gundam" }, headers)
            answers.push([answer.status, String(answer.headers["ratelimit-policy"])])
          }
          return answers
        })
      const tight = yield* submits("Bearer tight-key")
      assert.deepStrictEqual(tight.map(([status]) => status), [200, 429, 429, 429])
      assert.strictEqual(tight[0]![1], "\"quota\";q=1000;w=3600, \"conc\";q=1;qu=\"concurrent-requests\"")
      const plain = yield* submits("Bearer plain-key")
      assert.deepStrictEqual(plain.map(([status]) => status), [200, 200, 200, 429])
      assert.strictEqual(plain[0]![1], "\"quota\";q=1000;w=3600, \"conc\";q=3;qu=\"concurrent-requests\"")
    }))
})
