/** The client's spans. */
import * as Effect from "effect/Effect"

/**
 * A span with its attributes given up front, and no stack trace: the frames it would capture
 * point into this package, never at the caller's code, and capturing them cost a fifth of a
 * span's time in the loopback benchmark.
 */
export const span = (name: string, attributes: Record<string, unknown>) =>
  Effect.withSpan(name, { attributes, captureStackTrace: false })
