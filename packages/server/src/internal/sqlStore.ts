/**
 * The store in SQL: SQLite by default (a file under the data directory, or memory), written so
 * that Postgres runs the same statements. Tasks keep their source and request so a restarted
 * server can run them again; outputs live in the task's row; uploads keep one row per part, and a
 * finished upload is read by concatenating its parts, so nothing is copied when it completes.
 * Every check-then-write (room for a task, room for a file, the end of a task) is one transaction.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import type { FileEntry, NewTask, Store, StoreLimits, Task, TaskSource, TaskState } from "./store.js"
import { StorageError } from "./store.js"

/** Expired entries are looked for at most this often. */
const sweepIntervalMs = 5_000

const schema = (sql: SqlClient.SqlClient) => {
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
      output_bytes BIGINT NOT NULL DEFAULT 0
    )`,
    "CREATE INDEX IF NOT EXISTS pdt_tasks_owner_state ON pdt_tasks (owner, state)",
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
    )`
  ]
}

interface TaskRow {
  readonly id: string
  readonly format: string
  readonly owner: string
  readonly filename: string | null
  readonly created_at: number | string
  readonly state: string
  readonly progress: number
  readonly error: string | null
  readonly expires_at: number | string | null
  readonly source: string
  readonly request: string
}

interface FileRow {
  readonly id: string
  readonly kind: string
  readonly owner: string
  readonly size: number | string
  readonly part_size: number | string
  readonly total_parts: number
  readonly created_at: number | string
  readonly expires_at: number | string
}

const taskColumns = "id, format, owner, filename, created_at, state, progress, error, expires_at, source, request"

const toTask = (row: TaskRow): Task => ({
  id: row.id,
  format: row.format === "epub" ? "epub" : "markdown",
  owner: row.owner,
  filename: row.filename ?? undefined,
  createdAt: Number(row.created_at),
  state: row.state as TaskState,
  progress: row.progress,
  error: row.error ?? undefined,
  expiresAt: row.expires_at === null ? Number.POSITIVE_INFINITY : Number(row.expires_at),
  source: JSON.parse(row.source) as TaskSource,
  request: row.request
})

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  if (parts.length === 1) return parts[0]!
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let offset = 0
  for (const part of parts) {
    whole.set(part, offset)
    offset += part.byteLength
  }
  return whole
}

const count = (rows: ReadonlyArray<{ readonly n: number | string | null }>): number => Number(rows[0]?.n ?? 0)

export const make = (limits: StoreLimits): Effect.Effect<Store, StorageError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const fail = (operation: string) => (cause: SqlError) => new StorageError({ operation, cause })
    const run = <A>(operation: string, effect: Effect.Effect<A, SqlError>): Effect.Effect<A, StorageError> =>
      Effect.mapError(effect, fail(operation))
    const transaction = <A>(operation: string, effect: Effect.Effect<A, SqlError>): Effect.Effect<A, StorageError> =>
      run(operation, sql.withTransaction(effect))

    // SQLite: freed pages go back to the file system at each commit (a new database only: it must
    // precede the first table), and with the write-ahead log a commit survives a killed process
    // without an fsync of its own (a power loss may take the last commits back).
    const pragmas = sql.onDialectOrElse({
      sqlite: () => ["PRAGMA auto_vacuum = FULL", "PRAGMA synchronous = NORMAL"],
      orElse: () => []
    })
    yield* run(
      "create tables",
      Effect.forEach([...pragmas, ...schema(sql)], (statement) => sql.unsafe(statement), { discard: true })
    )
    const sweptAt = yield* Ref.make(0)

    const taskCount = Effect.map(sql<{ n: number }>`SELECT COUNT(*) AS n FROM pdt_tasks`, count)

    const dropExpiredTasks = (now: number) =>
      sql`DELETE FROM pdt_tasks WHERE expires_at IS NOT NULL AND expires_at <= ${now}`

    const dropExpiredFiles = (now: number) =>
      Effect.zipRight(
        sql`DELETE FROM pdt_parts WHERE file_id IN (SELECT id FROM pdt_files WHERE expires_at <= ${now})`,
        sql`DELETE FROM pdt_files WHERE expires_at <= ${now}`
      )

    /** Drops the oldest finished tasks (never `keep`) until `tooMuch` says enough. */
    const evictFinished = (
      tooMuch: (dropped: { readonly count: number; readonly bytes: number }) => boolean,
      keep: string
    ) =>
      Effect.gen(function*() {
        const finished = yield* sql<{ seq: number | string; output_bytes: number | string }>`
          SELECT seq, output_bytes FROM pdt_tasks WHERE state <> 'processing' AND id <> ${keep} ORDER BY seq`
        const drop: Array<number | string> = []
        let bytes = 0
        for (const row of finished) {
          if (!tooMuch({ count: drop.length, bytes })) break
          drop.push(row.seq)
          bytes += Number(row.output_bytes)
        }
        if (drop.length > 0) yield* sql`DELETE FROM pdt_tasks WHERE ${sql.in("seq", drop)}`
      })

    const fileUsage = Effect.map(
      sql<{ n: number | string; bytes: number | string | null }>`
        SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM pdt_files`,
      (rows) => ({ files: Number(rows[0]?.n ?? 0), bytes: Number(rows[0]?.bytes ?? 0) })
    )

    /** Whether `bytes` more fit, after dropping expired entries if they do not at first. */
    const roomForFile = (bytes: number, now: number) =>
      Effect.gen(function*() {
        const fits = (usage: { readonly files: number; readonly bytes: number }) =>
          usage.files < limits.maxFiles && usage.bytes + bytes <= limits.maxFileBytes
        if (fits(yield* fileUsage)) return true
        yield* dropExpiredFiles(now)
        return fits(yield* fileUsage)
      })

    const store: Store = {
      createTask: <D extends { readonly _tag: "Accepted" | "Rejected" }>(
        task: NewTask,
        now: number,
        admit: (inFlight: number) => Effect.Effect<D>
      ) =>
        transaction(
          "create task",
          Effect.gen(function*() {
            let tasks = yield* taskCount
            if (tasks >= limits.maxTasks) {
              yield* dropExpiredTasks(now)
              tasks = yield* taskCount
              const excess = tasks - limits.maxTasks + 1
              if (excess > 0) yield* evictFinished(({ count }) => count < excess, task.id)
              tasks = yield* taskCount
            }
            if (tasks >= limits.maxTasks) return { _tag: "Full" } as const
            const inFlight = count(
              yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM pdt_tasks
                WHERE owner = ${task.owner} AND state = 'processing'`
            )
            const decision = yield* admit(inFlight)
            if (decision._tag === "Rejected") return decision
            yield* sql`INSERT INTO pdt_tasks ${
              sql.insert({
                id: task.id,
                format: task.format,
                owner: task.owner,
                filename: task.filename ?? null,
                created_at: task.createdAt,
                state: "processing",
                progress: 0,
                error: null,
                expires_at: null,
                source: JSON.stringify(task.source),
                request: task.request
              })
            }`
            return decision
          })
        ),
      task: (id, now) =>
        run(
          "read task",
          Effect.map(
            sql<TaskRow>`SELECT ${sql.literal(taskColumns)} FROM pdt_tasks
              WHERE id = ${id} AND (expires_at IS NULL OR expires_at > ${now})`,
            (rows) => Option.map(Option.fromNullable(rows[0]), toTask)
          )
        ),
      processing: run(
        "list processing tasks",
        Effect.map(
          sql<TaskRow>`SELECT ${sql.literal(taskColumns)} FROM pdt_tasks WHERE state = 'processing' ORDER BY seq`,
          (rows) => rows.map(toTask)
        )
      ),
      setProgress: (id, progress) =>
        run(
          "record progress",
          sql`UPDATE pdt_tasks SET progress = ${progress}
            WHERE id = ${id} AND state = 'processing' AND progress < ${progress}`
        ),
      finishTask: (id, outcome, expiresAt) =>
        transaction(
          "finish task",
          Effect.gen(function*() {
            if ("output" in outcome) {
              yield* sql`UPDATE pdt_tasks SET state = 'completed', progress = 100, output = ${outcome.output},
                output_bytes = ${outcome.output.byteLength}, expires_at = ${expiresAt}
                WHERE id = ${id} AND state = 'processing'`
              const total = Number(
                (yield* sql<{ bytes: number | string | null }>`
                  SELECT COALESCE(SUM(output_bytes), 0) AS bytes FROM pdt_tasks`)[0]?.bytes ?? 0
              )
              if (total > limits.maxOutputBytes) {
                yield* evictFinished(({ bytes }) => total - bytes > limits.maxOutputBytes, id)
              }
            } else {
              yield* sql`UPDATE pdt_tasks SET state = 'failed', error = ${outcome.error}, expires_at = ${expiresAt}
                WHERE id = ${id} AND state = 'processing'`
            }
          })
        ),
      output: (id, now) =>
        run(
          "read output",
          Effect.map(
            sql<{ output: Uint8Array | null }>`SELECT output FROM pdt_tasks
              WHERE id = ${id} AND state = 'completed' AND expires_at > ${now}`,
            (rows) => Option.fromNullable(rows[0]?.output ?? undefined)
          )
        ),
      taskCount: run("count tasks", taskCount),

      addFile: (file, bytes, now) =>
        transaction(
          "store file",
          Effect.gen(function*() {
            if (!(yield* roomForFile(bytes.byteLength, now))) return false
            yield* sql`INSERT INTO pdt_files ${
              sql.insert({
                id: file.id,
                kind: "file",
                owner: file.owner,
                size: bytes.byteLength,
                part_size: bytes.byteLength,
                total_parts: 1,
                created_at: file.createdAt,
                expires_at: file.expiresAt
              })
            }`
            yield* sql`INSERT INTO pdt_parts ${sql.insert({ file_id: file.id, part: 1, bytes })}`
            return true
          })
        ),
      startUpload: (upload, now) =>
        transaction(
          "start upload",
          Effect.gen(function*() {
            if (!(yield* roomForFile(upload.size, now))) return false
            yield* sql`INSERT INTO pdt_files ${
              sql.insert({
                id: upload.id,
                kind: "upload",
                owner: upload.owner,
                size: upload.size,
                part_size: upload.partSize,
                total_parts: upload.totalParts,
                created_at: upload.createdAt,
                expires_at: upload.expiresAt
              })
            }`
            return true
          })
        ),
      entry: (id, now) =>
        run(
          "read upload",
          Effect.gen(function*() {
            const rows = yield* sql<FileRow>`SELECT * FROM pdt_files WHERE id = ${id} AND expires_at > ${now}`
            const row = rows[0]
            if (row === undefined) return Option.none<FileEntry>()
            const parts = yield* sql<{ part: number }>`SELECT part FROM pdt_parts WHERE file_id = ${id} ORDER BY part`
            return Option.some<FileEntry>({
              kind: row.kind === "upload" ? "upload" : "file",
              id: row.id,
              owner: row.owner,
              size: Number(row.size),
              partSize: Number(row.part_size),
              totalParts: row.total_parts,
              received: parts.map((part) => part.part),
              createdAt: Number(row.created_at),
              expiresAt: Number(row.expires_at)
            })
          })
        ),
      putPart: (id, part, bytes) =>
        run(
          "store part",
          sql`INSERT INTO pdt_parts ${sql.insert({ file_id: id, part, bytes })}
            ON CONFLICT (file_id, part) DO UPDATE SET bytes = excluded.bytes`
        ),
      completeUpload: (id, expiresAt) =>
        run(
          "complete upload",
          sql`UPDATE pdt_files SET kind = 'file', expires_at = ${expiresAt} WHERE id = ${id} AND kind = 'upload'`
        ),
      fileBytes: (id, now) =>
        run(
          "read file",
          Effect.gen(function*() {
            const rows = yield* sql<{ id: string }>`SELECT id FROM pdt_files
              WHERE id = ${id} AND kind = 'file' AND expires_at > ${now}`
            if (rows.length === 0) return Option.none<Uint8Array>()
            const parts = yield* sql<{ bytes: Uint8Array }>`SELECT bytes FROM pdt_parts
              WHERE file_id = ${id} ORDER BY part`
            return Option.some(concat(parts.map((part) => part.bytes)))
          })
        ),
      fileUsage: run("read upload usage", fileUsage),
      sweepIfDue: (now) =>
        Effect.flatMap(
          Ref.modify(sweptAt, (at) => now - at >= sweepIntervalMs ? [true, now] : [false, at]),
          (due) =>
            due ?
              transaction(
                "drop expired entries",
                Effect.asVoid(Effect.zipRight(dropExpiredTasks(now), dropExpiredFiles(now)))
              ) :
              Effect.void
        )
    }
    return store
  })
