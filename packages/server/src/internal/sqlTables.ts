/**
 * What the SQL store keeps and how it reads it back: the tables (SQLite and Postgres alike), the
 * advisory lock ids, and each row's Schema, so that a row this code did not write is a typed
 * storage failure, not a cast.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Format } from "@pdf-transform/core/Contract"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { FileEntry, Task } from "./store.js"
import { TaskSource, TaskState } from "./store.js"

/** The statements that create the tables and indexes where they are missing. */
export const tables = (sql: SqlClient.SqlClient): ReadonlyArray<string> => {
  const blob = sql.onDialectOrElse({ pg: () => "BYTEA", orElse: () => "BLOB" })
  const seq = sql.onDialectOrElse({
    pg: () => "BIGSERIAL PRIMARY KEY",
    orElse: () => "INTEGER PRIMARY KEY AUTOINCREMENT"
  })
  return [
    `CREATE TABLE IF NOT EXISTS pdt_tasks (
      seq ${seq},
      id TEXT NOT NULL UNIQUE,
      format TEXT NOT NULL,
      owner TEXT NOT NULL,
      filename TEXT,
      created_at BIGINT NOT NULL,
      state TEXT NOT NULL,
      progress INTEGER NOT NULL,
      error TEXT,
      expires_at BIGINT,
      source TEXT NOT NULL,
      request TEXT NOT NULL,
      output ${blob},
      output_bytes BIGINT NOT NULL DEFAULT 0,
      claimed_by TEXT,
      claim_until BIGINT,
      claims INTEGER NOT NULL DEFAULT 0,
      finished_by TEXT
    )`,
    "CREATE INDEX IF NOT EXISTS pdt_tasks_owner_state ON pdt_tasks (owner, state)",
    "CREATE INDEX IF NOT EXISTS pdt_tasks_state_seq ON pdt_tasks (state, seq)",
    "CREATE INDEX IF NOT EXISTS pdt_tasks_expires ON pdt_tasks (expires_at)",
    `CREATE TABLE IF NOT EXISTS pdt_files (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      owner TEXT NOT NULL,
      size BIGINT NOT NULL,
      part_size BIGINT NOT NULL,
      total_parts INTEGER NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
    "CREATE INDEX IF NOT EXISTS pdt_files_expires ON pdt_files (expires_at)",
    `CREATE TABLE IF NOT EXISTS pdt_parts (
      file_id TEXT NOT NULL,
      part INTEGER NOT NULL,
      bytes ${blob} NOT NULL,
      PRIMARY KEY (file_id, part)
    )`,
    `CREATE TABLE IF NOT EXISTS pdt_limits (
      key_id TEXT PRIMARY KEY,
      tokens DOUBLE PRECISION NOT NULL,
      refilled_at BIGINT NOT NULL,
      window_start BIGINT NOT NULL,
      used BIGINT NOT NULL
    )`
  ]
}

/** A BIGINT column as read back: Postgres answers them as strings. */
const Millis = Schema.Union(Schema.Number, Schema.NumberFromString)
/** A row of `pdt_tasks` as read back. */
const TaskRow = Schema.Struct({
  id: Schema.String,
  format: Format,
  owner: Schema.String,
  filename: Schema.NullOr(Schema.String),
  created_at: Millis,
  state: TaskState,
  progress: Schema.Number,
  error: Schema.NullOr(Schema.String),
  expires_at: Schema.NullOr(Millis),
  source: Schema.parseJson(TaskSource),
  request: Schema.String
})
export const decodeTaskRows = Schema.decodeUnknown(Schema.Array(TaskRow))

const LimitRow = Schema.Struct({
  tokens: Schema.Union(Schema.Number, Schema.NumberFromString),
  refilled_at: Millis,
  window_start: Millis,
  used: Millis
})
export const decodeLimitRows = Schema.decodeUnknown(Schema.Array(LimitRow))

/**
 * Submits on Postgres take this transaction-scoped advisory lock first: the room check, the
 * in-flight count and the limiter state are read and written by one node at a time. SQLite
 * transactions are already serial.
 */
export const submitLockId = 0x70647431
/** Taken while the tables are created, so that nodes starting together do not race. */
export const schemaLockId = 0x70647430

const FileRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("file", "upload"),
  owner: Schema.String,
  size: Millis,
  part_size: Millis,
  total_parts: Schema.Number,
  created_at: Millis,
  expires_at: Millis
})
export const decodeFileRows = Schema.decodeUnknown(Schema.Array(FileRow))

/** A row of `pdt_files` as the store's entry, with the parts `received`. */
export const toEntry = (row: typeof FileRow.Type, received: ReadonlyArray<number>): FileEntry => ({
  kind: row.kind,
  id: row.id,
  owner: row.owner,
  size: row.size,
  partSize: row.part_size,
  totalParts: row.total_parts,
  received,
  createdAt: row.created_at,
  expiresAt: row.expires_at
})

export const taskColumns =
  "id, format, owner, filename, created_at, state, progress, error, expires_at, source, request"

export const toTask = (row: typeof TaskRow.Type): Task => ({
  id: row.id,
  format: row.format,
  owner: row.owner,
  filename: row.filename ?? undefined,
  createdAt: row.created_at,
  state: row.state,
  progress: row.progress,
  error: row.error ?? undefined,
  expiresAt: row.expires_at ?? Number.POSITIVE_INFINITY,
  source: row.source,
  request: row.request
})

/**
 * Sets the database up and creates the tables where they are missing. SQLite: freed pages go back
 * to the file system at each commit (a new database only: it must precede the first table), and
 * with the write-ahead log a commit survives a killed process without an fsync of its own (a power
 * loss may take the last commits back). Postgres: nodes starting together create the tables one at
 * a time (two concurrent CREATE TABLE IF NOT EXISTS of one table can collide in its catalog).
 */
export const setUp = (sql: SqlClient.SqlClient): Effect.Effect<void, SqlError> =>
  Effect.zipRight(
    sql.onDialectOrElse({
      sqlite: () => Effect.asVoid(Effect.zipRight(sql`PRAGMA auto_vacuum = FULL`, sql`PRAGMA synchronous = NORMAL`)),
      orElse: () => Effect.void
    }),
    sql.withTransaction(Effect.zipRight(
      sql.onDialectOrElse({
        pg: () => Effect.asVoid(sql`SELECT pg_advisory_xact_lock(${schemaLockId})`),
        orElse: () => Effect.void
      }),
      Effect.forEach(tables(sql), (statement) => sql.unsafe(statement), { discard: true })
    ))
  ).pipe(Effect.asVoid)

/** The `n` of a `COUNT(*) AS n` row (Postgres answers a string). */
export const count = (rows: ReadonlyArray<{ readonly n: number | string | null }>): number => Number(rows[0]?.n ?? 0)
