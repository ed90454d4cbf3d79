/**
 * Progress as it crosses from a conversion worker to the caller's thread: coalesced. Each event
 * is a message through the worker protocol (encoded, posted, decoded, folded on the caller's
 * side), and one a page cost a visible share of the pool's throughput on small documents (see the
 * README's benchmark notes).
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { Progress } from "../Converter.js"

/**
 * How often a worker reports progress at most: a tenth of a second is smooth for a progress bar
 * and is a few events for a document of a few hundred milliseconds.
 */
export const progressInterval: Duration.Duration = Duration.millis(100)

/**
 * `report`, called at most once per `interval`, except the first and the last event of a
 * document (pages done 0, and pages done = total), which always pass. An event that comes after a
 * long page (OCR) passes at once: the caller is never more than a page and an interval behind.
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
