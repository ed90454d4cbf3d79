/**
 * Converts the PDF named on the command line to Markdown in this process, with the logs at Debug
 * level on stderr (and the page count last): run by tests that watch what reaches stdout.
 */
import { Effect, Logger, LogLevel } from "effect"
import { readFileSync } from "node:fs"
import { ConverterLive } from "../../src/index.js"

const logger = Logger.make(({ logLevel, message }) => {
  process.stderr.write(`${logLevel.label} ${JSON.stringify(message)}\n`)
})

const result = await Effect.runPromise(
  ConverterLive.makeInProcess().toMarkdown(new Uint8Array(readFileSync(process.argv[2]!))).pipe(
    Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
    Logger.withMinimumLogLevel(LogLevel.Debug)
  )
)
process.stderr.write(`pages ${result.pages}\n`)
