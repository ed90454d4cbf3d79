/**
 * The server's settings as one Schema: every option of `Server.layer` and those of `pdf-transform
 * serve`, each with its flag (`--limits-rate`), its environment variable
 * (`PDF_TRANSFORM_SERVER_LIMITS_RATE`) and its place in a config file, all read by the same Schema.
 * Loads nothing but `effect`, so a command line can describe its flags from it.
 *
 * @since 0.2.0
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { getIn, group, leaf, redact, setIn, settingsOf } from "./internal/settingTree.js"
import type * as SettingTree from "./internal/settingTree.js"
import * as V from "./internal/settingValues.js"
import type { Options } from "./Server.js"
import { defaults } from "./ServerDefaults.js"

const limitFields = {
  rate: leaf(
    V.WindowLimitOrOff,
    "Token bucket per key: a burst of so many, refilled at that many per window (\"burst\" policy).",
    { default: defaults.rate }
  ),
  quota: leaf(V.WindowLimitOrOff, "Submits per key per fixed window (\"quota\" policy).", { default: defaults.quota }),
  concurrency: leaf(V.CountOrOff, "Tasks in flight per key, submitted and not yet finished (\"conc\" policy).", {
    default: defaults.concurrency
  }),
  concurrencyRetryAfter: leaf(V.PositiveDuration, "Retry hint sent with concurrency_exceeded.", {
    default: defaults.concurrencyRetryAfter
  })
}

/**
 * Every setting of the server. A config file is this Schema's JSON; an unknown key is an error.
 *
 * @since 0.2.0
 * @category schemas
 */
export const ServerConfig = Schema.Struct({
  port: leaf(V.Port, "The port to listen on (0: any free port).", { default: defaults.port }),
  host: leaf(Schema.String, "The address to listen on.", { default: defaults.host, pseudoName: "ADDRESS" }),
  publicUrl: leaf(
    V.HttpUrl,
    "The URL clients reach the server at, without /v1 (with several nodes: the load balancer's); " +
      "upload and download URLs are built on it (default: http:// and the listening address)."
  ),
  keys: leaf(
    V.Keys,
    "Accepted API keys, separated by commas; in a config file, a table of keys with a name and " +
      "limits of their own (serve: one is made up and printed when none is given).",
    { secret: true }
  ),
  signingKey: leaf(
    V.SigningKey,
    "HMAC key of signed URLs, at least 16 bytes, the same on every node (serve: kept in the data " +
      "folder as signing.key, or made for the run).",
    { secret: true }
  ),
  dataDir: leaf(
    Schema.String,
    "Where tasks, uploads and outputs are kept (server.db, SQLite): they survive a restart. '' keeps " +
      "them in memory only (Server.layer's default).",
    { default: ".pdf-transform-server", pseudoName: "FOLDER" }
  ),
  databaseUrl: leaf(
    V.Secret,
    "A PostgreSQL database shared by several nodes, instead of the data folder (postgres://...).",
    { secret: true, serveOnly: true, pseudoName: "postgres://..." }
  ),
  blobDir: leaf(
    Schema.String,
    "A folder for the bytes of outputs and uploads instead of the database; with several nodes, " +
      "the same folder on every node.",
    { pseudoName: "FOLDER" }
  ),
  node: group({
    id: leaf(
      Schema.NonEmptyString,
      "This node's name in logs and in the tasks it claims (default: host name and a random suffix).",
      { pseudoName: "NAME" }
    ),
    claimLease: leaf(
      V.PositiveDuration,
      "On a shared database, how long a claim on a task outlives a node that stopped renewing it.",
      { default: defaults.claimLease }
    ),
    claimPoll: leaf(
      V.PositiveDuration,
      "On a shared database, how often a node with a free slot looks for tasks submitted elsewhere.",
      { default: defaults.claimPoll }
    )
  }),
  limits: group(limitFields),
  conversions: group({
    maxConcurrent: leaf(V.Count, "Conversions running at once on this node; more tasks wait as processing.", {
      default: defaults.maxConcurrentConversions
    }),
    timeout: leaf(V.PositiveDuration, "Time limit of one conversion.", { default: defaults.conversionTimeout }),
    retention: leaf(V.PositiveDuration, "How long a finished task is answered, then 404.", {
      default: defaults.taskRetention
    }),
    maxTasks: leaf(V.Count, "Tasks kept; the oldest finished are dropped first.", { default: defaults.maxTasks }),
    maxStoredBytes: leaf(V.Bytes, "Bytes of finished outputs kept.", { default: defaults.maxStoredOutputBytes })
  }),
  downloadUrlTtl: leaf(V.PositiveDuration, "Lifetime of a download URL.", { default: defaults.downloadUrlTtl }),
  maxJsonBodyBytes: leaf(V.Bytes, "Limit of a submit body.", { default: defaults.maxJsonBodyBytes }),
  requestTimeout: leaf(
    V.PositiveDuration,
    "How long a request may take from its first byte to its answer; past it, a 503.",
    { default: defaults.requestTimeout }
  ),
  uploads: group({
    maxBytes: leaf(V.Bytes, "Largest PDF uploaded.", { default: defaults.uploadMaxBytes }),
    retention: leaf(V.PositiveDuration, "How long an uploaded file is kept.", { default: defaults.uploadRetention }),
    partSize: leaf(V.Bytes, "Part size of chunked uploads, at least 5MiB.", { default: defaults.uploadPartSize }),
    incompleteRetention: leaf(V.PositiveDuration, "How long a chunked upload may take from init to its last part.", {
      default: defaults.incompleteUploadRetention
    }),
    maxFiles: leaf(V.Count, "Uploads kept at once.", { default: defaults.maxUploads }),
    maxTotalBytes: leaf(V.Bytes, "Bytes of uploads kept at once.", { default: defaults.maxUploadBytes })
  }),
  remoteFetch: group({
    enabled: leaf(
      V.Switch,
      "Accept a pdfURL that is not one of this server's uploads; only public addresses are fetched.",
      { flag: "remote-fetch", default: false }
    ),
    maxBytes: leaf(V.Bytes, "Largest PDF fetched.", { default: defaults.remoteFetchMaxBytes }),
    timeout: leaf(V.PositiveDuration, "Time limit of a fetch.", { default: defaults.remoteFetchTimeout }),
    allowHosts: leaf(
      V.Hosts,
      "Fetch only from these hosts (*.example.com: its subdomains); every other host is refused."
    )
  }),
  shutdownGracePeriod: leaf(V.Duration0, "Time requests in flight get to finish when the listener closes.", {
    default: defaults.shutdownGracePeriod
  }),
  drainTimeout: leaf(
    V.Duration0,
    "At SIGTERM or SIGINT, time running conversions get to finish before other nodes take them.",
    { default: defaults.drainTimeout }
  ),
  metricsPort: leaf(
    V.Port,
    "Serve Prometheus metrics at GET /metrics on this port, a listener of its own (default: no " +
      "metrics; 0: any free port).",
    { serveOnly: true }
  ),
  metricsHost: leaf(Schema.String, "The address of the metrics listener.", {
    default: "127.0.0.1",
    serveOnly: true,
    pseudoName: "ADDRESS"
  }),
  metricsRefresh: leaf(
    V.Duration0,
    "With metrics: how often the cluster's task counts are read into them (a scrape serves the last; " +
      "0s: read at each scrape).",
    { default: defaults.metricsRefresh }
  ),
  logFormat: leaf(
    V.LogFormat,
    "Log lines as text or as JSON objects, one a line, a line per request among them (default: " +
      "text on a terminal, json otherwise).",
    { serveOnly: true }
  ),
  webPage: leaf(V.Switch, "The web page at / and its API under /api, behind the same keys.", { default: true })
})

/**
 * Settings as decoded: every field optional, the values typed (durations, redacted secrets).
 *
 * @since 0.2.0
 * @category models
 */
export type ServerConfig = typeof ServerConfig.Type

/**
 * One setting: where it sits in a config file, its flag and its environment variable.
 *
 * @since 0.2.0
 * @category models
 */
export type Setting = SettingTree.Setting

/**
 * Every setting, in the order of the Schema.
 *
 * @since 0.2.0
 * @category constants
 */
export const settings: ReadonlyArray<Setting> = settingsOf(ServerConfig.ast, [])

const decode = Schema.decodeUnknownEither(ServerConfig)
const encode = Schema.encodeSync(ServerConfig)
const parseOptions = { errors: "all", onExcessProperty: "error" } as const

/**
 * A setting that cannot be used: where it was given (a path in a file, a flag, a variable) and
 * what is wrong with it (the value and what is allowed).
 *
 * @since 0.2.0
 * @category models
 */
export interface Problem {
  readonly where: string
  readonly message: string
}

const problemsOf = (
  error: ParseResult.ParseError,
  place: (path: ReadonlyArray<PropertyKey>) => string
): ReadonlyArray<Problem> =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    where: place(issue.path),
    message: issue.message
  }))

/**
 * A config file's settings (its text, JSON), or every problem, each naming the path in the file,
 * the value and what is allowed.
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeFile = (text: string, file: string): Either.Either<ServerConfig, ReadonlyArray<Problem>> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return Either.left([{
      where: file,
      message: `not JSON (${error instanceof Error ? error.message : String(error)})`
    }])
  }
  return Either.mapLeft(
    decode(json, parseOptions),
    (error) => problemsOf(error, (path) => `${file}: ${path.length === 0 ? "(the file)" : path.map(String).join(".")}`)
  )
}

const settingAt = (path: ReadonlyArray<PropertyKey>): Setting | undefined =>
  settings.find((setting) => setting.path.every((key, i) => path[i] === key))

/**
 * Settings given as text, by setting (the values of flags or environment variables), decoded
 * with the same Schema; each problem names the setting as `name` does (its flag, its variable).
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeText = (
  values: ReadonlyArray<readonly [Setting, string]>,
  name: (setting: Setting) => string
): Either.Either<ServerConfig, ReadonlyArray<Problem>> => {
  const input: Record<string, unknown> = {}
  for (const [setting, text] of values) setIn(input, setting.path, text)
  return Either.mapLeft(decode(input, parseOptions), (error) =>
    problemsOf(error, (path) => {
      const setting = settingAt(path)
      return setting === undefined ? path.map(String).join(".") : name(setting)
    }))
}

/**
 * The settings of environment variables (`PDF_TRANSFORM_SERVER_*`) in `env`; a variable set to
 * blanks is not set. Each problem names the variable.
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeEnv = (
  env: Readonly<Record<string, string | undefined>>
): Either.Either<ServerConfig, ReadonlyArray<Problem>> =>
  decodeText(
    settings.flatMap((setting) => {
      const text = env[setting.env]
      return text === undefined || text.trim() === "" ? [] : [[setting, text] as const]
    }),
    (setting) => setting.env
  )

/**
 * `decodeEnv` through Effect's `Config` (the process's environment unless another
 * `ConfigProvider` is given): a value that cannot be used is a `ConfigError` naming the variable.
 *
 * @since 0.2.0
 * @category decoding
 */
export const fromEnv: Effect.Effect<ServerConfig, ConfigError.ConfigError> = Effect.gen(function*() {
  const env: Record<string, string> = {}
  for (const setting of settings) {
    const text = yield* Config.option(Config.string(setting.env))
    if (Option.isSome(text)) env[setting.env] = text.value
  }
  return yield* Either.match(decodeEnv(env), {
    onLeft: (problems) =>
      Effect.fail(
        problems.map(({ message, where }) => ConfigError.InvalidData([where], message)).reduce(ConfigError.And)
      ),
    onRight: Effect.succeed
  })
})

/**
 * The settings of several sources, the first that sets a setting winning: give them as
 * flags, environment, file.
 *
 * @since 0.2.0
 * @category combinators
 */
export const merge = (...sources: ReadonlyArray<ServerConfig>): ServerConfig => {
  const merged: Record<string, unknown> = {}
  for (const setting of settings) {
    const value = sources.map((source) => getIn(source, setting.path)).find((value) => value !== undefined)
    if (value !== undefined) setIn(merged, setting.path, value)
  }
  return merged as ServerConfig
}

/**
 * The settings with `pdf-transform serve`'s defaults filled in, as a config file would hold
 * them, every secret replaced by `<redacted>`: what `serve --print-config` prints.
 *
 * @since 0.2.0
 * @category encoding
 */
export const effective = (config: ServerConfig): Record<string, unknown> => {
  const filled: Record<string, unknown> = {}
  for (const setting of settings) {
    const value = getIn(config, setting.path) ?? Option.getOrUndefined(setting.default)
    if (value !== undefined) setIn(filled, setting.path, value)
  }
  const encoded = encode(filled as ServerConfig) as Record<string, unknown>
  for (const setting of settings) {
    const value = getIn(encoded, setting.path)
    if (setting.secret && value !== undefined) setIn(encoded, setting.path, redact(value))
  }
  return encoded
}

/**
 * The options of `Server.layer` the settings give, over `base` setting by setting (for
 * `Server.layerConfig`, the options given in code); the settings only `serve` reads are left out.
 *
 * @since 0.2.0
 * @category conversions
 */
export const toOptions = (config: ServerConfig, base: Partial<Options> = {}): Partial<Options> => {
  // Typed as options: a setting that `Server.layer` would not take fails to compile here.
  const {
    databaseUrl: _databaseUrl,
    logFormat: _logFormat,
    metricsHost: _metricsHost,
    metricsPort: _metricsPort,
    ...options
  } = config
  const given: Partial<Options> = options
  const merged: Record<string, unknown> = { ...base }
  for (const setting of settings) {
    const value = getIn(given, setting.path)
    if (value !== undefined) setIn(merged, setting.path, value)
  }
  return merged as Partial<Options>
}
