/**
 * The reference server of the PDF Conversion Service v1: the contract's four operations under
 * `/v1`, bearer keys, a per-key limiter with RateLimit headers, uploads, signed downloads, and
 * conversions in the background through the `Converter` service.
 *
 * @since 0.1.0
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import type { ServeError } from "@effect/platform/HttpServerError"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { Converter } from "@pdf-transform/converter/Converter"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as internalApp from "./internal/app.js"
import * as internalListener from "./internal/listener.js"
import { openApiDocument } from "./internal/openapi.js"
import * as internalOptions from "./internal/options.js"
import * as internalStorage from "./internal/storage.js"
import * as internalStore from "./internal/store.js"
import * as ServerConfig from "./ServerConfig.js"
import * as ServerDefaults from "./ServerDefaults.js"

/**
 * A limit of so many per window.
 *
 * @since 0.1.0
 * @category options
 */
export interface WindowLimit {
  readonly limit: number
  readonly window: Duration.DurationInput
}

/**
 * Per-key submit limits; `false` turns a rule off.
 *
 * @since 0.1.0
 * @category options
 */
export interface LimitOptions {
  /** Token bucket: a burst of `limit`, refilled at `limit` per `window` (default 10 per 1 s). */
  readonly rate?: WindowLimit | false | undefined
  /** Submits per fixed window (default 1000 per hour). */
  readonly quota?: WindowLimit | false | undefined
  /** Tasks in flight, submitted and not yet finished (default 8). */
  readonly concurrency?: number | false | undefined
  /** Retry hint sent with `concurrency_exceeded` (default 1 s). */
  readonly concurrencyRetryAfter?: Duration.DurationInput | undefined
}

/**
 * A key of the key table: its name and limits of its own.
 *
 * @since 0.2.0
 * @category options
 */
export interface KeyOptions {
  readonly key: Redacted.Redacted<string>
  /**
   * Its name in logs, metrics and the tasks it owns (default `key#N`, N its place in `keys`). Tasks
   * and uploads belong to the name: renaming a key makes its earlier tasks unknown to it.
   */
  readonly name?: string | undefined
  /** Limits of its own, each rule given replacing the server's `limits` rule. */
  readonly limits?: LimitOptions | undefined
}

/**
 * Everything of the server except where it listens; enough to build the `HttpApp` without a socket.
 *
 * @since 0.1.0
 * @category options
 */
export interface AppOptions {
  /** Accepted API keys (required, at least one), each alone or with its name and limits. */
  readonly keys: ReadonlyArray<Redacted.Redacted<string> | KeyOptions>
  /**
   * The URL clients reach this server at, without `/v1` (default: `http://` + the listening
   * address). Upload and download URLs are built on it.
   */
  readonly publicUrl?: string | undefined
  /**
   * The folder where tasks, uploads and outputs are kept, in `server.db` (SQLite, write-ahead
   * log), created if missing. They survive a restart, and tasks left processing by a server that
   * stopped or died run again when it starts. One process at a time may use a folder. Default: kept
   * in memory and gone with the process.
   */
  readonly dataDir?: string | undefined
  /**
   * A database shared by several server processes (nodes), instead of `dataDir`: for example
   * `PgClient.layer({ url })` of `@effect/sql-pg`. Every node given the same database and the same
   * `signingKey` answers every task, upload and download; each converts the tasks it claims, the
   * oldest first, as its slots free up, whichever node they were submitted to. A node that dies
   * loses its claims when their lease lapses (`node.claimLease`), and other nodes convert those
   * tasks again. The nodes' clocks must agree to well within the lease (NTP).
   */
  readonly database?: Layer.Layer<SqlClient.SqlClient, unknown> | undefined
  /**
   * A folder for the bytes of outputs and uploads, instead of the database's rows: `outputs/<task
   * id>` and `files/<file id>/<part>`, each written whole (temporary file, fsync, rename). With a
   * shared `database`, give every node the same folder (a volume they all mount). The database
   * stays small and the bytes can go on cheaper storage. Rows written before it was given keep
   * their bytes; a server started without it cannot read what was written with it (503). Blobs a
   * crash left without a row are removed at start once an hour old. Default: in the rows.
   */
  readonly blobDir?: string | undefined
  /** This process as a node of a shared `database`. */
  readonly node?: {
    /** Its name in logs and in the tasks it claims (default: the host name and a random suffix). */
    readonly id?: string | undefined
    /** How long a claim on a task lasts without renewal; renewed every third of it (default 10 s). */
    readonly claimLease?: Duration.DurationInput | undefined
    /** How often a node with a free slot looks for tasks submitted elsewhere (default 500 ms). */
    readonly claimPoll?: Duration.DurationInput | undefined
  } | undefined
  /**
   * HMAC key of signed URLs, at least 16 bytes (default: random at start, so URLs die with the
   * process; give one with `dataDir`, or the download URLs of earlier tasks stop working after a restart).
   */
  readonly signingKey?: Redacted.Redacted<string> | undefined
  readonly limits?: LimitOptions | undefined
  readonly conversions?: {
    /** Conversions running at once (default 2); more tasks wait as `processing`. */
    readonly maxConcurrent?: number | undefined
    /** Time limit of one conversion (default 5 min). */
    readonly timeout?: Duration.DurationInput | undefined
    /** How long a finished task is kept and answered (default 1 h); then 404. */
    readonly retention?: Duration.DurationInput | undefined
    /** Tasks kept (default 10 000); the oldest finished ones are dropped first. */
    readonly maxTasks?: number | undefined
    /** Bytes of finished outputs kept (default 512 MiB). */
    readonly maxStoredBytes?: number | undefined
  } | undefined
  /** Lifetime of a download URL (default 15 min). */
  readonly downloadUrlTtl?: Duration.DurationInput | undefined
  /** Limit of a submit body (default 64 KiB). */
  readonly maxJsonBodyBytes?: number | undefined
  /**
   * How long a request may take, from its first byte to its answer (default 2 min): past it, a 503
   * with `Retry-After`, so that nothing waits forever on a server whose storage hangs.
   */
  readonly requestTimeout?: Duration.DurationInput | undefined
  /**
   * Record metrics in Effect's `Metric` registry, for an exporter to read (`Telemetry.metrics`
   * serves them to Prometheus): requests, submits, refusals, conversions, claims taken over,
   * storage failures and the tasks the storage keeps (default false: nothing is recorded).
   */
  readonly metrics?: boolean | undefined
  readonly uploads?: {
    /** Largest PDF accepted by `POST /v1/files` or a chunked upload (default 100 MiB). */
    readonly maxBytes?: number | undefined
    /** How long an uploaded file is kept (default 24 h). */
    readonly retention?: Duration.DurationInput | undefined
    /** Part size of chunked uploads under `/v1/uploads`, at least and by default 5 MiB. */
    readonly partSize?: number | undefined
    /** How long a chunked upload may take from `init` to its last part (default 1 h). */
    readonly incompleteRetention?: Duration.DurationInput | undefined
    /** Uploads kept at once (default 1000). */
    readonly maxFiles?: number | undefined
    /** Bytes of uploads kept at once (default 1 GiB). */
    readonly maxTotalBytes?: number | undefined
  } | undefined
  /**
   * The web page at `/` (drop PDFs, watch them convert, read and download the results; an
   * operator view) and its JSON API under `/api` (`WebApi`), behind the same keys (default on).
   * Its files are read once, when the server starts.
   */
  readonly webPage?: boolean | undefined
  /**
   * Fetching a `pdfURL` that is not one of this server's uploads (default off). When on, only
   * http(s) to public addresses, checked after DNS resolution and connected to as checked.
   */
  readonly remoteFetch?: {
    readonly enabled?: boolean | undefined
    /** Largest PDF fetched (default 100 MiB). */
    readonly maxBytes?: number | undefined
    /** Time limit of the fetch (default 60 s). */
    readonly timeout?: Duration.DurationInput | undefined
    /**
     * Host names fetched from (`*.example.com`: its subdomains); a pdfURL on any other host is
     * refused. The address checks apply to these hosts too. Default: any public host.
     */
    readonly allowHosts?: ReadonlyArray<string> | undefined
  } | undefined
}

/**
 * @since 0.1.0
 * @category options
 */
export interface Options extends AppOptions {
  /** Port to listen on (default 8787; 0 picks a free port). */
  readonly port?: number | undefined
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string | undefined
  /** Time in-flight requests get to finish at shutdown before connections are closed (default 10 s). */
  readonly shutdownGracePeriod?: Duration.DurationInput | undefined
}

/**
 * The default figures, each with its reason in the source (`ServerDefaults`, which loads nothing of the server).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = ServerDefaults.defaults

/**
 * A running server: where clients reach it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** The base URL of the contract, ending in `/v1`: give it to `PdfTransformClient` as `baseUrl`. */
  readonly baseUrl: string
  readonly address: HttpServer.Address
  /**
   * Reads the figures the storage keeps for the whole cluster (tasks by state, tasks waiting for a
   * slot) into the metrics; an exporter runs it before each reading. Nothing without `metrics`.
   */
  readonly refreshMetrics: Effect.Effect<void>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Server extends Context.Tag("@pdf-transform/server/Server")<Server, Service>() {}

/**
 * The OpenAPI 3.1 document of the v1 contract, as served at `/v1/openapi.json`.
 *
 * @since 0.1.0
 * @category constants
 */
export const openApi: Readonly<Record<string, unknown>> = openApiDocument

/**
 * The server's storage (the data directory, or the database) could not be opened, read or written.
 * At startup it fails the layer; during a request it is answered with 503 and logged.
 *
 * @since 0.2.0
 * @category errors
 */
export const StorageError: typeof internalStore.StorageError = internalStore.StorageError

/**
 * @since 0.2.0
 * @category errors
 */
export type StorageError = internalStore.StorageError

/**
 * The application without a socket, for in-process use (`HttpApp.toWebHandler`, tests, another
 * server). Its background conversions and its storage live in the given scope.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeApp = (
  options: AppOptions
): Effect.Effect<HttpApp.Default<never, never>, StorageError, Converter | Scope.Scope> =>
  Effect.gen(function*() {
    // Invalid options are a programming error: a defect with the reason.
    const resolved = yield* Effect.sync(() => internalOptions.resolve(options))
    const sql = yield* Layer.build(internalStorage.storage(options))
    const { app } = yield* internalApp.makeApp(resolved).pipe(
      Effect.provide(sql)
    )
    return app
  })

const publicUrlOf = (address: HttpServer.Address): string => {
  if (address._tag === "UnixAddress") return "http://localhost"
  const hostname = address.hostname === "0.0.0.0" || address.hostname === "::" ? "127.0.0.1" : address.hostname
  return `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${address.port}`
}

/**
 * The server on Node's HTTP server, listening as configured. At shutdown the listener closes,
 * in-flight requests finish (within the grace period), then background conversions are interrupted.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<Server | HttpServer.HttpServer, ServeError | StorageError, Converter> =>
  // Each build of the layer has its own Node server: a second build (two servers in one process)
  // must not be closed by the first one's finalizer.
  Layer.unwrapEffect(Effect.sync(() => {
    const millis = (input: Duration.DurationInput) => Duration.toMillis(Duration.decode(input))
    const listener = internalListener.make(millis(options.requestTimeout ?? defaults.requestTimeout))
    const listen = NodeHttpServer.layer(() => listener.node, {
      port: options.port ?? defaults.port,
      host: options.host ?? defaults.host
    })
    const serve = Layer.scoped(
      Server,
      Effect.gen(function*() {
        const server = yield* HttpServer.HttpServer
        const publicUrl = options.publicUrl ?? publicUrlOf(server.address)
        // Invalid options are a programming error: a defect with the reason, at startup.
        const resolved = yield* Effect.sync(() => internalOptions.resolve({ ...options, publicUrl }))
        const { app, state } = yield* internalApp.makeApp(resolved)
        yield* listener.serve(app, millis(options.shutdownGracePeriod ?? defaults.shutdownGracePeriod))
        yield* Effect.logInfo("pdf-transform server listening").pipe(
          Effect.annotateLogs({ address: HttpServer.formatAddress(server.address), publicUrl })
        )
        return {
          baseUrl: `${publicUrl.replace(/\/+$/, "")}/v1`,
          address: server.address,
          refreshMetrics: state.refreshMetrics
        }
      })
    )
    // Signed URLs carry their signature in the query: such requests are not traced (spans record url.full).
    const untracedSigned = HttpMiddleware.withTracerDisabledWhen(serve, (request) => request.url.includes("signature="))
    // The storage is opened first and closed last: requests still finishing when the listener
    // closes read and write it.
    return Layer.provideMerge(untracedSigned, listen).pipe(Layer.provide(internalStorage.storage(options)))
  }))

/**
 * The server from configuration: every setting of `ServerConfig` from its environment variable
 * (`PDF_TRANSFORM_SERVER_KEYS`, comma separated; `PDF_TRANSFORM_SERVER_PORT`,
 * `PDF_TRANSFORM_SERVER_LIMITS_RATE` as `10/1s`, ...: see `ServerConfig.settings`), over `options`.
 * `PDF_TRANSFORM_SERVER_DATABASE_URL` loads `@effect/sql-pg` (installed beside this package). A value
 * the server cannot use fails with a `ConfigError` naming the variable.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  options: Partial<Options> = {}
): Layer.Layer<Server | HttpServer.HttpServer, ConfigError.ConfigError | ServeError | StorageError, Converter> =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const env = yield* ServerConfig.fromEnv
      const { keys, ...merged } = ServerConfig.toOptions(env, options)
      if (keys === undefined) {
        return yield* Effect.fail(
          ConfigError.MissingData(["PDF_TRANSFORM_SERVER_KEYS"], "at least one key is required")
        )
      }
      const database = merged.database ??
        (env.databaseUrl === undefined ? undefined : internalStorage.databaseFromUrl(env.databaseUrl))
      return layer({ ...merged, keys, ...(database === undefined ? {} : { database }) })
    })
  )
