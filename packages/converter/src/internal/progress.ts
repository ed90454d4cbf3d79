/** Progress from a worker to the caller's thread, coalesced: a message per page costs throughput on small documents. */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { Progress } from "../Converter.js"

/** How often a worker reports progress at most: smooth for a progress bar. */
export const progressInterval: Duration.Duration = Duration.millis(100)

/**
 * `report`, at most once per `interval`, but the first and last events always pass, and one after a
 * long page passes at once: the caller is never more than a page and an interval behind.
 */
export const coalesce = (
  report: (progress: Progress) => Effect.Effect<void>,
  interval: Duration.DurationInput = progressInterval
): (progress: Progress) => Effect.Effect<void> => {
  const every = Duration.toMillis(Duration.decode(interval))
  let last: number | undefined
  return (progress) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const edge = progress.pagesDone === 0 || progress.pagesDone >= progress.pagesTotal
      if (!edge && last !== undefined && now - last < every) return Effect.void
      last = now
      return report(progress)
    })
}
