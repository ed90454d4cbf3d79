import { assert, describe, it } from "@effect/vitest"
import { Console, Effect } from "effect"
import * as PlainConsole from "../src/internal/plainConsole.js"

/** A console that records what it is asked to write, by method. */
const recording = () => {
  const written: Array<[string, ReadonlyArray<unknown>]> = []
  const record = (method: string) => (...args: ReadonlyArray<unknown>) =>
    Effect.sync(() => void written.push([method, args]))
  const console = Effect.runSync(Console.consoleWith(Effect.succeed))
  return {
    written,
    console: { ...console, log: record("log"), info: record("info"), error: record("error"), warn: record("warn") }
  }
}

describe("plain console", () => {
  it("takes the styles out of what goes to a plain stream and keeps them for a terminal", () => {
    const { console, written } = recording()
    const styled = "\x1b[0;1mUSAGE\x1b[0m"
    const program = Effect.all([Console.log(styled, 1), Console.error(styled)], { discard: true })
    Effect.runSync(Effect.withConsole(program, PlainConsole.make(console, true, false)))
    assert.deepStrictEqual(written, [["log", ["USAGE", 1]], ["error", [styled]]])
  })
})
