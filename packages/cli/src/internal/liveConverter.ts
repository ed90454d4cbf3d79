/** The local converter, loaded only when a command needs it (never by `--help` or remote conversions). */
import type { WorkerError } from "@effect/platform/WorkerError"
import * as ConverterModule from "@pdf-transform/converter/Converter"
import type * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { BackendFailed } from "../CliError.js"

const describe = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

const liveModule: Effect.Effect<typeof ConverterLive, BackendFailed> = Effect.tryPromise({
  try: () => import("@pdf-transform/converter/ConverterLive"),
  catch: (cause) => new BackendFailed({ reason: `the local converter cannot be loaded: ${describe(cause)}` })
})

/** The worker pool's layer. */
export const load: Effect.Effect<
  (options?: ConverterLive.PoolOptions) => Layer.Layer<ConverterModule.Converter, WorkerError>,
  BackendFailed
> = Effect.map(liveModule, (live) => live.layer)

const eventLoopTurn = Effect.async<void>((resume) => {
  const immediate = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(immediate))
})

/** Each page's progress is followed by a turn of the event loop: requests, timers and Ctrl-C run between pages. */
const betweenPages = (options: ConverterModule.ConvertOptions | undefined): ConverterModule.ConvertOptions => ({
  ...options,
  onProgress: (progress) => Effect.zipRight(options?.onProgress?.(progress) ?? Effect.void, eventLoopTurn)
})

/**
 * The converter on this thread: for one document, starting a worker costs more than it gains. A
 * page's own PDFium calls cannot be interrupted here, as they can in a worker.
 */
export const inProcess: Effect.Effect<Layer.Layer<ConverterModule.Converter>, BackendFailed> = Effect.map(
  liveModule,
  (live) => {
    const converter = live.makeInProcess()
    return Layer.succeed(ConverterModule.Converter, {
      toMarkdown: (pdf, options) => converter.toMarkdown(pdf, betweenPages(options)),
      toEpub: (pdf, options) => converter.toEpub(pdf, betweenPages(options))
    })
  }
)

/**
 * The converter as a layer ready at once, built in the background while the server opens its data
 * and documents upload; conversions wait for it, and fail when it cannot start.
 */
export const inBackground = (
  converter: Layer.Layer<ConverterModule.Converter, WorkerError>
): Effect.Effect<Layer.Layer<ConverterModule.Converter>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const ready = yield* Deferred.make<ConverterModule.Service, string>()
    yield* Layer.build(converter).pipe(
      Effect.map(Context.get(ConverterModule.Converter)),
      Effect.tap(() => Effect.logInfo("local converter ready")),
      Effect.mapError((error) => `the local converter could not start: ${error.message}`),
      Effect.tapError((reason) => Effect.logError(reason)),
      Effect.intoDeferred(ready),
      Effect.forkScoped
    )
    const started = Effect.orDieWith(Deferred.await(ready), (reason) => new Error(reason))
    return Layer.succeed(ConverterModule.Converter, {
      toMarkdown: (pdf, options) => Effect.flatMap(started, (service) => service.toMarkdown(pdf, options)),
      toEpub: (pdf, options) => Effect.flatMap(started, (service) => service.toEpub(pdf, options))
    })
  })
