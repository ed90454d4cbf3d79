/** @effect/cli's help and errors without ANSI styles where the command's own output has none (`view/style.ts`). */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { forStream, plain } from "./view/style.js"

/** SGR sequences (colours, bold, reset): the only escapes @effect/printer-ansi writes. */
const sgr = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g")

const strip = (args: ReadonlyArray<unknown>): ReadonlyArray<unknown> =>
  args.map((arg) => typeof arg === "string" ? arg.replace(sgr, "") : arg)

/** `console` with styles taken out of what it writes to stdout (`plainOut`) and stderr (`plainErr`). */
export const make = (console: Console.Console, plainOut: boolean, plainErr: boolean): Console.Console => {
  const out = (write: (...args: ReadonlyArray<unknown>) => Effect.Effect<void>) =>
    plainOut ? (...args: ReadonlyArray<unknown>) => write(...strip(args)) : write
  const err = (write: (...args: ReadonlyArray<unknown>) => Effect.Effect<void>) =>
    plainErr ? (...args: ReadonlyArray<unknown>) => write(...strip(args)) : write
  return {
    ...console,
    log: out((...args) => console.log(...args)),
    info: out((...args) => console.info(...args)),
    error: err((...args) => console.error(...args)),
    warn: err((...args) => console.warn(...args))
  }
}

/** Runs `self` with the current console, plain where the process's streams call for it. */
export const withPlainStreams = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Console.consoleWith((console) =>
    Effect.withConsole(
      self,
      make(
        console,
        forStream(process.stdout.isTTY === true, process.env) === plain,
        forStream(process.stderr.isTTY === true, process.env) === plain
      )
    )
  )
