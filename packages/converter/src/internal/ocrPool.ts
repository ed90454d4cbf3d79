/** A conversion's tesseract workers, each started only when a page waits and every worker is busy. */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Pool from "effect/Pool"
import type * as Scope from "effect/Scope"
import * as Os from "node:os"
import type { Ocr } from "./ocr.js"

/** One thread a worker; more than two would each hold a model and a rendering (100 MB+) for little. */
const maxWorkers = 2

/** Workers for a conversion that has `cores` to itself (a pool's worker shares them with the others). */
export const workersFor = (cores: number): number => Math.max(1, Math.min(maxWorkers, Math.floor(cores)))

export const defaultWorkers = (): number => workersFor(Os.availableParallelism())

/** The pool; a worker that could not start is not tried again: every later page fails with its reason. */
export const make = (start: Effect.Effect<Ocr, string, Scope.Scope>, workers: number): Effect.Effect<
  Ocr,
  never,
  Scope.Scope
> => {
  let failed: string | undefined
  const started = Effect.tapError(start, (reason) => Effect.sync(() => void (failed ??= reason)))
  return Effect.map(
    Pool.makeWithTTL({ acquire: started, min: 0, max: Math.max(1, workers), timeToLive: Duration.infinity }),
    (pool): Ocr => ({
      recognize: (image) =>
        failed !== undefined
          ? Effect.fail(failed)
          : Effect.scoped(Effect.flatMap(Pool.get(pool), (ocr) => ocr.recognize(image)))
    })
  )
}
