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
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Url from "node:url"
import { BackendFailed } from "../CliError.js"

const describe = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

/**
 * In the repository the package's exports point at its TypeScript sources, which tsx compiles
 * on every start, in this thread and in each worker: seconds before the first page. The
 * JavaScript build (`build/esm`, which `pnpm install` and `pnpm check` write) is taken instead
 * when it is at least as new as every source file; otherwise the sources, as before.
 */
export const builtInstead = (target: string): string => {
  const match = /^(file:\/\/.*\/)src\/ConverterLive\.ts$/.exec(target)
  if (match === null) return target
  const root = Url.fileURLToPath(match[1]!)
  const built = Path.join(root, "build", "esm", "ConverterLive.js")
  const stamp = Path.join(root, ".tsbuildinfo", "src.tsbuildinfo")
  // The build info is written by every build that changed an output; unchanged outputs keep their times.
  const stampStat = Fs.statSync(stamp, { throwIfNoEntry: false })
  // Not built yet: the sources.
  if (stampStat === undefined || !Fs.existsSync(built)) return target
  const builtAt = stampStat.mtimeMs
  const sources = Path.join(root, "src")
  const stale = Fs.readdirSync(sources, { recursive: true, encoding: "utf8" }).some((file) =>
    Fs.statSync(Path.join(sources, file)).mtimeMs > builtAt
  )
  return stale ? target : Url.pathToFileURL(built).href
}

export const load: Effect.Effect<
  (options?: ConverterLive.PoolOptions) => Layer.Layer<ConverterModule.Converter, WorkerError>,
  BackendFailed
> = Effect.tryPromise({
  try: async () => {
    const target = builtInstead(import.meta.resolve("@pdf-transform/converter/ConverterLive"))
    if (target.endsWith(".ts")) {
      const tsx: { readonly register: () => unknown } = await import("tsx/esm/api")
      tsx.register()
    }
    const module: typeof ConverterLive = await import(target)
    return module.layer
  },
  catch: (cause) => new BackendFailed({ reason: `the local converter cannot be loaded: ${describe(cause)}` })
})
