/** The reference server of the PDF Conversion Service v1 (contract, keys, limits, uploads, conversions).
 * @since 0.1.0 */
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

/** A limit of so many per window.
 * @since 0.1.0
 * @category options */
export interface WindowLimit {
  readonly limit: number
  readonly window: Duration.DurationInput
}

/** Per-key submit limits (`rate`: token bucket; `quota`: fixed window; `concurrency`: tasks in flight); `false` turns one off.
 * @since 0.1.0
 * @category options */
export interface LimitOptions {
  readonly rate?: WindowLimit | false | undefined
  readonly quota?: WindowLimit | false | undefined
  readonly concurrency?: number | false | undefined
  readonly concurrencyRetryAfter?: Duration.DurationInput | undefined
}

/** A key of the key table: its name (in logs, metrics and its tasks) and limits of its own.
 * @since 0.2.0
 * @category options */
export interface KeyOptions {
  readonly key: Redacted.Redacted<string>
  readonly name?: string | undefined
  readonly limits?: LimitOptions | undefined
}

/** All but where it listens: each option's meaning, default and flag are in the README's settings table.
 * @since 0.1.0
 * @category options */
export interface AppOptions {
  readonly keys: ReadonlyArray<Redacted.Redacted<string> | KeyOptions>
  readonly publicUrl?: string | undefined
  readonly dataDir?: string | undefined
  readonly database?: Layer.Layer<SqlClient.SqlClient, unknown> | undefined
  readonly blobDir?: string | undefined
  readonly node?: {
    readonly id?: string | undefined
    readonly claimLease?: Duration.DurationInput | undefined
    readonly claimPoll?: Duration.DurationInput | undefined
  } | undefined
  readonly signingKey?: Redacted.Redacted<string> | undefined
  readonly limits?: LimitOptions | undefined
  readonly conversions?: {
    readonly maxConcurrent?: number | undefined
    readonly timeout?: Duration.DurationInput | undefined
    readonly retention?: Duration.DurationInput | undefined
    readonly maxTasks?: number | undefined
    readonly maxStoredBytes?: number | undefined
  } | undefined
  readonly downloadUrlTtl?: Duration.DurationInput | undefined
  readonly maxJsonBodyBytes?: number | undefined
  readonly requestTimeout?: Duration.DurationInput | undefined
  readonly drainTimeout?: Duration.DurationInput | undefined
  readonly metrics?: boolean | undefined
  /** With `metrics`: how often the cluster's task counts are read (default 15 s); a scrape serves the last; 0: each scrape reads. */
  readonly metricsRefresh?: Duration.DurationInput | undefined
  readonly requestLog?: boolean | undefined
  readonly uploads?: {
    readonly maxBytes?: number | undefined
    readonly retention?: Duration.DurationInput | undefined
    readonly partSize?: number | undefined
    readonly incompleteRetention?: Duration.DurationInput | undefined
    readonly maxFiles?: number | undefined
    readonly maxTotalBytes?: number | undefined
  } | undefined
  readonly webPage?: boolean | undefined
  readonly remoteFetch?: {
    readonly enabled?: boolean | undefined
    readonly maxBytes?: number | undefined
    readonly timeout?: Duration.DurationInput | undefined
    readonly allowHosts?: ReadonlyArray<string> | undefined
  } | undefined
}

/** `AppOptions` and where the server listens (`port` 0 picks a free one), with its shutdown grace period.
 * @since 0.1.0
 * @category options */
export interface Options extends AppOptions {
  readonly port?: number | undefined
  readonly host?: string | undefined
  readonly shutdownGracePeriod?: Duration.DurationInput | undefined
}

/** The default figures, each with its reason (`ServerDefaults`).
 * @since 0.1.0
 * @category constants */
export const defaults = ServerDefaults.defaults

/** A running server: `baseUrl` (ends in `/v1`), `refreshMetrics` (cluster figures) and `drain` (README: Stop).
 * @since 0.1.0
 * @category models */
export interface Service {
  readonly baseUrl: string
  readonly address: HttpServer.Address
  readonly refreshMetrics: Effect.Effect<void>
  readonly drain: Effect.Effect<void>
}

/** @since 0.1.0
 * @category tags */
export class Server extends Context.Tag("@pdf-transform/server/Server")<Server, Service>() {}

/** The OpenAPI 3.1 document of the v1 contract, as served at `/v1/openapi.json`.
 * @since 0.1.0
 * @category constants */
export const openApi: Readonly<Record<string, unknown>> = openApiDocument

/** The storage could not be opened, read or written: it fails the layer at start, a request's answer is 503.
 * @since 0.2.0
 * @category errors */
export const StorageError: typeof internalStore.StorageError = internalStore.StorageError

/** @since 0.2.0
 * @category errors */
export type StorageError = internalStore.StorageError

/** The application without a socket (`HttpApp.toWebHandler`, tests); its conversions and storage live in the scope.
 * @since 0.1.0
 * @category constructors */
export const makeApp = (
  options: AppOptions
): Effect.Effect<HttpApp.Default<never, never>, StorageError, Converter | Scope.Scope> =>
  Effect.gen(function*() {
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

/** The server on Node's HTTP server; at shutdown it drains, then in-flight requests get the grace period.
 * @since 0.1.0
 * @category layers */
export const layer = (
  options: Options
): Layer.Layer<Server | HttpServer.HttpServer, ServeError | StorageError, Converter> =>
  // A Node server per build of the layer: closing one build must not close another's.
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
    // Storage opens first and closes last: requests finishing as the listener closes still use it.
    return Layer.provideMerge(untracedSigned, listen).pipe(Layer.provide(internalStorage.storage(options)))
  }))

/** The server with every `ServerConfig` setting from its `PDF_TRANSFORM_SERVER_*` variable over `options`;
 * a value it cannot use is a `ConfigError` naming the variable.
 * @since 0.1.0
 * @category layers */
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
