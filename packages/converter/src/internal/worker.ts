/** A conversion worker thread: runs the engine for each request and streams its progress back. */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeWorkerRunner from "@effect/platform-node/NodeWorkerRunner"
import * as WorkerRunner from "@effect/platform/WorkerRunner"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as V8 from "node:v8"
import * as Vm from "node:vm"
import * as WorkerThreads from "node:worker_threads"
import * as Engine from "./engine.js"
import type { EngineError } from "./engine.js"
import * as PdfiumWasm from "./pdfiumWasm.js"
import { coalesce } from "./progress.js"
import { ConvertRequest, DoneEvent, ProgressEvent } from "./protocol.js"

/**
 * On Linux the worker lowers its thread's priority (per thread there, inherited by OCR's threads), so
 * request handling on the main thread runs first when every core is busy.
 */
const lowerPriority = (data: unknown): Effect.Effect<void> =>
  Effect.gen(function*() {
    const niceness = typeof data === "object" && data !== null && "niceness" in data &&
        typeof data.niceness === "number" ?
      data.niceness :
      0
    if (niceness <= 0 || process.platform !== "linux") return
    yield* Effect.try(() => {
      // /proc/thread-self -> "<pid>/task/<tid>": the id setpriority(2) takes for one thread.
      const tid = Number(Fs.readlinkSync("/proc/thread-self").split("/").pop())
      Os.setPriority(tid, Math.min(19, Os.getPriority(tid) + niceness))
    }).pipe(Effect.catchAll((error) => Effect.logDebug("could not lower the worker's priority", error)))
  })

/** A full garbage collection, or why there is none (`--expose-gc` is process-wide: read from a fresh context). */
const garbageCollector: { readonly collect: () => void } | { readonly unavailable: unknown } = (() => {
  try {
    V8.setFlagsFromString("--expose-gc")
    const gc: unknown = Vm.runInNewContext("gc")
    return typeof gc === "function" ? { collect: () => void gc() } : { unavailable: "gc is not a function" }
  } catch (error) {
    return { unavailable: error }
  } finally {
    V8.setFlagsFromString("--no-expose-gc")
  }
})()
const collectGarbage = "collect" in garbageCollector ? garbageCollector.collect : undefined

/** Without a collector the worker only holds more garbage between V8's own collections. */
const reportCollector: Effect.Effect<void> = "unavailable" in garbageCollector
  ? Effect.logDebug("no garbage collector function in the conversion worker", garbageCollector.unavailable)
  : Effect.void

/** tesseract workers a conversion may run, as the pool gave them (see `OcrPool.workersFor`). */
const ocrWorkers =
  ((data: unknown): number | undefined =>
    typeof data === "object" && data !== null && "ocrWorkers" in data && typeof data.ocrWorkers === "number"
      ? data.ocrWorkers
      : undefined)(WorkerThreads.workerData)

const convert = (request: ConvertRequest) =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const events = yield* Mailbox.make<ProgressEvent | DoneEvent, EngineError>()
    yield* Engine.convert(request.pdf, request.format, {
      ignorePdfErrors: request.ignorePdfErrors,
      ignoreOcrErrors: request.ignoreOcrErrors,
      filename: request.filename,
      password: request.password,
      ocrLanguages: request.ocrLanguages,
      ocrDataPath: request.ocrDataPath,
      collectGarbage,
      ocrWorkers,
      // Bytes are moved to the caller's thread (see DoneEvent); a string would be copied.
      markdownAsUtf8: true,
      onProgress: coalesce((progress) => Effect.asVoid(events.offer(new ProgressEvent(progress))))
    }).pipe(
      Effect.flatMap((result) =>
        events.offer(
          new DoneEvent({
            ...result,
            ocrPages: [...result.ocrPages],
            warnings: [...result.warnings]
          })
        )
      ),
      Mailbox.into(events),
      Effect.forkScoped
    )
    return Mailbox.toStream(events)
  }))

/** The pool's thread hands over PDFium's compiled WebAssembly (see `PdfiumWasm`). */
if (typeof WorkerThreads.workerData === "object" && WorkerThreads.workerData !== null) {
  PdfiumWasm.useCompiledModule(Reflect.get(WorkerThreads.workerData, "pdfium"))
}

const Main = WorkerRunner.layerSerialized(ConvertRequest, { Convert: convert })

WorkerRunner.launch(Layer.provide(Main, NodeWorkerRunner.layer)).pipe(
  Effect.zipLeft(Effect.zip(lowerPriority(WorkerThreads.workerData), reportCollector), { concurrent: true }),
  NodeRuntime.runMain
)
