/** How every command ends: its exit code to the runner, an error as its sentence on stderr. */
import * as Effect from "effect/Effect"
import * as ExitCode from "../ExitCode.js"
import * as Messages from "../Messages.js"
import * as Display from "./display.js"
import { ExitStatus } from "./interrupts.js"

export const conclude = <E extends Messages.Explainable, R>(
  command: Effect.Effect<number, E, R>,
  context: () => Messages.Context = () => ({})
): Effect.Effect<void, never, R | ExitStatus> =>
  command.pipe(
    Effect.catchAll((error) =>
      Effect.sync(() => {
        Display.printError(Messages.sentence(error, context()))
        return ExitCode.ofError(error)
      })
    ),
    Effect.flatMap((code) => Effect.flatMap(ExitStatus, (status) => status.set(code)))
  )
