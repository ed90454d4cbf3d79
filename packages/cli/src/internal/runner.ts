/** Runs the command as a process: signals, its exit code, the cursor shown again, a defect in one sentence. */
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { ExitCode } from "../ExitCode.js"
import { ExitStatus, Interrupts } from "./interrupts.js"
import { showCursor } from "./view/style.js"

/** Time the process gets to let its output drain after the command ends, before it exits anyway. */
const drainMillis = 2_000

export const runMain = (
  program: Effect.Effect<void, never, Interrupts | ExitStatus>,
  options: { readonly verbose: boolean }
): void => {
  const first = Effect.runSync(Deferred.make<void>())
  const second = Effect.runSync(Deferred.make<void>())
  let gentle = false
  let signals = 0
  let code: number = ExitCode.ok
  const interrupts = {
    first,
    second,
    gentle: Effect.sync(() => {
      gentle = true
    })
  }
  const exitStatus = {
    set: (chosen: number) =>
      Effect.sync(() => {
        code = chosen
      })
  }
  const fiber = Effect.runFork(
    program.pipe(Effect.provideService(Interrupts, interrupts), Effect.provideService(ExitStatus, exitStatus))
  )
  // Fibers waiting on a Ctrl-C hold no handle of Node's: this one keeps the process alive meanwhile.
  const keepAlive = setInterval(() => {}, 2 ** 31 - 1)
  const restoreTerminal = () => {
    if (process.stdout.isTTY) process.stdout.write(showCursor)
  }
  const onSignal = () => {
    signals++
    if (signals >= 3 || (!gentle && signals >= 2)) {
      restoreTerminal()
      process.exit(ExitCode.interrupted)
    }
    if (!gentle) fiber.unsafeInterruptAsFork(fiber.id())
    else Effect.runSync(Deferred.succeed(signals === 1 ? first : second, undefined))
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  // A reader that went away (`| head`) is not an error of the command.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(code)
  })
  fiber.addObserver((exit) => {
    clearInterval(keepAlive)
    process.removeListener("SIGINT", onSignal)
    process.removeListener("SIGTERM", onSignal)
    if (Exit.isFailure(exit)) {
      if (Cause.isInterruptedOnly(exit.cause)) {
        code = ExitCode.interrupted
      } else {
        restoreTerminal()
        process.stderr.write(
          options.verbose ?
            `pdf-transform: internal error:\n${Cause.pretty(exit.cause)}\n` :
            "pdf-transform: internal error (run again with --verbose to see it). Please report it.\n"
        )
        code = ExitCode.failed
      }
    }
    process.exitCode = code
    // Normally the process ends here by itself; a handle left open must not keep it alive.
    setTimeout(() => process.exit(code), drainMillis).unref()
  })
}
