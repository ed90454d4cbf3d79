/**
 * One measured client run, in its own process: converts the jobs listed in a file (one JSON line
 * each: a `pdfURL` already uploaded to the bench server and its `filename`) and prints one JSON
 * line with the makespan, the CPU time and the peak RSS of this process, and, when node runs with
 * `--expose-gc`, the live heap after a full GC taken while the batch runs (when nine jobs in ten
 * have completed): what the batch holds, not what is left once it is gone. The batch scenarios
 * read the file as a stream and keep counts, not events, as a program fed a huge list would.
 *
 *   node client.mjs <scenario> <baseUrl> <apiKey> <jobs.jsonl> <workDir> <job count>
 *
 * Scenarios: `batch` (Batch.run, bound 64, journal on), `batch-plain` (the same with
 * progress-aware polling off), `naive` (every job at once with unbounded Effect.forEach, each
 * `convert` retrying its own 429s, then its download).
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodePath from "@effect/platform-node/NodePath"
import { PdfTransformClient } from "@pdf-transform/core"
import { Effect, Either, Layer, Logger, LogLevel, Redacted, Stream } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Readline from "node:readline"
import * as V8 from "node:v8"
import { Batch, Job, Journal, Output } from "../src/index.js"

const [scenario, baseUrl, key, jobsFile, workDir, count] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string
]
const sampleAt = Math.max(1, Math.floor(Number(count) * 0.9))
interface Line {
  readonly pdfURL: string
  readonly filename: string
}
/** Every job at once (the naive scenario needs the array). */
const readAll = (): ReadonlyArray<Line> =>
  Fs.readFileSync(jobsFile, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Line)
/**
 * The jobs one line at a time: only those the batch has pulled are in memory. The reader is made
 * when the stream starts: a readline interface made earlier drops the lines read before its
 * iterator is asked for.
 */
const readLines: Stream.Stream<Line, Error> = Stream.suspend(() =>
  Stream.fromAsyncIterable(
    Readline.createInterface({ input: Fs.createReadStream(jobsFile), crlfDelay: Infinity }),
    (cause) => new Error(`reading ${jobsFile}: ${String(cause)}`)
  )
).pipe(Stream.filter((line) => line !== ""), Stream.map((line) => JSON.parse(line) as Line))
const outputDirectory = Path.join(workDir, "out")

/** Core's default polling scaled by 1/20 (2 s -> 100 ms, 10 s -> 500 ms, 600 s -> 30 s). */
const poll = (progressAware: boolean): PdfTransformClient.PollOptions => ({
  initialInterval: "100 millis",
  maxInterval: "500 millis",
  deadline: "30 seconds",
  progressAware
})

const gc = (globalThis as { gc?: () => void }).gc
/** BENCH_HEAP_SNAPSHOTS=<folder>: a heap snapshot is written there where the live heap is sampled. */
const snapshots = process.env["BENCH_HEAP_SNAPSHOTS"]
const liveHeap = (): number | undefined => {
  if (gc === undefined) return undefined
  gc()
  const used = process.memoryUsage().heapUsed / 1024 ** 2
  if (snapshots !== undefined) V8.writeHeapSnapshot(Path.join(snapshots, `batch-${count}.heapsnapshot`))
  return used
}

interface Counts {
  readonly completed: number
  readonly failed: number
  readonly ambiguous: number
  readonly failures: ReadonlySet<string>
  readonly liveHeapMb: number | undefined
}

const batch = (progressAware: boolean) =>
  Effect.map(
    Batch.convert(
      Stream.map(readLines, (job) =>
        Job.url(job.pdfURL, "markdown", { outputName: job.filename, request: { filename: job.filename } })),
      { outputDirectory, concurrency: 64, poll: poll(progressAware) }
    ).pipe(
      Stream.runFold(
        { completed: 0, failed: 0, ambiguous: 0, failures: new Set<string>(), liveHeapMb: undefined } as Counts,
        (counts, event): Counts => {
          switch (event._tag) {
            case "Completed": {
              const completed = counts.completed + 1
              // Sampled once, while the batch is in full swing with nine tenths of its jobs behind it.
              const liveHeapMb = completed === sampleAt ? liveHeap() : counts.liveHeapMb
              return { ...counts, completed, liveHeapMb }
            }
            case "Failed":
              return { ...counts, failed: counts.failed + 1, failures: new Set([...counts.failures, event.error._tag]) }
            case "Ambiguous":
              return { ...counts, ambiguous: counts.ambiguous + 1 }
            default:
              return counts
          }
        }
      ),
      Effect.provide(Journal.layerFile(Path.join(workDir, "journal.jsonl")))
    ),
    (counts) => ({ ...counts, failures: [...counts.failures] })
  )

const naive = Effect.gen(function*() {
  const client = yield* PdfTransformClient.PdfTransformClient
  yield* Effect.sync(() => Fs.mkdirSync(outputDirectory, { recursive: true }))
  const results = yield* Effect.forEach(
    readAll(),
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
    failures: [...new Set(failed.map((r) => r.left._tag))],
    liveHeapMb: undefined
  }
})

const program = scenario === "naive" ? naive : batch(scenario !== "batch-plain")

const cpuBefore = process.cpuUsage()
const started = performance.now()
Effect.runPromise(
  program.pipe(
    Effect.provide(PdfTransformClient.layer({ baseUrl, apiKey: Redacted.make(key) })),
    Effect.provide(Layer.mergeAll(NodeHttpClient.layerUndici, NodeFileSystem.layer, NodePath.layer)),
    Effect.provide(Logger.minimumLogLevel(LogLevel.Error))
  )
).then((result) => {
  const makespanMs = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  console.log(JSON.stringify({
    ...result,
    makespanMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    systemMs: cpu.system / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024
  }))
  process.exit(0)
}, (error: unknown) => {
  console.error(error)
  process.exit(1)
})
