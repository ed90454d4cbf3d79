/**
 * The store in SQL, the same statements on SQLite and Postgres. Tasks keep their source and request
 * so a restarted server runs them again; an upload is its parts' rows, read in order, never copied;
 * every check-then-write is one transaction. Bytes may live in a blob directory instead (`sqlBytes.ts`).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ParseError } from "effect/ParseResult"
import * as Ref from "effect/Ref"
import type { BlobDirectory } from "./blobDirectory.js"
import type { KeyState } from "./limiter.js"
import * as Bytes from "./sqlBytes.js"
import * as Tables from "./sqlTables.js"
import type { FileEntry, NewTask, Store, StoreLimits } from "./store.js"
import { StorageError } from "./store.js"

/** Expired entries are looked for at most this often. */
const sweepIntervalMs = 5_000

/** Finished tasks read at a time when some must be evicted. */
const evictionPage = 256

export const make = (
  limits: StoreLimits,
  blobs?: BlobDirectory
): Effect.Effect<Store, StorageError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const run = <A>(
      operation: string,
      effect: Effect.Effect<A, SqlError | ParseError>
    ): Effect.Effect<A, StorageError> => Effect.mapError(effect, (cause) => new StorageError({ operation, cause }))
    /** Tasks as stored, checked: a row this code did not write is a storage failure, not a crash. */
    const tasks = (query: Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
      Effect.map(Tables.readTasks(query), (rows) => rows.map(Tables.toTask))
    const bytes = blobs === undefined ? Bytes.inRows : Bytes.inFolder(blobs, sql)
    const transaction = <A>(
      operation: string,
      effect: (dropped: Bytes.Dropped) => Effect.Effect<A, SqlError | ParseError>
    ): Effect.Effect<A, StorageError> =>
      Effect.suspend(() => {
        const dropped: Bytes.Dropped = { tasks: [], files: [] }
        return Effect.tap(run(operation, sql.withTransaction(effect(dropped))), () => bytes.removeDropped(dropped))
      })

    yield* run("set up the database", Tables.setUp(sql))
    const sweptAt = yield* Ref.make(0)
    // What a crash left between a file and its row (written, or dropped, on one side only).
    yield* bytes.removeOrphans

    const totals = Tables.readTotals(sql)
    const taskCount = Effect.map(totals, (all) => all.tasks)

    const dropExpiredTasks = (now: number, dropped: Bytes.Dropped) =>
      Effect.map(
        Tables.readIds(sql`DELETE FROM pdt_tasks WHERE expires_at IS NOT NULL AND expires_at <= ${now} RETURNING id`),
        // One at a time: a sweep after a long stop may drop more rows than a call takes arguments.
        (rows) => {
          for (const row of rows) dropped.tasks.push(row.id)
        }
      )

    const dropExpiredFiles = (now: number, dropped: Bytes.Dropped) =>
      Effect.zipRight(
        sql`DELETE FROM pdt_parts WHERE file_id IN (SELECT id FROM pdt_files WHERE expires_at <= ${now})`,
        Effect.map(
          Tables.readIds(sql`DELETE FROM pdt_files WHERE expires_at <= ${now} RETURNING id`),
          (rows) => {
            for (const row of rows) dropped.files.push(row.id)
          }
        )
      )

    /** Drops the oldest finished tasks (never `keep`) until `tooMuch` says enough, a page at a time. */
    const evictFinished = (
      tooMuch: (dropped: { readonly count: number; readonly bytes: number }) => boolean,
      keep: string,
      dropped: Bytes.Dropped
    ) =>
      Effect.gen(function*() {
        let count = 0
        let bytes = 0
        let after = 0
        for (;;) {
          const page = yield* Tables.readFinished(sql`
            SELECT seq, id, output_bytes FROM pdt_tasks
            WHERE state <> 'processing' AND id <> ${keep} AND seq > ${after} ORDER BY seq LIMIT ${evictionPage}`)
          const drop: Array<number> = []
          for (const row of page) {
            if (!tooMuch({ count, bytes })) break
            drop.push(row.seq)
            dropped.tasks.push(row.id)
            count += 1
            bytes += row.output_bytes
          }
          // Deleted a page at a time, so no statement takes more arguments than a page.
          if (drop.length > 0) yield* sql`DELETE FROM pdt_tasks WHERE ${sql.in("seq", drop)}`
          if (page.length < evictionPage || !tooMuch({ count, bytes })) return
          after = page[page.length - 1]!.seq
        }
      })

    const fileUsage = Effect.map(totals, (all) => ({ files: all.files, bytes: all.fileBytes }))

    /** Whether `bytes` more fit, after dropping expired entries if they do not at first. */
    const roomForFile = (bytes: number, now: number, dropped: Bytes.Dropped) =>
      Effect.gen(function*() {
        const fits = (usage: { readonly files: number; readonly bytes: number }) =>
          usage.files < limits.maxFiles && usage.bytes + bytes <= limits.maxFileBytes
        if (fits(yield* fileUsage)) return true
        yield* dropExpiredFiles(now, dropped)
        return fits(yield* fileUsage)
      })

    /** Inserts a file or an upload when its size fits, and `andThen`, in one transaction. */
    const insertEntry = (
      operation: string,
      entry: Omit<FileEntry, "received">,
      now: number,
      andThen: Effect.Effect<unknown, SqlError>
    ) =>
      transaction(
        operation,
        (dropped) =>
          Effect.gen(function*() {
            if (!(yield* roomForFile(entry.size, now, dropped))) return false
            yield* sql`INSERT INTO pdt_files ${
              sql.insert({
                id: entry.id,
                kind: entry.kind,
                owner: entry.owner,
                size: entry.size,
                part_size: entry.partSize,
                total_parts: entry.totalParts,
                created_at: entry.createdAt,
                expires_at: entry.expiresAt
              })
            }`
            yield* andThen
            return true
          })
      )

    const store: Store = {
      createTask: <D extends { readonly _tag: "Accepted" | "Rejected" }>(
        task: NewTask,
        now: number,
        admit: (inFlight: number, state: KeyState | undefined) => { readonly decision: D; readonly state: KeyState }
      ) =>
        transaction(
          "create task",
          (dropped) =>
            Effect.gen(function*() {
              yield* sql.onDialectOrElse({
                pg: () => Effect.asVoid(sql`SELECT pg_advisory_xact_lock(${Tables.submitLockId})`),
                orElse: () => Effect.void
              })
              // The key's tasks in flight, counted on an index; all tasks, from the running totals.
              const inFlight = yield* Tables.readCount(sql`
                SELECT COUNT(*) AS n FROM pdt_tasks WHERE owner = ${task.owner} AND state = 'processing'`)
              let tasks = yield* taskCount
              if (tasks >= limits.maxTasks) {
                yield* dropExpiredTasks(now, dropped)
                tasks = yield* taskCount
                const excess = tasks - limits.maxTasks + 1
                if (excess > 0) yield* evictFinished(({ count }) => count < excess, task.id, dropped)
                tasks = yield* taskCount
              }
              if (tasks >= limits.maxTasks) return { _tag: "Full" } as const
              // Read, decided and written under the transaction (and Postgres's lock above): one
              // submit at a time sees a key's state.
              const { decision, state } = admit(inFlight, yield* Tables.readLimits(sql, task.owner))
              yield* Tables.writeLimits(sql, task.owner, state)
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
            tasks(sql`SELECT ${sql.literal(Tables.taskColumns)} FROM pdt_tasks
              WHERE id = ${id} AND (expires_at IS NULL OR expires_at > ${now})`),
            (rows) => Option.fromNullable(rows[0])
          )
        ),
      claimNext: (claim, now) =>
        run(
          "claim a task",
          Effect.map(
            // Postgres: concurrent claims skip the row another node is claiming instead of waiting for it.
            tasks(sql`UPDATE pdt_tasks SET claimed_by = ${claim.node}, claim_until = ${claim.until},
                claims = claims + 1
              WHERE seq = (
                SELECT seq FROM pdt_tasks WHERE state = 'processing'
                  AND (claimed_by IS NULL OR (claim_until IS NOT NULL AND claim_until <= ${now}))
                  ORDER BY seq LIMIT 1 ${
              sql.literal(sql.onDialectOrElse({ pg: () => "FOR UPDATE SKIP LOCKED", orElse: () => "" }))
            }
              ) AND state = 'processing'
              RETURNING ${sql.literal(Tables.taskColumns)}`),
            (rows) => Option.fromNullable(rows[0])
          )
        ),
      renewClaims: (node, until) =>
        run(
          "renew claims",
          Effect.map(
            Tables.readIds(sql`UPDATE pdt_tasks SET claim_until = ${until}
              WHERE claimed_by = ${node} AND state = 'processing' RETURNING id`),
            (rows) => new Set(rows.map((row) => row.id))
          )
        ),
      releaseClaims: (node) =>
        run(
          "release claims",
          node === undefined
            ? sql`UPDATE pdt_tasks SET claimed_by = NULL, claim_until = NULL WHERE state = 'processing'`
            : sql`UPDATE pdt_tasks SET claimed_by = NULL, claim_until = NULL
                WHERE claimed_by = ${node} AND state = 'processing'`
        ),
      setProgress: (id, progress) =>
        run(
          "record progress",
          sql`UPDATE pdt_tasks SET progress = ${progress}
            WHERE id = ${id} AND state = 'processing' AND progress < ${progress}`
        ),
      finishTask: (id, outcome, expiresAt, node) =>
        Effect.zipRight(
          // The output's file first: a completed row always has its bytes. If the task had ended
          // already (a conversion run twice), this rewrites the same output whole.
          "output" in outcome ? bytes.writeOutput(id, outcome.output) : Effect.void,
          transaction(
            "finish task",
            (dropped) =>
              Effect.gen(function*() {
                if ("output" in outcome) {
                  const stored = bytes.outputColumn(outcome.output)
                  yield* sql`UPDATE pdt_tasks SET state = 'completed', progress = 100, output = ${stored},
                output_bytes = ${outcome.output.byteLength}, expires_at = ${expiresAt},
                finished_by = ${node}
                WHERE id = ${id} AND state = 'processing'`
                  const total = (yield* totals).outputBytes
                  if (total > limits.maxOutputBytes) {
                    yield* evictFinished(({ bytes }) => total - bytes > limits.maxOutputBytes, id, dropped)
                  }
                } else {
                  yield* sql`UPDATE pdt_tasks SET state = 'failed', error = ${outcome.error}, expires_at = ${expiresAt},
                finished_by = ${node}
                WHERE id = ${id} AND state = 'processing'`
                }
              })
          )
        ),
      output: (id, now) =>
        Effect.flatMap(
          run(
            "read output",
            Tables.readOutputs(sql`SELECT output FROM pdt_tasks
              WHERE id = ${id} AND state = 'completed' AND expires_at > ${now}`)
          ),
          (rows) => {
            const row = rows[0]
            return row === undefined
              ? Effect.succeed(Option.none<Uint8Array>())
              : Effect.map(bytes.readOutput(id, row.output), Option.some)
          }
        ),
      taskCount: run("count tasks", taskCount),

      addFile: (file, data, now) => {
        const insert = insertEntry(
          "store file",
          { ...file, kind: "file", size: data.byteLength, partSize: data.byteLength, totalParts: 1 },
          now,
          sql`INSERT INTO pdt_parts ${sql.insert({ file_id: file.id, part: 1, bytes: bytes.partColumn(data) })}`
        )
        // The bytes first; taken back when there is no room for the file (or its row cannot be written).
        return Effect.zipRight(
          bytes.writePart(file.id, 1, data),
          Effect.tap(
            Effect.tapError(insert, () => Effect.ignore(bytes.discardFile(file.id))),
            (stored) => stored ? Effect.void : bytes.discardFile(file.id)
          )
        )
      },
      startUpload: (upload, now) => insertEntry("start upload", { ...upload, kind: "upload" }, now, Effect.void),
      entry: (id, now) =>
        run(
          "read upload",
          Effect.gen(function*() {
            const rows = yield* Tables.readFiles(sql`SELECT * FROM pdt_files WHERE id = ${id} AND expires_at > ${now}`)
            const row = rows[0]
            if (row === undefined) return Option.none<FileEntry>()
            // A file has every part (an upload becomes a file once its parts are all there): one query less per submit.
            const received = row.kind === "file"
              ? Array.from({ length: row.total_parts }, (_, i) => i + 1)
              : (yield* Tables.readPartNumbers(sql`SELECT part FROM pdt_parts WHERE file_id = ${id} ORDER BY part`))
                .map((part) => part.part)
            return Option.some(Tables.toEntry(row, received))
          })
        ),
      putPart: (id, part, data) =>
        Effect.zipRight(
          bytes.writePart(id, part, data),
          run(
            "store part",
            sql`INSERT INTO pdt_parts ${sql.insert({ file_id: id, part, bytes: bytes.partColumn(data) })}
            ON CONFLICT (file_id, part) DO UPDATE SET bytes = excluded.bytes`
          )
        ),
      completeUpload: (id, expiresAt) =>
        run(
          "complete upload",
          sql`UPDATE pdt_files SET kind = 'file', expires_at = ${expiresAt} WHERE id = ${id} AND kind = 'upload'`
        ),
      fileBytes: (id, now) =>
        Effect.flatMap(
          run(
            "read file",
            Tables.readParts(sql`SELECT p.part, p.bytes, f.size
              FROM pdt_parts p JOIN pdt_files f ON f.id = p.file_id
              WHERE f.id = ${id} AND f.kind = 'file' AND f.expires_at > ${now} ORDER BY p.part`)
          ),
          (parts) =>
            // A stored file has at least one part: no rows means no such file.
            parts.length === 0
              ? Effect.succeed(Option.none<Uint8Array>())
              : Effect.map(
                Effect.forEach(parts, (row) => bytes.readPart(id, row.part, row.bytes, row.size)),
                Bytes.joined
              )
        ),
      fileUsage: run("read upload usage", fileUsage),
      sweepIfDue: (now) =>
        Effect.flatMap(
          Ref.modify(sweptAt, (at) => now - at >= sweepIntervalMs ? [true, now] : [false, at]),
          (due) =>
            due ?
              transaction(
                "drop expired entries",
                (dropped) =>
                  Effect.asVoid(Effect.zipRight(dropExpiredTasks(now, dropped), dropExpiredFiles(now, dropped)))
              ) :
              Effect.void
        )
    }
    return store
  })
