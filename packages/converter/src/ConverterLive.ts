/**
 * Live `Converter`s: a pool of worker threads (the default: a server's event loop never stalls) and an
 * in-process one for scripts and tests.
 * @since 0.1.0
 */
import * as NodeWorker from "@effect/platform-node/NodeWorker"
import * as Worker from "@effect/platform/Worker"
import type { WorkerError } from "@effect/platform/WorkerError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as WorkerThreads from "node:worker_threads"
import * as Converter from "./Converter.js"
import type * as Engine from "./internal/engine.js"
import * as OcrPool from "./internal/ocrPool.js"
import * as PdfiumWasm from "./internal/pdfiumWasm.js"
import { useReplacingOnTimeout } from "./internal/pooled.js"
import { ConvertRequest, EngineFailure } from "./internal/protocol.js"

/**
 * A document over this time is abandoned: long enough for OCR of a thick scan, and a bound on a PDF
 * built to make the parser loop.
 * @since 0.1.0
 * @category defaults
 */
export const defaultTimeout: Duration.Duration = Duration.minutes(10)

/**
 * Old-generation heap limit of a worker, a bound for hostile documents: V8's own grows with the machine.
 * @since 0.1.0
 * @category defaults
 */
export const defaultWorkerHeapMb = 512

/** A worker's young generation, in MB: smaller than V8's default, it lowers peak RSS (see the README's "Memory"). */
const workerYoungGenerationMb = 4

/**
 * How much lower the conversion threads' priority is (Linux), so a server keeps answering while every core converts.
 * @since 0.1.0
 * @category defaults
 */
export const defaultWorkerNiceness = 10

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Time limit per document when the call does not give one (default `defaultTimeout`). */
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface PoolOptions extends Options {
  /** Worker threads, each converting one document at a time (default: available cores). */
  readonly size?: number | undefined
  /** How much lower the workers' thread priority is on Linux (default `defaultWorkerNiceness`; 0: the same). */
  readonly niceness?: number | undefined
  /** Heap limit of each worker in MB (default `defaultWorkerHeapMb`). */
  readonly maxHeapMb?: number | undefined
}

/**
 * OCR reads English unless asked otherwise: its model ships with the package.
 * @since 0.1.0
 * @category defaults
 */
export const defaultOcrLanguages: ReadonlyArray<string> = ["eng"]

const engineOptions = (options: Converter.ConvertOptions | undefined): Engine.EngineOptions => ({
  ignorePdfErrors: options?.ignorePdfErrors ?? true,
  ignoreOcrErrors: options?.ignoreOcrErrors ?? true,
  filename: options?.filename,
  password: options?.password === undefined ? undefined : Redacted.value(options.password),
  ocrLanguages: options?.ocrLanguages ?? defaultOcrLanguages,
  ocrDataPath: options?.ocrDataPath,
  onProgress: options?.onProgress ?? (() => Effect.void)
})

const withTimeout = (
  layerTimeout: Duration.DurationInput,
  options: Converter.ConvertOptions | undefined
) =>
<A>(effect: Effect.Effect<A, Engine.EngineError>): Effect.Effect<A, Converter.ConverterError> => {
  const duration = Duration.decode(options?.timeout ?? layerTimeout)
  return Effect.timeoutFail(effect, {
    duration,
    onTimeout: () => new Converter.ConversionTimeout({ timeoutMs: Duration.toMillis(duration) })
  })
}

const fromEngine = (
  convert: (pdf: Uint8Array, format: Engine.Format, options: Converter.ConvertOptions | undefined) => Effect.Effect<
    Engine.EngineResult,
    Converter.ConverterError
  >
): Converter.Service => ({
  toMarkdown: (pdf, options) =>
    Effect.map(convert(pdf, "markdown", options), (result) => ({
      output: typeof result.output === "string" ? result.output : new TextDecoder().decode(result.output),
      pages: result.pages,
      ocrPages: result.ocrPages,
      warnings: result.warnings
    })).pipe(Effect.withSpan("Converter.toMarkdown")),
  toEpub: (pdf, options) =>
    Effect.map(convert(pdf, "epub", options), (result) => ({
      output: typeof result.output === "string" ? new TextEncoder().encode(result.output) : result.output,
      pages: result.pages,
      ocrPages: result.ocrPages,
      warnings: result.warnings
    })).pipe(Effect.withSpan("Converter.toEpub"))
})

/**
 * The engine on the caller's own thread: simplest, but a long document keeps the event loop
 * busy between pages. Prefer `layer` in servers.
 * @since 0.1.0
 * @category constructors
 */
export const makeInProcess = (options: Options = {}): Converter.Service =>
  fromEngine((pdf, format, convertOptions) =>
    // Imported at the first conversion: a pool's thread never loads the engine its workers run.
    Effect.flatMap(
      Effect.promise(() => import("./internal/engine.js")),
      (Engine) => Engine.convert(pdf, format, engineOptions(convertOptions))
    ).pipe(
      withTimeout(options.timeout ?? defaultTimeout, convertOptions)
    )
  )

/**
 * @since 0.1.0
 * @category layers
 */
export const layerInProcess = (options: Options = {}): Layer.Layer<Converter.Converter> =>
  Layer.succeed(Converter.Converter, makeInProcess(options))

const require = createRequire(import.meta.url)

/** From TypeScript sources the worker needs tsx's loader registered first: a small CommonJS bootstrap does it. */
const spawnWorker = (
  maxHeapMb: number,
  niceness: number,
  pdfium: WebAssembly.Module,
  ocrWorkers: number
): WorkerThreads.Worker => {
  const fromSource = import.meta.url.endsWith(".ts")
  const url = new URL(`./internal/worker.${fromSource ? "ts" : "js"}`, import.meta.url)
  // Some of the caller's Node flags (`--input-type`, `--eval`) stop a worker from starting.
  const resourceLimits = { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: workerYoungGenerationMb }
  const workerData = { niceness, pdfium, ocrWorkers }
  if (!fromSource) return new WorkerThreads.Worker(url, { execArgv: [], resourceLimits, workerData })
  const tsxApi = require.resolve("tsx/esm/api")
  return new WorkerThreads.Worker(
    `require(${JSON.stringify(tsxApi)}).register(); import(${JSON.stringify(url.href)})`,
    { eval: true, execArgv: [], resourceLimits, workerData }
  )
}

const isConverterError: (error: unknown) => error is Engine.EngineError = Schema.is(EngineFailure)

/**
 * A pool of worker threads running the engine. A worker that fails is a defect; interrupting a call
 * destroys its document; a call over its time limit replaces its worker (synchronous code never yields).
 * @since 0.1.0
 * @category constructors
 */
export const makePool = (
  options: PoolOptions = {}
): Effect.Effect<Converter.Service, WorkerError, Scope.Scope> =>
  Effect.gen(function*() {
    const size = Math.max(1, options.size ?? Os.availableParallelism())
    // The workers share the cores: a second tesseract worker each only when there is a core for it.
    const ocrWorkers = OcrPool.workersFor(Os.availableParallelism() / size)
    // Compiled once here and shared by every worker (see `PdfiumWasm`).
    const pdfium = yield* PdfiumWasm.compileForPool
    const pool = yield* Worker.makePoolSerialized<ConvertRequest>({ size, concurrency: 1 }).pipe(
      Effect.provide(NodeWorker.layer(() =>
        spawnWorker(
          options.maxHeapMb ?? defaultWorkerHeapMb,
          options.niceness ?? defaultWorkerNiceness,
          pdfium,
          ocrWorkers
        )
      ))
    )
    const timeout = options.timeout ?? defaultTimeout
    return fromEngine((pdf, format, convertOptions) => {
      const engine = engineOptions(convertOptions)
      const request = new ConvertRequest({
        // A copy of our own, moved to the worker: a structured clone would hold a second copy at the peak.
        pdf: new Uint8Array(pdf),
        format,
        ignorePdfErrors: engine.ignorePdfErrors,
        ignoreOcrErrors: engine.ignoreOcrErrors,
        ...(engine.filename !== undefined ? { filename: engine.filename } : {}),
        ...(engine.password !== undefined ? { password: engine.password } : {}),
        ocrLanguages: engine.ocrLanguages,
        ...(engine.ocrDataPath !== undefined ? { ocrDataPath: engine.ocrDataPath } : {})
      })
      const convertOn = (worker: Worker.SerializedWorker<ConvertRequest>) =>
        worker.execute(request).pipe(
          Stream.runFoldEffect(
            undefined as Engine.EngineResult | undefined,
            (result, event) =>
              event._tag === "Progress" ?
                Effect.as(engine.onProgress({ pagesDone: event.pagesDone, pagesTotal: event.pagesTotal }), result) :
                Effect.succeed<Engine.EngineResult>(event)
          ),
          Effect.flatMap((result) =>
            result === undefined
              ? Effect.dieMessage("The conversion worker ended without a result")
              : Effect.succeed(result)
          ),
          Effect.catchAll((error) => isConverterError(error) ? Effect.fail(error) : Effect.die(error)),
          withTimeout(timeout, convertOptions)
        )
      return useReplacingOnTimeout(pool.backing, convertOn, (error) => error._tag === "ConversionTimeout").pipe(
        Effect.catchTag("WorkerError", (error) => Effect.die(error))
      )
    })
  })

/**
 * The default live layer: a worker pool of `options.size` threads (default: available cores).
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: PoolOptions = {}): Layer.Layer<Converter.Converter, WorkerError> =>
  Layer.scoped(Converter.Converter, makePool(options))
