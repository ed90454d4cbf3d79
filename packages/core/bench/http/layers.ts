/**
 * Where a request's CPU goes, layer by layer (issue 15's next step): each variant runs in its own
 * process against the loopback peer (tasks complete at once: BENCH_TASK_MS=0), 64 at a time, and
 * prints CPU per operation, the median of three processes (one run swings by a third on a
 * two-core machine, where the peer and the client share the cores). From the bare transport up: undici's `request`, `fetch`, the
 * platform's `HttpClient` over `layerUndici`, our exchange (time limit, classification), then the
 * client's own operations. Then, without sockets, the Effect constructs a request is built from.
 *
 *   pnpm --filter @pdf-transform/core bench:layers
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Channel, Chunk, Duration, Effect, Fiber, Layer, ManagedRuntime, Redacted, Stream } from "effect"
import { execFileSync, spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { request as undiciRequest } from "undici"
import { PdfTransformClient } from "../../src/index.js"
import * as exchange from "../../src/internal/exchange.js"

const here = fileURLToPath(import.meta.url)
const count = Number(process.env["BENCH_OPS"] ?? 6000)
const concurrency = 64
const pdfURL = "https://files.example.com/paper.pdf"

/** CPU of this process per call of `run(n)`, after a warm-up of a fifth as many. */
const cpuPer = async (run: (n: number) => Promise<unknown>, n: number): Promise<number> => {
  await run(Math.ceil(n / 5))
  const start = process.cpuUsage()
  await run(n)
  const used = process.cpuUsage(start)
  return (used.user + used.system) / n
}

const promisePool = async (n: number, f: () => Promise<unknown>) => {
  let started = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (started++ < n) await f()
  }))
}

interface Submitted {
  readonly task: PdfTransformClient.Task<"markdown">
  readonly done: PdfTransformClient.CompletedTask<"markdown">
}

const sockets = (base: string): Record<string, (n: number) => Promise<unknown>> => {
  const stats = `${base}/stats`
  const platform = ManagedRuntime.make(NodeHttpClient.layerUndici)
  const withHttp = (
    n: number,
    one: (client: HttpClient.HttpClient) => Effect.Effect<unknown, unknown>,
    http: ManagedRuntime.ManagedRuntime<HttpClient.HttpClient, never>
  ) =>
    http.runPromise(
      Effect.flatMap(
        HttpClient.HttpClient,
        (client) => Effect.forEach(Array.from({ length: n }), () => one(client), { concurrency, discard: true })
      )
    )
  const client = ManagedRuntime.make(
    PdfTransformClient.layer({ apiKey: Redacted.make("bench-key"), baseUrl: `${base}/v1` }).pipe(
      Layer.provide(NodeHttpClient.layerUndici)
    )
  )
  const withClient = (
    n: number,
    one: (client: PdfTransformClient.Service, submitted: Submitted) => Effect.Effect<unknown, unknown>
  ) =>
    client.runPromise(Effect.gen(function*() {
      const service = yield* PdfTransformClient.PdfTransformClient
      const task = yield* service.submit("markdown", { pdfURL })
      const done = yield* service.awaitCompletion(task)
      yield* Effect.forEach(Array.from({ length: n }), () => one(service, { task, done }), {
        concurrency,
        discard: true
      })
    }))
  return {
    "undici request + text": (n) => promisePool(n, async () => (await undiciRequest(stats)).body.text()),
    "fetch + text": (n) => promisePool(n, async () => (await fetch(stats)).text()),
    "HttpClient (platform's layerUndici) execute + text": (n) =>
      withHttp(n, (http) => Effect.flatMap(http.execute(HttpClientRequest.get(stats)), (r) => r.text), platform),
    "the same, tracer off": (n) =>
      withHttp(
        n,
        (http) =>
          Effect.flatMap(http.execute(HttpClientRequest.get(stats)), (r) => r.text).pipe(
            Effect.withTracerEnabled(false)
          ),
        platform
      ),
    "exchange.send (time limit, classified)": (n) =>
      withHttp(n, (http) => exchange.send(http, Duration.seconds(30))(HttpClientRequest.get(stats)), platform),
    "client.submit": (n) => withClient(n, (service) => service.submit("markdown", { pdfURL })),
    "client.status": (n) => withClient(n, (service, { task }) => service.status(task)),
    "client.awaitCompletion (done at once)": (n) => withClient(n, (service, { task }) => service.awaitCompletion(task)),
    "client.convert (done at once)": (n) => withClient(n, (service) => service.convert("markdown", { pdfURL })),
    "client.download + Stream.runDrain": (n) =>
      withClient(n, (service, { done }) => Stream.runDrain(service.download(done))),
    "client.downloadBytes": (n) => withClient(n, (service, { done }) => service.downloadBytes(done))
  }
}

const constructs: Record<string, Effect.Effect<unknown, unknown>> = {
  "Effect.yieldNow": Effect.yieldNow(),
  "fork + join": Effect.flatMap(Effect.fork(Effect.yieldNow()), Fiber.join),
  "Effect.timeoutFail": Effect.timeoutFail(Effect.yieldNow(), { duration: "30 seconds", onTimeout: () => "late" }),
  "Effect.timeout": Effect.timeout(Effect.yieldNow(), "30 seconds"),
  "withSpan": Effect.withSpan(Effect.yieldNow(), "span", { captureStackTrace: false }),
  "Stream.runDrain of one chunk": Stream.runDrain(Stream.succeed(new Uint8Array(16))),
  "Stream.runDrain of a channel write": Stream.runDrain(
    Stream.fromChannel(Channel.unwrap(Effect.sync(() => Channel.write(Chunk.of(new Uint8Array(16))))))
  )
}

const child = async (variant: string, base: string | undefined) => {
  const run = base === undefined
    ? (n: number) =>
      Effect.runPromise(
        Effect.forEach(Array.from({ length: n }), () => constructs[variant]!, { concurrency, discard: true })
      )
    : sockets(base)[variant]!
  const micros = await cpuPer(run, base === undefined ? count * 2 : count)
  process.stdout.write(`${micros}\n`)
  process.exit(0)
}

const main = async () => {
  const peer = spawn(process.execPath, [here.replace(/layers\.mjs$/, "peer.mjs")], {
    env: { ...process.env, BENCH_TASK_MS: "0" },
    stdio: ["pipe", "pipe", "inherit"]
  })
  const { port } = JSON.parse(
    await new Promise<string>((resolve) => createInterface({ input: peer.stdout! }).once("line", resolve))
  ) as { port: number }
  const base = `http://127.0.0.1:${port}`
  const runChild = (variant: string, ...rest: Array<string>) => {
    const runs = Array.from(
      { length: 3 },
      () => Number(execFileSync(process.execPath, [here, "child", variant, ...rest], { encoding: "utf8" }))
    ).sort((a, b) => a - b)
    console.log(`| ${variant} | ${runs[1]!.toFixed(0)} µs | ${runs[0]!.toFixed(0)}-${runs[2]!.toFixed(0)} µs |`)
  }
  console.log(`loopback, ${count} operations, ${concurrency} at a time, CPU of the client process per operation`)
  console.log("| operation | CPU (median) | range |\n|---|---|---|")
  for (const variant of Object.keys(sockets(base))) runChild(variant, base)
  console.log(`\nno sockets, ${count * 2} runs, ${concurrency} at a time`)
  console.log("| construct | CPU (median) | range |\n|---|---|---|")
  for (const variant of Object.keys(constructs)) runChild(variant)
  peer.stdin!.end()
}

if (process.argv[2] === "child") void child(process.argv[3]!, process.argv[4])
else void main()
