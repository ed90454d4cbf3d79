import { PdfTransformClient } from "@pdf-transform/core"
import { FakeServer, TestClockDriver } from "@pdf-transform/testing"
import { Effect, type Fiber, Layer, Redacted } from "effect"

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

/** Runs the clock until `fiber` ends (see `TestClockDriver.runUntilDone`), within `limitMs` of Clock time. */
export const runClockUntilDone = <A, E>(fiber: Fiber.Fiber<A, E>, limitMs: number) =>
  TestClockDriver.runUntilDone(fiber, { limit: limitMs })
