/**
 * What the operator view reads of the SQL store: tasks by state and owner, live claims and ends
 * by node, and the limiter's kept state per key. Reads only, each row decoded with Schema.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { KeyState } from "./limiter.js"
import { decodeLimitRows, readTotals } from "./sqlTables.js"
import type { Totals } from "./sqlTables.js"
import { StorageError, TaskState } from "./store.js"

/** A COUNT(*): Postgres answers a string. */
const Count = Schema.Union(Schema.Number, Schema.NumberFromString)

const StateRow = Schema.Struct({ owner: Schema.String, state: TaskState, running: Count, n: Count })
const NodeRow = Schema.Struct({ node: Schema.String, n: Count })
const decodeStates = Schema.decodeUnknown(Schema.Array(StateRow))
const decodeNodes = Schema.decodeUnknown(Schema.Array(NodeRow))
const decodeKeys = Schema.decodeUnknown(Schema.Array(Schema.Struct({ key_id: Schema.String })))

export interface StoredOverview {
  /** Per owner and state: how many, and of the processing ones how many a node holds a live claim on. */
  readonly states: ReadonlyArray<typeof StateRow.Type>
  readonly running: ReadonlyArray<typeof NodeRow.Type>
  readonly finished: ReadonlyArray<typeof NodeRow.Type>
  readonly limits: ReadonlyMap<string, KeyState>
  readonly totals: Totals
}

export const read = (now: number): Effect.Effect<StoredOverview, StorageError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const live = sql`claimed_by IS NOT NULL AND (claim_until IS NULL OR claim_until > ${now})`
    const states = yield* Effect.flatMap(
      sql`SELECT owner, state, COUNT(*) AS n,
          SUM(CASE WHEN state = 'processing' AND ${live} THEN 1 ELSE 0 END) AS running
        FROM pdt_tasks WHERE expires_at IS NULL OR expires_at > ${now} GROUP BY owner, state`,
      decodeStates
    )
    const running = yield* Effect.flatMap(
      sql`SELECT claimed_by AS node, COUNT(*) AS n FROM pdt_tasks
        WHERE state = 'processing' AND ${live} GROUP BY claimed_by ORDER BY claimed_by`,
      decodeNodes
    )
    const finished = yield* Effect.flatMap(
      sql`SELECT finished_by AS node, COUNT(*) AS n FROM pdt_tasks
        WHERE state <> 'processing' AND finished_by IS NOT NULL AND (expires_at IS NULL OR expires_at > ${now})
        GROUP BY finished_by ORDER BY finished_by`,
      decodeNodes
    )
    const limitRows = yield* sql`SELECT key_id, tokens, refilled_at, window_start, used FROM pdt_limits`
    const keys = yield* decodeKeys(limitRows)
    const kept = yield* decodeLimitRows(limitRows)
    const limits = new Map(kept.map((row, i): [string, KeyState] => [keys[i]!.key_id, {
      tokens: row.tokens,
      refilledAt: row.refilled_at,
      windowStart: row.window_start,
      used: row.used
    }]))
    const totals = yield* readTotals(sql)
    return { states, running, finished, limits, totals }
  }).pipe(Effect.mapError((cause) => new StorageError({ operation: "read the overview", cause })))
