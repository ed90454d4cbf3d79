/** The JSON API of the server's web page, beside the v1 contract and behind the same keys: bodies as
 * Schemas, so the page decodes exactly what the server encodes.
 * @since 0.2.0 */
import * as Schema from "effect/Schema"

/** `settings`: what the page needs to know of this server; `overview`: the operator view.
 * @since 0.2.0
 * @category constants */
export const paths = {
  settings: "/api/settings",
  overview: "/api/overview"
} as const

/** What the page needs to know of the server, for the key that asks.
 * @since 0.2.0
 * @category models */
export const Settings = Schema.Struct({
  /** The identity of the key that asked (`key#1`, ... in configuration order), never the key. */
  key: Schema.String,
  remoteFetch: Schema.Boolean,
  maxUploadBytes: Schema.Number
})

/** @since 0.2.0
 * @category models */
export type Settings = typeof Settings.Type

/** Tasks by state; `queued`: processing, but no node converts them (yet, or its claim lapsed).
 * @since 0.2.0
 * @category models */
export const TaskCounts = Schema.Struct({
  queued: Schema.Number,
  running: Schema.Number,
  completed: Schema.Number,
  failed: Schema.Number
})

/** @since 0.2.0
 * @category models */
export type TaskCounts = typeof TaskCounts.Type

/** One node (process) of the server: conversions it holds now, and kept tasks it finished.
 * @since 0.2.0
 * @category models */
export const NodeUse = Schema.Struct({
  node: Schema.String,
  running: Schema.Number,
  finished: Schema.Number
})

/** @since 0.2.0
 * @category models */
export type NodeUse = typeof NodeUse.Type

/** One key's limits and their use now; a rule that is off is `null`.
 * @since 0.2.0
 * @category models */
export const KeyUse = Schema.Struct({
  key: Schema.String,
  tasks: TaskCounts,
  /** The token bucket: `tokens` of `limit` left, refilled at `limit` per `windowMs`. */
  rate: Schema.NullOr(Schema.Struct({ limit: Schema.Number, windowMs: Schema.Number, tokens: Schema.Number })),
  /** The quota window: `used` of `limit` since the window began; it resets at `resetsAt` (epoch ms). */
  quota: Schema.NullOr(
    Schema.Struct({ limit: Schema.Number, windowMs: Schema.Number, used: Schema.Number, resetsAt: Schema.Number })
  ),
  concurrency: Schema.NullOr(Schema.Struct({ limit: Schema.Number, inFlight: Schema.Number }))
})

/** @since 0.2.0
 * @category models */
export type KeyUse = typeof KeyUse.Type

/** The operator view: the whole server as its storage sees it (every node of a shared database).
 * @since 0.2.0
 * @category models */
export const Overview = Schema.Struct({
  node: Schema.String,
  /** The server's time of the figures (epoch ms). */
  at: Schema.Number,
  conversionsPerNode: Schema.Number,
  tasks: TaskCounts,
  nodes: Schema.Array(NodeUse),
  keys: Schema.Array(KeyUse),
  storage: Schema.Struct({
    tasks: Schema.Number,
    maxTasks: Schema.Number,
    outputBytes: Schema.Number,
    maxOutputBytes: Schema.Number,
    files: Schema.Number,
    maxFiles: Schema.Number,
    fileBytes: Schema.Number,
    maxFileBytes: Schema.Number
  })
})

/** @since 0.2.0
 * @category models */
export type Overview = typeof Overview.Type
