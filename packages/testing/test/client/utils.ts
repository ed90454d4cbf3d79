import { PdfTransformClient } from "@pdf-transform/core"
import { Chunk, Clock, Effect, Fiber, Layer, Option, Redacted, TestClock } from "effect"
import { FakeServer } from "../../src/index.js"

export const baseUrl = "https://fake.pdf-transform.test/v1"

/** The real client on FakeServer; jitter off so that times are exact unless a test turns it on. */
export const makeLayer = (
  options: {
    readonly server?: FakeServer.Options
    readonly client?: Partial<PdfTransformClient.Options>
  } = {}
) =>
  PdfTransformClient.layer({
    apiKey: Redacted.make(FakeServer.defaultApiKey),
    baseUrl,
    ...options.client,
    poll: { jitter: false, ...options.client?.poll }
  }).pipe(Layer.provideMerge(FakeServer.layer({ baseUrl, ...options.server })))

export const submits = Effect.map(
  FakeServer.FakeServer,
  (server) => Effect.map(server.requests, (all) => all.filter((r) => r.method === "POST" && r.path.endsWith("/submit")))
).pipe(Effect.flatten)

export const polls = Effect.map(
  FakeServer.FakeServer,
  (server) => Effect.map(server.requests, (all) => all.filter((r) => r.method === "GET" && r.path.includes("/result/")))
).pipe(Effect.flatten)

export const createdTasks = Effect.flatMap(FakeServer.FakeServer, (server) => server.tasks)

export const pdfURL = "https://files.example.com/paper.pdf"

/**
 * Moves the TestClock until `fiber` ends or `limitMs` has passed, then joins it: by 1 s, or
 * straight to the next pending sleep when that is further. Each move costs a few real timer
 * turns (TestClock waits for fibers to suspend), so a 10-minute wait of 10 s polls takes one move
 * per poll instead of one per second: under a loaded CI machine the per-second walk took more than
 * vitest's 5 s.
 */
export const runClockUntilDone = <A, E>(fiber: Fiber.Fiber<A, E>, limitMs: number) =>
  Effect.gen(function*() {
    const start = yield* Clock.currentTimeMillis
    yield* TestClock.adjust(0)
    while (Option.isNone(yield* Fiber.poll(fiber))) {
      const now = yield* Clock.currentTimeMillis
      if (now - start >= limitMs) break
      const pending = (yield* TestClock.sleeps()).pipe(Chunk.filter((at) => at > now))
      const next = Math.max(now + 1000, Chunk.isNonEmpty(pending) ? Math.min(...pending) : 0)
      yield* TestClock.adjust(Math.min(next, start + limitMs) - now)
    }
    return yield* Fiber.join(fiber)
  })
