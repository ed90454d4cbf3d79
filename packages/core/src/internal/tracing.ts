/** The client's spans. */
import * as Effect from "effect/Effect"

/** A span with its attributes given up front, and no stack trace: the frames it would capture point into this
 * package, never at the caller's code, and capturing them is a large part of a span's cost. */
export const span = (name: string, attributes: Record<string, unknown>) =>
  Effect.withSpan(name, { attributes, captureStackTrace: false })
