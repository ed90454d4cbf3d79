/**
 * `pdf-transform serve`: the reference server in the foreground, with the local converter or, with
 * `--simulate`, a converter that only takes time (for trying clients and batches at scale).
 */
import * as HttpServer from "@effect/platform/HttpServer"
import * as Server from "@pdf-transform/server/Server"
import * as ServerConfig from "@pdf-transform/server/ServerConfig"
import * as SimulatedConverter from "@pdf-transform/server/SimulatedConverter"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { BackendFailed, UsageError } from "../../CliError.js"
import * as ExitCode from "../../ExitCode.js"
import { conclude } from "../conclude.js"
import { Interrupts } from "../interrupts.js"
import * as LiveConverter from "../liveConverter.js"
import { settingsOf } from "./serveConfig.js"

export interface Flags {
  /** Every setting of `ServerConfig.settings` by its flag's name, as typed. */
  readonly settings: Readonly<Record<string, Option.Option<string>>>
  readonly config: Option.Option<string>
  readonly printConfig: boolean
  readonly simulate: Option.Option<Duration.Duration>
  readonly verbose: boolean
}

/** The data folder when none is given: the current folder's, so a second run finds the first one's tasks. */
const defaultDataDir = ".pdf-transform-server"

/**
 * The options of a node of a shared database: every node must accept the same keys and sign with
 * the same key, so the keys are given, not made up, and so is the signing key. PostgreSQL's client
 * is loaded only here.
 */
const sharedOptions = (settings: ServerConfig.ServerConfig, url: Redacted.Redacted<string>, generatedKeys: boolean) =>
  Effect.gen(function*() {
    if (generatedKeys) {
      return yield* new UsageError({
        message: "--database-url needs --keys (or PDF_TRANSFORM_SERVER_KEYS), the same on every node"
      })
    }
    if (settings.signingKey === undefined) {
      return yield* new UsageError({
        message: "--database-url needs PDF_TRANSFORM_SERVER_SIGNING_KEY (or --signing-key, or signingKey in the " +
          "config file), the same on every node, so that a URL signed by one node works on the others"
      })
    }
    const PgClient = yield* Effect.promise(() => import("@effect/sql-pg/PgClient"))
    return { database: PgClient.layer({ url }), signingKey: settings.signingKey }
  })

/**
 * The signing key of the server's URLs when none is given: with a data folder, one made once and
 * kept there (`signing.key`, readable by its owner only), so that the URLs handed out before a
 * restart still work after it; else one made for this run.
 */
const signingKeyIn = (dataDir: string) =>
  Effect.try({
    try: () => {
      if (dataDir === "") return undefined
      const file = Path.join(Path.resolve(dataDir), "signing.key")
      Fs.mkdirSync(Path.dirname(file), { recursive: true })
      if (!Fs.existsSync(file)) {
        Fs.writeFileSync(file, Crypto.randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" })
      }
      return Redacted.make(Fs.readFileSync(file, "utf8").trim())
    },
    catch: (cause) =>
      new BackendFailed({ reason: `the data folder ${dataDir} cannot hold the signing key: ${String(cause)}` })
  })

/**
 * OpenTelemetry, loaded only when it is asked for: Prometheus metrics on `metricsPort`, and traces
 * when the standard OTLP variables name an endpoint. `around` wraps the server's layer.
 */
const telemetryOf = (settings: ServerConfig.ServerConfig) =>
  Effect.gen(function*() {
    const otlp = [process.env["OTEL_EXPORTER_OTLP_ENDPOINT"], process.env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]]
      .some((endpoint) => endpoint !== undefined && endpoint !== "")
    const port = settings.metricsPort
    if (port === undefined && !otlp) {
      return { around: <A, E, R>(layer: Layer.Layer<A, E, R>) => layer, metricsUrl: Effect.succeed(undefined) }
    }
    const Telemetry = yield* Effect.promise(() => import("@pdf-transform/server/Telemetry"))
    const metrics = port === undefined ? undefined : Telemetry.metrics({ port, host: settings.metricsHost })
    return {
      around: <E, R>(layer: Layer.Layer<Server.Server | HttpServer.HttpServer, E, R>) => {
        const traced = layer.pipe(Layer.provide(Telemetry.tracing()))
        return metrics === undefined ? traced : Layer.provideMerge(metrics, traced)
      },
      metricsUrl: metrics === undefined ? Effect.succeed(undefined) : Effect.map(
        Effect.serviceOption(Telemetry.MetricsListener),
        (listener) =>
          Option.getOrUndefined(Option.map(listener, ({ address }) => `${HttpServer.formatAddress(address)}/metrics`))
      )
    }
  })

const run = (flags: Flags) =>
  Effect.gen(function*() {
    const settings = yield* settingsOf(flags)
    if (flags.printConfig) {
      process.stdout.write(`${JSON.stringify(ServerConfig.effective(settings), null, 2)}\n`)
      return ExitCode.ExitCode.ok
    }
    const generated = settings.keys === undefined ? Crypto.randomBytes(24).toString("base64url") : undefined
    const keys = settings.keys ?? [Redacted.make(generated!)]
    // Simulated durations vary by a fifth either way: tasks submitted together do not all end together.
    const converter = Option.isSome(flags.simulate) ?
      SimulatedConverter.layer({ duration: flags.simulate.value, jitter: 0.2 }) :
      (yield* LiveConverter.load)()
    const dataDir = settings.dataDir ?? defaultDataDir
    const shared = settings.databaseUrl !== undefined
    const stored = settings.databaseUrl !== undefined
      ? yield* sharedOptions(settings, settings.databaseUrl, generated !== undefined)
      : {
        signingKey: settings.signingKey ?? (yield* signingKeyIn(dataDir)),
        ...(dataDir === "" ? {} : { dataDir: Path.resolve(dataDir) })
      }
    const blobDir = settings.blobDir === undefined ? undefined : Path.resolve(settings.blobDir)
    const { dataDir: _dataDir, ...options } = ServerConfig.toOptions(settings)
    const telemetry = yield* telemetryOf(settings)
    const json = (settings.logFormat ?? (process.stdout.isTTY ? "text" : "json")) === "json"
    // In JSON, the command's own lines are log lines too, so that every line of stdout parses.
    const say = (line: string) => json ? Effect.logInfo(line) : Effect.sync(() => process.stdout.write(`${line}\n`))
    const server = Server.layer({
      ...options,
      keys,
      ...stored,
      ...(blobDir === undefined ? {} : { blobDir }),
      metrics: settings.metricsPort !== undefined,
      requestLog: true
    }).pipe(
      Layer.provide(converter),
      telemetry.around,
      Layer.mapError((error) => new BackendFailed({ reason: error.message }))
    )
    const announce = Effect.flatMap(Effect.zip(Server.Server, telemetry.metricsUrl), ([{ baseUrl }, metricsUrl]) =>
      Effect.suspend(() => {
        const lines: Array<string> = []
        const out = (line: string) =>
          lines.push(line)
        const engine = Option.match(flags.simulate, {
          onNone: () => "the local converter",
          onSome: (duration) => `simulated conversions of ${Duration.format(duration)}`
        })
        out(`pdf-transform server listening on ${baseUrl} (${engine})`)
        out(`Its web page: ${baseUrl.replace(/\/v1$/, "")}/ (sign in with an API key)`)
        out(
          shared
            ? "Tasks, uploads and outputs are kept in the shared PostgreSQL database, with the other nodes'."
            : dataDir === ""
            ? "Tasks, uploads and outputs are kept in memory: a restart forgets them."
            : `Tasks, uploads and outputs are kept in ${Path.resolve(dataDir)} (they survive a restart).`
        )
        if (blobDir !== undefined) out(`The bytes of outputs and uploads are files in ${blobDir}.`)
        if (metricsUrl !== undefined) out(`Prometheus metrics: ${metricsUrl}`)
        if (generated !== undefined) out(`API key (made for this run; choose yours with --keys): ${generated}`)
        out(`Convert through it: pdf-transform convert FILES --to markdown --base-url ${baseUrl} --api-key KEY`)
        out("Ctrl-C (or SIGTERM) stops it, after the conversions running here; a second one at once.")
        return Effect.forEach(lines, say, { discard: true })
      }))
    const interrupts = yield* Interrupts
    yield* interrupts.gentle
    const stop = Effect.gen(function*() {
      yield* announce
      yield* Deferred.await(interrupts.first)
      yield* say(
        `Stopping: no new submits; conversions running get ${
          Duration.format(settings.drainTimeout ?? Server.defaults.drainTimeout)
        } to finish.`
      )
      const { drain } = yield* Server.Server
      // A second signal cuts the drain: closing the server then stops the conversions and releases their claims.
      return yield* Effect.raceFirst(
        Effect.as(drain, ExitCode.ExitCode.ok),
        Effect.as(Deferred.await(interrupts.second), ExitCode.ExitCode.interrupted)
      )
    })
    return yield* stop.pipe(Effect.provide(server), Effect.provide(json ? Logger.json : Layer.empty))
  })

/** Runs the server until Ctrl-C; an error ends as a sentence on stderr and an exit code. */
export const serve = (flags: Flags) =>
  conclude(run(flags).pipe(Logger.withMinimumLogLevel(flags.verbose ? LogLevel.Debug : LogLevel.Info)))
