/**
 * The local converter (PDF engine, OCR, worker threads), loaded only when a command needs it:
 * `--help` and remote conversions never pay for it. Run from the repository, the converter is
 * TypeScript: tsx's loader is registered first (its workers do the same on their own).
 */
import type { WorkerError } from "@effect/platform/WorkerError"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import type * as ConverterLive from "@pdf-transform/converter/ConverterLive"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import { BackendFailed } from "../CliError.js"

const describe = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

export const load: Effect.Effect<
  (options?: ConverterLive.PoolOptions) => Layer.Layer<ConverterModule.Converter, WorkerError>,
  BackendFailed
> = Effect.tryPromise({
  try: async () => {
    const target = import.meta.resolve("@pdf-transform/converter/ConverterLive")
    if (target.endsWith(".ts")) {
      const tsx: { readonly register: () => unknown } = await import("tsx/esm/api")
      tsx.register()
    }
    const module: typeof ConverterLive = await import(target)
    return module.layer
  },
  catch: (cause) => new BackendFailed({ reason: `the local converter cannot be loaded: ${describe(cause)}` })
})
