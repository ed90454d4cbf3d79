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

export const load: Effect.Effect<
  (options?: ConverterLive.PoolOptions) => Layer.Layer<ConverterModule.Converter, WorkerError>,
  BackendFailed
> = Effect.tryPromise({
  try: async () => (await import("@pdf-transform/converter/ConverterLive")).layer,
  catch: (cause) => new BackendFailed({ reason: `the local converter cannot be loaded: ${describe(cause)}` })
})

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
