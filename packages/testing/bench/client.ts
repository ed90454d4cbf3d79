/**
 * Client overhead benchmark: converts 10,000 tasks through FakeServer (in memory, instant
 * completion) and prints the client's CPU time per task and the peak RSS. The fake's own cost is
 * measured in the same way (same requests, same run, a process of its own) without the client, and
 * subtracted.
 * Targets (issue 2): < 1 ms CPU per task, < 150 MB peak RSS.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Contract, PdfTransformClient } from "@pdf-transform/core"
import { Console, Effect, Layer, Redacted, Stream } from "effect"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { FakeServer } from "../src/index.js"

const tasks = Number(process.env["BENCH_TASKS"] ?? 10_000)
const concurrency = Number(process.env["BENCH_CONCURRENCY"] ?? 64)
const baseUrl = "https://fake.pdf-transform.test/v1"
const pdfURL = "https://files.example.com/paper.pdf"

const serverLayer = () => FakeServer.layer({ baseUrl, recordRequests: false })

const withClient = (count: number) =>
  Effect.gen(function*() {
    const client = yield* PdfTransformClient.PdfTransformClient
    yield* Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) =>
        client.convert(i % 2 === 0 ? "markdown" : "epub", { pdfURL, filename: `doc-${i}` }).pipe(
          Effect.flatMap((done) => Stream.runDrain(client.download(done)))
        ),
      { concurrency, discard: true }
    )
  }).pipe(
    Effect.provide(
      PdfTransformClient.layer({ apiKey: Redacted.make(FakeServer.defaultApiKey), baseUrl }).pipe(
        Layer.provide(serverLayer())
      )
    )
  )

/** The same four requests per task, without the client: what the fake alone costs. */
const fakeOnly = (count: number) =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const auth = HttpClientRequest.bearerToken(FakeServer.defaultApiKey)
    yield* Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) =>
        Effect.gen(function*() {
          const format: Contract.Format = i % 2 === 0 ? "markdown" : "epub"
          const submitted = yield* http.execute(
            HttpClientRequest.post(`${baseUrl}${Contract.submitPath(format)}`).pipe(
              auth,
              HttpClientRequest.bodyUnsafeJson({ pdfURL, model: "gundam", filename: `doc-${i}` })
            )
          ).pipe(Effect.flatMap((r) => r.json))
          const id = (submitted as { sessionID: string }).sessionID
          const status = yield* http.execute(
            HttpClientRequest.get(`${baseUrl}${Contract.resultPath(format, id)}`).pipe(auth)
          ).pipe(Effect.flatMap((r) => r.json))
          const url = (status as { data: { downloadURL: string } }).data.downloadURL
          yield* http.execute(HttpClientRequest.get(url)).pipe(Effect.flatMap((r) => Stream.runDrain(r.stream)))
        }),
      { concurrency, discard: true }
    )
  }).pipe(Effect.provide(serverLayer()))

const warmup = 1_000

/** One phase in its own process, so that each peak RSS is its own. */
const phase = (name: "fake" | "client") =>
  Effect.gen(function*() {
    const run = name === "fake" ? fakeOnly : withClient
    // Warm-up (not measured): JIT compilation is billed to neither side.
    yield* run(warmup)
    const cpu = process.cpuUsage()
    const start = performance.now()
    yield* run(tasks)
    const used = process.cpuUsage(cpu)
    const wallMs = performance.now() - start
    // What stays alive once garbage is collected: the working set, as opposed to V8's heap sizing.
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    const result = {
      cpuMs: (used.user + used.system) / 1000,
      wallMs,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      liveHeapMb: process.memoryUsage().heapUsed / 1024 / 1024
    }
    yield* Console.log(JSON.stringify(result))
  })

interface PhaseResult {
  readonly cpuMs: number
  readonly wallMs: number
  readonly peakRssMb: number
  readonly liveHeapMb: number
}

const spawnPhase = (name: "fake" | "client", v8Flags: ReadonlyArray<string> = []) =>
  Effect.promise(() =>
    new Promise<PhaseResult>((resolve, reject) => {
      execFile(process.execPath, ["--expose-gc", ...v8Flags, fileURLToPath(import.meta.url), name], (error, stdout) => {
        if (error) reject(error)
        else resolve(JSON.parse(stdout.trim().split("\n").pop()!))
      })
    })
  )

const line = (label: string, r: PhaseResult) =>
  `${label.padEnd(22)} ${tasks} tasks  wall ${r.wallMs.toFixed(0).padStart(6)} ms  cpu ${
    r.cpuMs.toFixed(0).padStart(6)
  } ms  cpu/task ${(r.cpuMs / tasks).toFixed(3)} ms  peak RSS ${r.peakRssMb.toFixed(1)} MB  live heap ${
    r.liveHeapMb.toFixed(1)
  } MB`

const main = Effect.gen(function*() {
  const fake = yield* spawnPhase("fake")
  const client = yield* spawnPhase("client")
  // V8 sizes its heap to the machine and lets garbage pile up before a full collection; with a
  // cap it collects sooner. Both are shown: the first is what a default process does.
  const capped = yield* spawnPhase("client", ["--max-old-space-size=64"])
  yield* Console.log(line("fake server only", fake))
  yield* Console.log(line("client + fake server", client))
  yield* Console.log(line("same, old space 64 MB", capped))
  const perTask = Math.max(0, client.cpuMs - fake.cpuMs) / tasks
  yield* Console.log(`client cpu/task          ${perTask.toFixed(3)} ms   (target < 1 ms)`)
  yield* Console.log(
    `peak RSS                 ${client.peakRssMb.toFixed(1)} MB with V8 defaults, ${
      capped.peakRssMb.toFixed(1)
    } MB with --max-old-space-size=64   (target < 150 MB)`
  )
})

const mode = process.argv[2]
const program = mode === "fake" || mode === "client" ? phase(mode) : main

Effect.runPromise(program).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
