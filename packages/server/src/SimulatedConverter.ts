/**
 * A `Converter` that pretends (configured time, progress and failure rate; a small valid output), for
 * tests and benchmarks; deterministic under `TestClock` and a seeded `Random`.
 *
 * @since 0.1.0
 */
import { Converter } from "@pdf-transform/converter/Converter"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import { PdfInvalid } from "@pdf-transform/converter/Converter"
import type * as Document from "@pdf-transform/converter/Document"
import * as Epub from "@pdf-transform/converter/Epub"
import * as Markdown from "@pdf-transform/converter/Markdown"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Random from "effect/Random"

/**
 * @since 0.1.0
 * @category options
 */
export interface Options {
  readonly duration?: Duration.DurationInput | undefined
  /**
   * Spread of the durations, in [0, 1): drawn uniformly within `duration * (1 ± jitter)`, so
   * tasks submitted together need not end together, a thundering herd no real workload has.
   */
  readonly jitter?: number | undefined
  /** Progress reports during a conversion, evenly spaced; also the page count. */
  readonly progressSteps?: number | undefined
  /** Probability in [0, 1] that a conversion fails. */
  readonly failureRate?: number | undefined
  readonly failureReason?: string | undefined
}

/**
 * The options' defaults, chosen so a simulated task is visibly "processing" for a few polls.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  duration: Duration.seconds(2),
  jitter: 0,
  progressSteps: 4,
  failureRate: 0,
  failureReason: "Simulated conversion failure"
} as const

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): ConverterModule.Service => {
  const duration = Duration.decode(options.duration ?? defaults.duration)
  const steps = Math.max(1, Math.floor(options.progressSteps ?? defaults.progressSteps))
  const failureRate = Math.min(1, Math.max(0, options.failureRate ?? defaults.failureRate))
  const failureReason = options.failureReason ?? defaults.failureReason
  const jitter = Math.min(0.99, Math.max(0, options.jitter ?? defaults.jitter))
  const stepMillis = Duration.toMillis(duration) / steps
  const stepDelay: Effect.Effect<Duration.Duration> = jitter === 0
    ? Effect.succeed(Duration.millis(stepMillis))
    : Effect.map(Random.nextRange(1 - jitter, 1 + jitter), (factor) => Duration.millis(Math.round(stepMillis * factor)))

  // The converter's own writers render it, so a simulated EPUB is built exactly as a real one.
  const work = (pdf: Uint8Array, convertOptions: ConverterModule.ConvertOptions | undefined) =>
    Effect.gen(function*() {
      const fails = failureRate > 0 && (yield* Random.next) < failureRate
      // A failing task fails halfway, as a real one would after reading some pages.
      const failAt = fails ? Math.ceil(steps / 2) : steps + 1
      const delay = yield* stepDelay
      for (let page = 1; page <= steps; page++) {
        yield* Effect.sleep(delay)
        if (page === failAt) return yield* new PdfInvalid({ reason: failureReason })
        if (convertOptions?.onProgress !== undefined) {
          yield* convertOptions.onProgress({ pagesDone: page, pagesTotal: steps })
        }
      }
      const title = (convertOptions?.filename ?? "Simulated document").replace(/\s+/g, " ").trim()
      const took = Duration.format(Duration.millis(Math.round(Duration.toMillis(delay) * steps)))
      const document: Document.Document = {
        title,
        language: "en",
        pages: steps,
        blocks: [
          { _tag: "Heading", level: 1, text: title },
          { _tag: "Paragraph", text: `This is a simulated conversion of a ${pdf.byteLength}-byte PDF.` },
          { _tag: "Paragraph", text: `It took ${took} in ${steps} steps.` }
        ]
      }
      return document
    })

  return {
    toMarkdown: (pdf, convertOptions) =>
      Effect.map(work(pdf, convertOptions), (document) => ({
        output: Markdown.render(document),
        pages: steps,
        warnings: []
      })),
    toEpub: (pdf, convertOptions) =>
      Effect.gen(function*() {
        const document = yield* work(pdf, convertOptions)
        const modified = new Date(yield* Clock.currentTimeMillis)
        return { output: Epub.build(document, { modified }), pages: steps, warnings: [] }
      })
  }
}

/**
 * The simulated converter as a `Converter` layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = {}): Layer.Layer<Converter> => Layer.succeed(Converter, make(options))
