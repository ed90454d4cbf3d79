/**
 * What the operator view reads of the SQL store: tasks by state and owner, live claims and ends
 * by node, and the limiter's kept state per key. Reads only, each row decoded with Schema.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { KeyState } from "./limiter.js"
import { BigintColumn, read as readRows, readAllLimits, readTotals } from "./sqlTables.js"
import type { Totals } from "./sqlTables.js"
import { StorageError, TaskState } from "./store.js"

const StateRow = Schema.Struct({ owner: Schema.String, state: TaskState, running: BigintColumn, n: BigintColumn })
const NodeRow = Schema.Struct({ node: Schema.String, n: BigintColumn })
const readStates = readRows(StateRow)
const readNodes = readRows(NodeRow)

export interface StoredOverview {
  /** Per owner and state: how many, and of the processing ones how many a node holds a live claim on. */
  readonly states: ReadonlyArray<typeof StateRow.Type>
  readonly running: ReadonlyArray<typeof NodeRow.Type>
  readonly finished: ReadonlyArray<typeof NodeRow.Type>
  readonly limits: ReadonlyMap<string, KeyState>
  readonly totals: Totals
}

const liveClaim = (sql: SqlClient.SqlClient, now: number) =>
  sql`claimed_by IS NOT NULL AND (claim_until IS NULL OR claim_until > ${now})`

const statesOf = (sql: SqlClient.SqlClient, now: number) =>
  readStates(
    sql`SELECT owner, state, COUNT(*) AS n,
        SUM(CASE WHEN state = 'processing' AND ${liveClaim(sql, now)} THEN 1 ELSE 0 END) AS running
      FROM pdt_tasks WHERE expires_at IS NULL OR expires_at > ${now} GROUP BY owner, state`
  )

/** The tasks by owner and state alone: what each metrics scrape needs, and no more. */
export const states = (now: number): Effect.Effect<StoredOverview["states"], StorageError, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => statesOf(sql, now)).pipe(
    Effect.mapError((cause) => new StorageError({ operation: "read the task counts", cause }))
  )

export const read = (now: number): Effect.Effect<StoredOverview, StorageError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const live = liveClaim(sql, now)
    const states = yield* statesOf(sql, now)
    const running = yield* readNodes(
      sql`SELECT claimed_by AS node, COUNT(*) AS n FROM pdt_tasks
        WHERE state = 'processing' AND ${live} GROUP BY claimed_by ORDER BY claimed_by`
    )
    const finished = yield* readNodes(
      sql`SELECT finished_by AS node, COUNT(*) AS n FROM pdt_tasks
        WHERE state <> 'processing' AND finished_by IS NOT NULL AND (expires_at IS NULL OR expires_at > ${now})
        GROUP BY finished_by ORDER BY finished_by`
    )
    const limits = yield* readAllLimits(sql)
    const totals = yield* readTotals(sql)
    return { states, running, finished, limits, totals }
  }).pipe(Effect.mapError((cause) => new StorageError({ operation: "read the overview", cause })))
