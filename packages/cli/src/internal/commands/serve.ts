/**
 * `pdf-transform serve`: the reference server in the foreground, with the local converter or, with
 * `--simulate`, a converter that only takes time (for trying clients and batches at scale).
 */
import * as Server from "@pdf-transform/server/Server"
import * as SimulatedConverter from "@pdf-transform/server/SimulatedConverter"
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
import { conclude } from "../conclude.js"
import * as LiveConverter from "../liveConverter.js"

export interface Flags {
  readonly port: number
  readonly host: string
  readonly keys: Option.Option<string>
  readonly simulate: Option.Option<Duration.Duration>
  readonly dataDir: string
  readonly blobDir: Option.Option<string>
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly publicUrl: Option.Option<string>
  readonly nodeId: Option.Option<string>
  readonly verbose: boolean
}

/** Where the server keeps its state: a data folder (SQLite, or memory), or a database shared by several nodes. */
type Storage =
  | { readonly _tag: "Folder"; readonly dataDir: string }
  | { readonly _tag: "Shared"; readonly url: Redacted.Redacted<string> }

const storageOf = (flags: Flags): Storage => {
  const fromEnv = process.env.PDF_TRANSFORM_SERVER_DATABASE_URL
  const url = Option.orElse(
    flags.databaseUrl,
    () => fromEnv === undefined || fromEnv === "" ? Option.none() : Option.some(Redacted.make(fromEnv))
  )
  return Option.isSome(url) ? { _tag: "Shared", url: url.value } : { _tag: "Folder", dataDir: flags.dataDir }
}

/**
 * The options of a node of a shared database: every node must accept the same keys and sign with
 * the same key, so the keys are given, not made up, and the signing key comes from the environment.
 * PostgreSQL's client is loaded only here.
 */
const sharedOptions = (url: Redacted.Redacted<string>, generatedKeys: boolean, nodeId: Option.Option<string>) =>
  Effect.gen(function*() {
    if (generatedKeys) {
      return yield* new UsageError({
        message: "--database-url needs --keys (or PDF_TRANSFORM_SERVER_KEYS), the same on every node"
      })
    }
    const signingKey = process.env.PDF_TRANSFORM_SERVER_SIGNING_KEY
    if (signingKey === undefined || signingKey === "") {
      return yield* new UsageError({
        message: "--database-url needs PDF_TRANSFORM_SERVER_SIGNING_KEY, the same on every node, so that " +
          "a URL signed by one node works on the others"
      })
    }
    const PgClient = yield* Effect.promise(() => import("@effect/sql-pg/PgClient"))
    return {
      database: PgClient.layer({ url }),
      signingKey: Redacted.make(signingKey),
      ...(Option.isSome(nodeId) ? { node: { id: nodeId.value } } : {})
    }
  })

const keysOf = (flags: Flags) =>
  Effect.gen(function*() {
    const given = Option.orElse(flags.keys, () => Option.fromNullable(process.env.PDF_TRANSFORM_SERVER_KEYS))
    if (Option.isNone(given)) {
      return { keys: [Crypto.randomBytes(24).toString("base64url")], generated: true }
    }
    const keys = given.value.split(",").map((key) => key.trim()).filter((key) => key !== "")
    if (keys.length === 0 || keys.some((key) => !/^[\x21-\x7e]+$/.test(key))) {
      return yield* new UsageError({
        message: "--keys takes API keys separated by commas, each of printable characters without spaces"
      })
    }
    return { keys, generated: false }
  })

/**
 * The signing key of the server's URLs: `PDF_TRANSFORM_SERVER_SIGNING_KEY`, else, with a data
 * folder, one made once and kept there (`signing.key`, readable by its owner only), so that the
 * URLs handed out before a restart still work after it; else one made for this run.
 */
const signingKeyOf = (dataDir: string) =>
  Effect.try({
    try: () => {
      const given = process.env.PDF_TRANSFORM_SERVER_SIGNING_KEY
      if (given !== undefined && given !== "") return Option.some(Redacted.make(given))
      if (dataDir === "") return Option.none()
      const file = Path.join(Path.resolve(dataDir), "signing.key")
      Fs.mkdirSync(Path.dirname(file), { recursive: true })
      if (!Fs.existsSync(file)) {
        Fs.writeFileSync(file, Crypto.randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" })
      }
      return Option.some(Redacted.make(Fs.readFileSync(file, "utf8").trim()))
    },
    catch: (cause) =>
      new BackendFailed({ reason: `the data folder ${dataDir} cannot hold the signing key: ${String(cause)}` })
  })

const run = (flags: Flags) =>
  Effect.gen(function*() {
    if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65535) {
      return yield* new UsageError({ message: `--port must be from 0 (any free port) to 65535, not ${flags.port}` })
    }
    const { generated, keys } = yield* keysOf(flags)
    // Simulated durations vary by a fifth either way: tasks submitted together do not all end together.
    const converter = Option.isSome(flags.simulate) ?
      SimulatedConverter.layer({ duration: flags.simulate.value, jitter: 0.2 }) :
      (yield* LiveConverter.load)()
    const storage = storageOf(flags)
    const stored = storage._tag === "Shared"
      ? yield* sharedOptions(storage.url, generated, flags.nodeId)
      : {
        signingKey: Option.getOrUndefined(yield* signingKeyOf(storage.dataDir)),
        ...(storage.dataDir === "" ? {} : { dataDir: Path.resolve(storage.dataDir) })
      }
    const blobDir = Option.orElse(flags.blobDir, () => {
      const fromEnv = process.env.PDF_TRANSFORM_SERVER_BLOB_DIR
      return fromEnv === undefined || fromEnv === "" ? Option.none() : Option.some(fromEnv)
    })
    const server = Server.layer({
      keys: keys.map((key) => Redacted.make(key)),
      ...(Option.isSome(blobDir) ? { blobDir: Path.resolve(blobDir.value) } : {}),
      port: flags.port,
      host: flags.host,
      ...(Option.isSome(flags.publicUrl) ? { publicUrl: flags.publicUrl.value } : {}),
      ...stored
    }).pipe(
      Layer.provide(converter),
      Layer.mapError((error) => new BackendFailed({ reason: error.message }))
    )
    const announce = Effect.flatMap(Server.Server, ({ baseUrl }) =>
      Effect.sync(() => {
        const out = (line: string) => process.stdout.write(`${line}\n`)
        const engine = Option.match(flags.simulate, {
          onNone: () => "the local converter",
          onSome: (duration) => `simulated conversions of ${Duration.format(duration)}`
        })
        out(`pdf-transform server listening on ${baseUrl} (${engine})`)
        out(`Its web page: ${baseUrl.replace(/\/v1$/, "")}/ (sign in with an API key)`)
        out(
          storage._tag === "Shared"
            ? "Tasks, uploads and outputs are kept in the shared PostgreSQL database, with the other nodes'."
            : storage.dataDir === ""
            ? "Tasks, uploads and outputs are kept in memory: a restart forgets them."
            : `Tasks, uploads and outputs are kept in ${Path.resolve(storage.dataDir)} (they survive a restart).`
        )
        if (Option.isSome(blobDir)) out(`The bytes of outputs and uploads are files in ${Path.resolve(blobDir.value)}.`)
        if (generated) out(`API key (made for this run; choose yours with --keys): ${keys[0]}`)
        out(`Convert through it: pdf-transform convert FILES --to markdown --base-url ${baseUrl} --api-key KEY`)
        out("Ctrl-C stops it.")
      }))
    return yield* Effect.zipRight(announce, Effect.never).pipe(Effect.provide(server))
  })

/** Runs the server until Ctrl-C; an error ends as a sentence on stderr and an exit code. */
export const serve = (flags: Flags) =>
  conclude(run(flags).pipe(Logger.withMinimumLogLevel(flags.verbose ? LogLevel.Debug : LogLevel.Info)))
