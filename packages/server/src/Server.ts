/**
 * The reference server of the PDF Conversion Service v1: the contract under `/v1`, keys, limits,
 * uploads, signed downloads, and conversions in the background through the `Converter` service.
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
  /** Token bucket: a burst of `limit`, refilled at `limit` per `window`. */
  readonly rate?: WindowLimit | false | undefined
  /** Submits per fixed window. */
  readonly quota?: WindowLimit | false | undefined
  /** Tasks in flight, submitted and not yet finished. */
  readonly concurrency?: number | false | undefined
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
  /** Its name in logs, metrics and the tasks it owns (default `key#N`): renaming a key loses its earlier tasks. */
  readonly name?: string | undefined
  /** Limits of its own, each rule given replacing the server's `limits` rule. */
  readonly limits?: LimitOptions | undefined
}

/**
 * Everything of the server except where it listens (enough to build the `HttpApp`); unset, `defaults`.
 *
 * @since 0.1.0
 * @category options
 */
export interface AppOptions {
  /** Accepted API keys (required, at least one), each alone or with its name and limits. */
  readonly keys: ReadonlyArray<Redacted.Redacted<string> | KeyOptions>
  /** The URL clients reach this server at, without `/v1`: upload and download URLs are built on it. */
  readonly publicUrl?: string | undefined
  /**
   * The folder of `server.db` (SQLite), one process at a time: tasks survive a restart, and those left
   * processing run again. Default: in memory, gone with the process.
   */
  readonly dataDir?: string | undefined
  /**
   * A database shared by several nodes instead of `dataDir` (`PgClient.layer({ url })`): with the same
   * `signingKey`, every node answers for every task, and converts the tasks it claims; a dead node's
   * claims lapse after `node.claimLease`. The nodes' clocks must agree to well within the lease.
   */
  readonly database?: Layer.Layer<SqlClient.SqlClient, unknown> | undefined
  /**
   * A folder for the bytes of outputs and uploads instead of the database's rows (shared by every node
   * of a `database`); a server started without it cannot read what was written with it (503).
   */
  readonly blobDir?: string | undefined
  /** This process as a node of a shared `database`. */
  readonly node?: {
    /** Its name in logs and in the tasks it claims (default: the host name and a random suffix). */
    readonly id?: string | undefined
    /** How long a claim on a task lasts without renewal (renewed every third of it). */
    readonly claimLease?: Duration.DurationInput | undefined
    /** How often a node with a free slot looks for tasks submitted elsewhere. */
    readonly claimPoll?: Duration.DurationInput | undefined
  } | undefined
  /** HMAC key of signed URLs (default: random, so URLs die with the process; give one with `dataDir`). */
  readonly signingKey?: Redacted.Redacted<string> | undefined
  readonly limits?: LimitOptions | undefined
  readonly conversions?: {
    /** Conversions running at once; more tasks wait as `processing`. */
    readonly maxConcurrent?: number | undefined
    readonly timeout?: Duration.DurationInput | undefined
    /** How long a finished task is kept and answered; then 404. */
    readonly retention?: Duration.DurationInput | undefined
    /** Tasks kept; the oldest finished ones are dropped first. */
    readonly maxTasks?: number | undefined
    readonly maxStoredBytes?: number | undefined
  } | undefined
  readonly downloadUrlTtl?: Duration.DurationInput | undefined
  readonly maxJsonBodyBytes?: number | undefined
  /** How long a request may take to its answer: past it, a 503 (nothing waits forever on hung storage). */
  readonly requestTimeout?: Duration.DurationInput | undefined
  /** At a stop (`drain`, or the scope closing): how long running conversions get before their claims are released. */
  readonly drainTimeout?: Duration.DurationInput | undefined
  /**
   * Record metrics in Effect's `Metric` registry, for an exporter to read (`Telemetry.metrics`
   * serves them to Prometheus): requests, submits, refusals, conversions, claims taken over,
   * storage failures and the tasks the storage keeps (default false: nothing is recorded).
   */
  readonly metrics?: boolean | undefined
  /**
   * One log line (Effect's logger, level Info) per request: method, route pattern, status,
   * duration, the key's id and the task, never the key itself (default false).
   */
  readonly requestLog?: boolean | undefined
  readonly uploads?: {
    /** Largest PDF accepted by `POST /v1/files` or a chunked upload. */
    readonly maxBytes?: number | undefined
    readonly retention?: Duration.DurationInput | undefined
    /** Part size of chunked uploads under `/v1/uploads`, at least the default. */
    readonly partSize?: number | undefined
    /** How long a chunked upload may take from `init` to its last part. */
    readonly incompleteRetention?: Duration.DurationInput | undefined
    readonly maxFiles?: number | undefined
    readonly maxTotalBytes?: number | undefined
  } | undefined
  /** The web page at `/` (convert PDFs; an operator view) and its API under `/api` (`WebApi`), behind the same keys. */
  readonly webPage?: boolean | undefined
  /** Fetching a `pdfURL` that is not one of this server's uploads (off by default): public addresses only. */
  readonly remoteFetch?: {
    readonly enabled?: boolean | undefined
    readonly maxBytes?: number | undefined
    readonly timeout?: Duration.DurationInput | undefined
    /** Host names fetched from (`*.example.com`: its subdomains), still checked; default: any public host. */
    readonly allowHosts?: ReadonlyArray<string> | undefined
  } | undefined
}

/**
 * @since 0.1.0
 * @category options
 */
export interface Options extends AppOptions {
  /** Port to listen on (0 picks a free port). */
  readonly port?: number | undefined
  readonly host?: string | undefined
  /** Time in-flight requests get to finish at shutdown before connections are closed. */
  readonly shutdownGracePeriod?: Duration.DurationInput | undefined
}

/**
 * The default figures, each with its reason (`ServerDefaults`).
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
  /**
   * Takes the node out of service: `/readyz` and submits answer 503 at once, no task is claimed,
   * running conversions get `drainTimeout`, then the rest are interrupted and their claims
   * released. Closing the layer's scope drains first unless this already ran.
   */
  readonly drain: Effect.Effect<void>
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
 * The server on Node's HTTP server, listening as configured. At shutdown the node drains (see
 * `Service.drain`), the listener closes, in-flight requests finish (within the grace period).
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
        // Added after the listener's own finalizer, so it runs first: requests are answered meanwhile.
        yield* Effect.addFinalizer(() => state.drain)
        yield* Effect.logInfo("pdf-transform server listening").pipe(
          Effect.annotateLogs({ address: HttpServer.formatAddress(server.address), publicUrl })
        )
        return {
          baseUrl: `${publicUrl.replace(/\/+$/, "")}/v1`,
          address: server.address,
          refreshMetrics: state.refreshMetrics,
          drain: state.drain
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
