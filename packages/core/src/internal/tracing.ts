/** The client's spans. */
import * as Effect from "effect/Effect"

/** A span with its attributes up front and no stack trace (it would point into this package). */
export const span = (name: string, attributes: Record<string, unknown>) =>
  Effect.withSpan(name, { attributes, captureStackTrace: false })
