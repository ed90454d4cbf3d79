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
    )`,
    ...totals(sql)
  ]
}

/** What `pdt_totals` counts: each column, the table and the change of one row to it. */
const counted = [
  { table: "pdt_tasks", count: "tasks", bytes: "output_bytes", column: "output_bytes" },
  { table: "pdt_files", count: "files", bytes: "file_bytes", column: "size" }
] as const

/**
 * One row of running totals, kept by triggers on the tables they count, so that the checks a
 * submit, an upload and a task's end make (tasks held, output bytes, files and their bytes) read
 * one row instead of summing a table: a sum over 100,000 tasks took 4 ms of the event loop per
 * finished task (SQLite), and Postgres counts rows by reading them. Triggers keep the totals in the
 * same transaction as every statement that changes the tables, whatever statement it is. A database
 * made before the totals gets its row from the tables once, under the schema lock.
 */
const totals = (sql: SqlClient.SqlClient): ReadonlyArray<string> => {
  const columns = counted.flatMap(({ bytes, count }) => [`${count} BIGINT NOT NULL`, `${bytes} BIGINT NOT NULL`])
  const initial = counted.flatMap(({ column, table }) => [
    `(SELECT COUNT(*) FROM ${table})`,
    `(SELECT COALESCE(SUM(${column}), 0) FROM ${table})`
  ])
  const change = (
    { bytes, column, count }: typeof counted[number],
    event: "INSERT" | "DELETE" | "UPDATE"
  ) =>
    event === "INSERT" ?
      `UPDATE pdt_totals SET ${count} = ${count} + 1, ${bytes} = ${bytes} + NEW.${column} WHERE id = 1;` :
      event === "DELETE" ?
      `UPDATE pdt_totals SET ${count} = ${count} - 1, ${bytes} = ${bytes} - OLD.${column} WHERE id = 1;` :
      `UPDATE pdt_totals SET ${bytes} = ${bytes} - OLD.${column} + NEW.${column} WHERE id = 1;`
  const triggers = sql.onDialectOrElse({
    pg: () =>
      counted.flatMap((table) => [
        `CREATE OR REPLACE FUNCTION ${table.table}_totals() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
          IF TG_OP = 'INSERT' THEN ${change(table, "INSERT")}
          ELSIF TG_OP = 'DELETE' THEN ${change(table, "DELETE")}
          ELSE ${change(table, "UPDATE")}
          END IF;
          RETURN NULL;
        END $$`,
        `CREATE OR REPLACE TRIGGER ${table.table}_totals AFTER INSERT OR DELETE OR UPDATE OF ${table.column}
          ON ${table.table} FOR EACH ROW EXECUTE FUNCTION ${table.table}_totals()`
      ]),
    orElse: () =>
      counted.flatMap((table) =>
        (["INSERT", "DELETE", "UPDATE"] as const).map((event) =>
          `CREATE TRIGGER IF NOT EXISTS ${table.table}_${event.toLowerCase()}_totals
            AFTER ${event === "UPDATE" ? `UPDATE OF ${table.column}` : event} ON ${table.table}
            BEGIN ${change(table, event)} END`
        )
      )
  })
  return [
    `CREATE TABLE IF NOT EXISTS pdt_totals (id INTEGER PRIMARY KEY CHECK (id = 1), ${columns.join(", ")})`,
    // Before the triggers exist, so that rows already there are counted once.
    `INSERT INTO pdt_totals SELECT 1, ${initial.join(", ")} WHERE NOT EXISTS (SELECT 1 FROM pdt_totals)`,
    ...triggers
  ]
}

/** The running totals, as read in a transaction. */
export interface Totals {
  readonly tasks: number
  readonly outputBytes: number
  readonly files: number
  readonly fileBytes: number
}

/** Reads `pdt_totals` (Postgres answers BIGINTs as strings). */
export const readTotals = (sql: SqlClient.SqlClient): Effect.Effect<Totals, SqlError> =>
  Effect.map(
    sql<Record<"tasks" | "output_bytes" | "files" | "file_bytes", number | string>>`
      SELECT tasks, output_bytes, files, file_bytes FROM pdt_totals WHERE id = 1`,
    (rows) => ({
      tasks: Number(rows[0]?.tasks ?? 0),
      outputBytes: Number(rows[0]?.output_bytes ?? 0),
      files: Number(rows[0]?.files ?? 0),
      fileBytes: Number(rows[0]?.file_bytes ?? 0)
    })
  )

/** A BIGINT column as read back: Postgres answers them as strings. */
const Millis = Schema.Union(Schema.Number, Schema.NumberFromString)
/** What eviction reads of a finished task, oldest first (a page at a time). */
export interface FinishedRow {
  readonly seq: number | string
  readonly id: string
  readonly output_bytes: number | string
}

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
  request: Schema.String,
  claims: Schema.Union(Schema.Number, Schema.NumberFromString)
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
  "id, format, owner, filename, created_at, state, progress, error, expires_at, source, request, claims"

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
  request: row.request,
  claims: row.claims
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
