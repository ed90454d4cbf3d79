/**
 * One measured client run, in its own process: converts the jobs listed in a file (`pdfURL`s
 * already uploaded to the bench server, each with its `filename`) and prints one JSON line with
 * the makespan, the CPU time and the peak RSS of this process, and, when node runs with
 * `--expose-gc`, the live heap after a full GC at the end.
 *
 *   node client.mjs <scenario> <baseUrl> <apiKey> <jobs.json> <workDir>
 *
 * Scenarios: `batch` (Batch.run, bound 64, journal on), `batch-plain` (the same with
 * progress-aware polling off), `naive` (every job at once with unbounded Effect.forEach, each
 * `convert` retrying its own 429s, then its download).
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { PdfTransformClient } from "@pdf-transform/core"
import * as UndiciHttpClient from "@pdf-transform/core/UndiciHttpClient"
import { Effect, Either, Layer, Logger, LogLevel, Redacted } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Batch, Job, Journal, Output } from "../src/index.js"

const [scenario, baseUrl, key, jobsFile, workDir] = process.argv.slice(2) as [string, string, string, string, string]
const jobs = JSON.parse(Fs.readFileSync(jobsFile, "utf8")) as ReadonlyArray<{ pdfURL: string; filename: string }>
const outputDirectory = Path.join(workDir, "out")

/** Core's default polling scaled by 1/20 (2 s -> 100 ms, 10 s -> 500 ms, 600 s -> 30 s). */
const poll = (progressAware: boolean): PdfTransformClient.PollOptions => ({
  initialInterval: "100 millis",
  maxInterval: "500 millis",
  deadline: "30 seconds",
  progressAware
})

const batch = (progressAware: boolean) =>
  Effect.map(
    Batch.run(
      jobs.map((job) =>
        Job.url(job.pdfURL, "markdown", { outputName: job.filename, request: { filename: job.filename } })
      ),
      {
        outputDirectory,
        concurrency: 64,
        poll: poll(progressAware)
      }
    ).pipe(Effect.provide(Journal.layerFile(Path.join(workDir, "journal.jsonl")))),
    (summary) => ({
      completed: summary.completed.length,
      failed: summary.failed.length,
      ambiguous: summary.ambiguous.length,
      failures: [...new Set(summary.failed.map((e) => e.error._tag))]
    })
  )

const naive = Effect.gen(function*() {
  const client = yield* PdfTransformClient.PdfTransformClient
  yield* Effect.sync(() => Fs.mkdirSync(outputDirectory, { recursive: true }))
  const results = yield* Effect.forEach(
    jobs,
    ({ filename, pdfURL }) =>
      Effect.either(
        Effect.flatMap(
          client.convert("markdown", { pdfURL, filename }, poll(true)),
          (done) => Output.download(done, Path.join(outputDirectory, `${filename}.md`))
        )
      ),
    { concurrency: "unbounded" }
  )
  const failed = results.filter(Either.isLeft)
  return {
    completed: results.length - failed.length,
    failed: failed.length,
    ambiguous: 0,
    failures: [...new Set(failed.map((r) => r.left._tag))]
  }
})

const program = scenario === "naive" ? naive : batch(scenario !== "batch-plain")

const cpuBefore = process.cpuUsage()
const started = performance.now()
Effect.runPromise(
  program.pipe(
    Effect.provide(PdfTransformClient.layer({ baseUrl, apiKey: Redacted.make(key) })),
    Effect.provide(Layer.mergeAll(UndiciHttpClient.layer, NodeFileSystem.layer, NodePath.layer)),
    Effect.provide(Logger.minimumLogLevel(LogLevel.Error))
  )
).then((result) => {
  const makespanMs = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  console.log(JSON.stringify({
    ...result,
    makespanMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    systemMs: cpu.system / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    liveHeapMb: gc === undefined ? undefined : process.memoryUsage().heapUsed / 1024 ** 2
  }))
  process.exit(0)
}, (error: unknown) => {
  console.error(error)
  process.exit(1)
})
