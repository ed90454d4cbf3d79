/**
 * The settings of `serve` from flags, environment and config file (in that precedence), read by the
 * server's `ServerConfig`; a bad value stops the command first, saying where it was given.
 */
import * as ServerConfig from "@pdf-transform/server/ServerConfig"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Fs from "node:fs"
import { UsageError } from "../../CliError.js"

/** The variable that names the config file when `--config` is not given. */
export const configEnv = "PDF_TRANSFORM_SERVER_CONFIG"

const refused = (problems: ReadonlyArray<ServerConfig.Problem>) =>
  new UsageError({
    message: `the server's settings cannot be used: ${
      problems.map(({ message, where }) => `${where}: ${message}`).join("; ")
    }`
  })

type Decoded = Either.Either<ServerConfig.ServerConfig, ReadonlyArray<ServerConfig.Problem>>

const fileSettings = (given: Option.Option<string>): Effect.Effect<Decoded, UsageError> =>
  Effect.gen(function*() {
    const fromEnv = process.env[configEnv]
    const file = Option.getOrUndefined(given) ?? (fromEnv === undefined || fromEnv === "" ? undefined : fromEnv)
    if (file === undefined) return Either.right({})
    const text = yield* Effect.try({
      try: () => Fs.readFileSync(file, "utf8"),
      catch: (cause) =>
        new UsageError({
          message: `the config file ${file} cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`
        })
    })
    return ServerConfig.decodeFile(text, file)
  })

/** The settings of `flags`, the environment and the config file, merged flag over environment over file. */
export const settingsOf = (flags: {
  readonly settings: Readonly<Record<string, Option.Option<string>>>
  readonly config: Option.Option<string>
}): Effect.Effect<ServerConfig.ServerConfig, UsageError> =>
  Effect.gen(function*() {
    const given = ServerConfig.settings.flatMap((setting) => {
      const value = flags.settings[setting.flag] ?? Option.none()
      return Option.isSome(value) ? [[setting, value.value] as const] : []
    })
    // Every source is read before any problem is reported, so that one run names them all.
    const sources = [
      ServerConfig.decodeText(given, (setting) => `--${setting.flag}`),
      ServerConfig.decodeEnv(process.env),
      yield* fileSettings(flags.config)
    ]
    const problems = sources.flatMap((source) => Either.isLeft(source) ? source.left : [])
    if (problems.length > 0) return yield* refused(problems)
    return ServerConfig.merge(...sources.flatMap((source) => Either.isRight(source) ? [source.right] : []))
  })
