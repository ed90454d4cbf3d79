/** A batch's progress as a live view, plain lines or JSON lines; logs above the view or to stderr, never in JSON. */
import type { BatchEvent } from "@pdf-transform/stream/BatchEvent"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Lines from "./lines.js"
import * as Live from "./view/live.js"
import type { Style } from "./view/style.js"

export type Mode = "live" | "plain" | "json"

export interface Streams {
  readonly stdout: Live.Output
  readonly stderr: (text: string) => void
}

export interface Reporter {
  readonly mode: Mode
  /** A message for people (live and plain), or its JSON form (json). */
  readonly notice: (text: string, json: Record<string, unknown>) => Effect.Effect<void>
  readonly event: (event: BatchEvent) => Effect.Effect<void>
  /** A log line: above the live view, or to stderr. */
  readonly log: (text: string) => void
  /** Ends the live view (its total line stays); later output follows it. */
  readonly close: Effect.Effect<void>
}

/** How often the live view redraws: smooth spinner and clock, little CPU. */
const tick = "125 millis"

export const make = (
  mode: Mode,
  options: {
    readonly streams: Streams
    readonly style: Style
    readonly display: Lines.Display
    readonly total: number
  }
): Effect.Effect<Reporter, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { display, streams, style } = options
    const out = (text: string) => Effect.sync(() => streams.stdout.write(`${text}\n`))
    if (mode === "json") {
      return {
        mode,
        notice: (_text, json) => out(JSON.stringify(json)),
        event: (event) => out(JSON.stringify(Lines.json(event, display))),
        log: (text) => streams.stderr(`${text}\n`),
        close: Effect.void
      }
    }
    if (mode === "plain") {
      return {
        mode,
        notice: (text) => out(text),
        event: (event) => out(Lines.plain(event, display)),
        log: (text) => streams.stderr(`${text}\n`),
        close: Effect.void
      }
    }
    const live = Live.make(streams.stdout, style, options.total, Date.now)
    yield* Effect.forkScoped(Effect.repeat(Effect.sync(() => live.tick()), Schedule.spaced(tick)))
    // Whatever ends the command, the cursor shows again and the frame stops where it is.
    yield* Effect.addFinalizer(() => Effect.sync(() => live.close()))
    return {
      mode,
      notice: (text) => Effect.sync(() => live.print(text)),
      event: (event) => Effect.sync(() => live.event(event, Lines.lasting(event, display, style))),
      log: (text) => live.print(style.dim(text)),
      close: Effect.sync(() => live.close())
    }
  })
