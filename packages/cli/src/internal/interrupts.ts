/**
 * Ctrl-C as the command sees it: for a command that stops gently, the first completes `first` (no new
 * work), the second `second` (stop now), a third ends the process; other commands stop at the first.
 */
import * as Context from "effect/Context"
import type * as Deferred from "effect/Deferred"
import type * as Effect from "effect/Effect"

export interface Service {
  readonly first: Deferred.Deferred<void>
  readonly second: Deferred.Deferred<void>
  /** From now on Ctrl-C completes `first`, then `second`, instead of interrupting the command. */
  readonly gentle: Effect.Effect<void>
}

export class Interrupts extends Context.Tag("@pdf-transform/cli/Interrupts")<Interrupts, Service>() {}

/** The exit code the command chose (the runner exits with it). */
export interface ExitStatusService {
  readonly set: (code: number) => Effect.Effect<void>
}

export class ExitStatus extends Context.Tag("@pdf-transform/cli/ExitStatus")<ExitStatus, ExitStatusService>() {}
