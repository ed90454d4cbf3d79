/**
 * What the SQL store keeps and how it reads it back: the tables (SQLite and Postgres alike), the
 * advisory lock ids, and each row's Schema, so that a row this code did not write is a typed
 * storage failure, not a cast.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Format } from "@pdf-transform/core/Contract"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { ParseError } from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { KeyState } from "./limiter.js"
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
 * One row of running totals, kept by triggers in each changing statement's transaction, so checks read
 * one row instead of summing a table (README: the cost); an older database gets its row once.
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

/** A BIGINT column (times in milliseconds, sizes in bytes, counts) as read back: Postgres answers a string. */
export const BigintColumn = Schema.Union(Schema.Number, Schema.NumberFromString)

/** The rows a query answers, each checked against `row`: one way of reading every statement's rows. */
export const read = <A, I>(row: Schema.Schema<A, I>) => {
  // Decoded synchronously: rows are plain values, and the Effect decoder costs a fiber's work per query.
  const decode = Schema.decodeUnknownEither(Schema.Array(row))
  return <E>(query: Effect.Effect<ReadonlyArray<unknown>, E>): Effect.Effect<ReadonlyArray<A>, E | ParseError> =>
    Effect.flatMap(query, (rows) => {
      const decoded = decode(rows)
      return Either.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.fail(decoded.left)
    })
}

/** The running totals, as read in a transaction. */
export interface Totals {
  readonly tasks: number
  readonly outputBytes: number
  readonly files: number
  readonly fileBytes: number
}

const TotalsRow = Schema.Struct({
  tasks: BigintColumn,
  output_bytes: BigintColumn,
  files: BigintColumn,
  file_bytes: BigintColumn
})

const readTotalsRows = read(TotalsRow)

export const readTotals = (sql: SqlClient.SqlClient): Effect.Effect<Totals, SqlError | ParseError> =>
  Effect.map(
    readTotalsRows(sql`SELECT tasks, output_bytes, files, file_bytes FROM pdt_totals WHERE id = 1`),
    (rows) => ({
      tasks: rows[0]?.tasks ?? 0,
      outputBytes: rows[0]?.output_bytes ?? 0,
      files: rows[0]?.files ?? 0,
      fileBytes: rows[0]?.file_bytes ?? 0
    })
  )

const readCountRows = read(Schema.Struct({ n: BigintColumn }))

/** The `n` of a `COUNT(*) AS n` query. */
export const readCount = <E>(query: Effect.Effect<ReadonlyArray<unknown>, E>) =>
  Effect.map(readCountRows(query), (rows) => rows[0]?.n ?? 0)

/** Rows that name a task or a file (`RETURNING id`, `SELECT id`). */
export const readIds = read(Schema.Struct({ id: Schema.String }))

/** What eviction reads of a finished task, oldest first (a page at a time). */
export const readFinished = read(Schema.Struct({ seq: BigintColumn, id: Schema.String, output_bytes: BigintColumn }))

/** A completed task's output column (NULL when its bytes are a file of the blob directory). */
export const readOutputs = read(Schema.Struct({ output: Schema.NullOr(Schema.Uint8ArrayFromSelf) }))

export const readPartNumbers = read(Schema.Struct({ part: Schema.Number }))

export const readParts = read(
  Schema.Struct({ part: Schema.Number, bytes: Schema.Uint8ArrayFromSelf, size: BigintColumn })
)

const TaskRow = Schema.Struct({
  id: Schema.String,
  format: Format,
  owner: Schema.String,
  filename: Schema.NullOr(Schema.String),
  created_at: BigintColumn,
  state: TaskState,
  progress: Schema.Number,
  error: Schema.NullOr(Schema.String),
  expires_at: Schema.NullOr(BigintColumn),
  source: Schema.parseJson(TaskSource),
  request: Schema.String,
  claims: Schema.Union(Schema.Number, Schema.NumberFromString)
})
export const readTasks = read(TaskRow)

const LimitRow = Schema.Struct({
  key_id: Schema.String,
  tokens: Schema.Number,
  refilled_at: BigintColumn,
  window_start: BigintColumn,
  used: BigintColumn
})
const readLimitRows = read(LimitRow)
const toKeyState = (row: typeof LimitRow.Type): KeyState => ({
  tokens: row.tokens,
  refilledAt: row.refilled_at,
  windowStart: row.window_start,
  used: row.used
})

/** A key's row of `pdt_limits`, as the limiter's state. */
export const readLimits = (sql: SqlClient.SqlClient, key: string) =>
  Effect.map(
    readLimitRows(sql`SELECT key_id, tokens, refilled_at, window_start, used FROM pdt_limits WHERE key_id = ${key}`),
    (rows): KeyState | undefined => rows[0] === undefined ? undefined : toKeyState(rows[0])
  )

/** Every key's limiter state. */
export const readAllLimits = (sql: SqlClient.SqlClient) =>
  Effect.map(
    readLimitRows(sql`SELECT key_id, tokens, refilled_at, window_start, used FROM pdt_limits`),
    (rows): ReadonlyMap<string, KeyState> => new Map(rows.map((row) => [row.key_id, toKeyState(row)]))
  )

/**
 * A key's limiter state in one statement, whether or not the key has a row yet; a row already
 * holding that state is left unwritten.
 */
export const writeLimits = (sql: SqlClient.SqlClient, key: string, state: KeyState) =>
  sql`INSERT INTO pdt_limits ${
    sql.insert({
      key_id: key,
      tokens: state.tokens,
      refilled_at: state.refilledAt,
      window_start: state.windowStart,
      used: state.used
    })
  } ON CONFLICT (key_id) DO UPDATE SET tokens = excluded.tokens, refilled_at = excluded.refilled_at,
    window_start = excluded.window_start, used = excluded.used
  WHERE pdt_limits.tokens <> excluded.tokens OR pdt_limits.refilled_at <> excluded.refilled_at
    OR pdt_limits.window_start <> excluded.window_start OR pdt_limits.used <> excluded.used`

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
  size: BigintColumn,
  part_size: BigintColumn,
  total_parts: Schema.Number,
  created_at: BigintColumn,
  expires_at: BigintColumn
})
export const readFiles = read(FileRow)

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
 * Sets the database up and creates missing tables. SQLite: auto-vacuum (before the first table) and
 * the write-ahead log; Postgres: one node at a time (concurrent CREATE TABLE IF NOT EXISTS can collide).
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
