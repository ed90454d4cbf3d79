/** Where the server keeps its state: SQLite (a file or memory), or the database given (PostgreSQL for nodes). */
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { AppOptions } from "../Server.js"
import { StorageError } from "./store.js"

/** SQLite on `<dataDir>/server.db`, or in memory. */
export const storage = (options: AppOptions): Layer.Layer<SqlClient.SqlClient, StorageError> => {
  const dataDir = options.dataDir
  if (options.database !== undefined) {
    return Layer.mapError(
      options.database,
      (cause) => new StorageError({ operation: "connect to the database", cause })
    )
  }
  if (dataDir === undefined) return SqliteClient.layer({ filename: ":memory:" }).pipe(Layer.orDie)
  const filename = Path.join(dataDir, "server.db")
  return Layer.unwrapEffect(
    Effect.try({
      try: () => {
        Fs.mkdirSync(dataDir, { recursive: true })
        Fs.accessSync(dataDir, Fs.constants.R_OK | Fs.constants.W_OK)
        return SqliteClient.layer({ filename }).pipe(Layer.orDie)
      },
      catch: (cause) => new StorageError({ operation: `open ${filename}`, cause })
    })
  )
}

/** PostgreSQL at `url`, through `@effect/sql-pg` (an optional peer, loaded only here). */
export const databaseFromUrl = (url: Redacted.Redacted<string>): Layer.Layer<SqlClient.SqlClient, unknown> =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.tryPromise({
        try: () => import("@effect/sql-pg/PgClient"),
        catch: (cause) =>
          new StorageError({ operation: "load @effect/sql-pg (install it beside @pdf-transform/server)", cause })
      }),
      (PgClient) => PgClient.layer({ url })
    )
  )
