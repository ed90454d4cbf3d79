import { HttpClient } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { PdfTransformClient } from "@pdf-transform/core"
import { FakeServer } from "@pdf-transform/testing"
import { ConfigProvider, Effect, Layer, Logger, LogLevel, Option, Redacted, Stream, Tracer } from "effect"
import { baseUrl, pdfURL } from "./utils.js"

const secret = "sk-live-do-not-leak-1234"

interface Recorded {
  readonly spans: Array<{ readonly name: string; readonly attributes: Map<string, unknown> }>
  readonly logs: Array<string>
}

/** A tracer that keeps every span, to look for the key in names and attributes. */
const recordingTracer = (recorded: Recorded) =>
  Tracer.make({
    span: (name, parent, context, links, startTime, kind) => {
      const attributes = new Map<string, unknown>()
      const span: Tracer.Span = {
        _tag: "Span",
        name,
        spanId: `span-${recorded.spans.length}`,
        traceId: "trace",
        parent,
        context,
        status: { _tag: "Started", startTime },
        attributes,
        links,
        sampled: true,
        kind,
        end: () => {},
        attribute: (key, value) => {
          attributes.set(key, value)
        },
        event: () => {},
        addLinks: () => {}
      }
      recorded.spans.push({ name, attributes })
      return span
    },
    context: (f) => f()
  })

/**
 * The fake behind `HttpClient.make`, the constructor every real platform client uses, so that the
 * platform's own request spans (with their header attributes) are part of what is checked.
 */
const platformLikeClient = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(FakeServer.FakeServer, (server) => HttpClient.make((request) => server.httpClient.execute(request)))
)

describe("observability", () => {
  // Live clock: the 429 retry waits 0 ms for real, and nothing else waits.
  it.live("every operation is a span with the sessionId; the API key is nowhere in spans, logs or errors", () =>
    Effect.gen(function*() {
      const recorded: Recorded = { spans: [], logs: [] }
      const logger = Logger.make(({ annotations, message }) => {
        recorded.logs.push(`${String(message)} ${JSON.stringify(Object.fromEntries(annotations))}`)
      })
      const program = Effect.gen(function*() {
        const server = yield* FakeServer.FakeServer
        const client = yield* PdfTransformClient.PdfTransformClient
        yield* server.enqueueSubmit({ _tag: "RateLimited", retryAfterMs: 0 })
        const done = yield* client.convert("markdown", { pdfURL })
        yield* Stream.runDrain(client.download(done))
        yield* Effect.logInfo("done").pipe(Effect.annotateLogs("sessionId", done.sessionId))
        return done
      })
      const done = yield* program.pipe(
        Effect.provide(
          PdfTransformClient.layer({ apiKey: Redacted.make(secret), baseUrl, poll: { jitter: false } }).pipe(
            Layer.provideMerge(platformLikeClient),
            Layer.provideMerge(FakeServer.layer({ baseUrl, apiKeys: [secret] }))
          )
        ),
        Effect.withTracer(recordingTracer(recorded)),
        Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
        Logger.withMinimumLogLevel(LogLevel.All)
      )
      assert.isTrue(recorded.logs.some((line) => line.includes("retrying")), "the retry was not logged")
      const names = new Set(recorded.spans.map((s) => s.name))
      for (
        const name of [
          "PdfTransformClient.submit",
          "PdfTransformClient.convert",
          "PdfTransformClient.awaitCompletion",
          "PdfTransformClient.poll",
          "PdfTransformClient.download"
        ]
      ) assert.isTrue(names.has(name), `missing span ${name}: ${[...names].join(", ")}`)
      const poll = recorded.spans.find((s) => s.name === "PdfTransformClient.poll")
      assert.strictEqual(poll?.attributes.get("sessionId"), done.sessionId)
      const submit = recorded.spans.find((s) => s.name === "PdfTransformClient.submit")
      assert.strictEqual(submit?.attributes.get("sessionId"), done.sessionId)
      // The platform's request spans exist and carry (redacted) headers: the check below has teeth.
      assert.isTrue(
        recorded.spans.some((s) => [...s.attributes.keys()].some((k) => k.startsWith("http.request.header"))),
        "no request header attributes recorded"
      )
      const everything = JSON.stringify([
        recorded.spans.map((s) => [s.name, [...s.attributes.entries()].map(([k, v]) => [k, String(v)])]),
        recorded.logs
      ])
      assert.notInclude(everything, secret)
    }))

  it.effect("an error never shows the key", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const error = yield* Effect.flip(client.submit("markdown", { pdfURL }))
      assert.strictEqual(error._tag, "Unauthenticated")
      assert.notInclude(JSON.stringify(error), secret)
      assert.notInclude(String(error), secret)
      assert.notInclude(error.stack ?? "", secret)
    }).pipe(Effect.provide(
      PdfTransformClient.layer({ apiKey: Redacted.make(secret), baseUrl }).pipe(
        Layer.provideMerge(FakeServer.layer({ baseUrl }))
      )
    )))
})

describe("layerConfig", () => {
  it.effect("reads PDF_TRANSFORM_API_KEY (redacted) and PDF_TRANSFORM_BASE_URL", () =>
    Effect.gen(function*() {
      const client = yield* PdfTransformClient.PdfTransformClient
      const task = yield* client.submit("markdown", { pdfURL })
      assert.isTrue(task.sessionId.length > 0)
    }).pipe(
      Effect.provide(PdfTransformClient.layerConfig().pipe(Layer.provideMerge(FakeServer.layer({ baseUrl })))),
      Effect.withConfigProvider(ConfigProvider.fromMap(
        new Map([["PDF_TRANSFORM_API_KEY", FakeServer.defaultApiKey], ["PDF_TRANSFORM_BASE_URL", baseUrl]])
      ))
    ))

  it.effect("fails with a ConfigError when the key is missing", () =>
    Effect.gen(function*() {
      const result = yield* Effect.either(Layer.build(PdfTransformClient.layerConfig()).pipe(Effect.scoped))
      assert.isTrue(result._tag === "Left")
    }).pipe(
      Effect.provide(FakeServer.layer({ baseUrl })),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map()))
    ))

  it.effect("the default base URL is the hosted service", () =>
    Effect.sync(() => {
      assert.strictEqual(PdfTransformClient.defaultBaseUrl, "https://fusion-api.oomol.com/v1")
      assert.deepStrictEqual(Option.some(PdfTransformClient.defaults.poll.factor), Option.some(1.5))
    }))
})
