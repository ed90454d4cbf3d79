/**
 * The JSON API of the server's web page, beside the v1 contract and not part of it:
 * `GET /api/settings` (what the page needs to know of this server) and `GET /api/overview` (the
 * operator view: tasks by state, conversions per node, each key's limits and use). Both take a
 * key of the server as the contract's routes do, and answer 401 as they do. The bodies are
 * Schemas, so the page decodes exactly what the server encodes.
 *
 * @since 0.2.0
 */
import * as Schema from "effect/Schema"

/**
 * The paths of the API.
 *
 * @since 0.2.0
 * @category constants
 */
export const paths = {
  settings: "/api/settings",
  overview: "/api/overview"
} as const

/**
 * What the page needs to know of the server, for the key that asks.
 *
 * @since 0.2.0
 * @category models
 */
export const Settings = Schema.Struct({
  /** The identity of the key that asked (`key#1`, ... in configuration order), never the key. */
  key: Schema.String,
  /** Whether a `pdfURL` may name a PDF elsewhere than this server's uploads. */
  remoteFetch: Schema.Boolean,
  /** The largest PDF an upload may hold, in bytes. */
  maxUploadBytes: Schema.Number
})

/**
 * @since 0.2.0
 * @category models
 */
export type Settings = typeof Settings.Type

/**
 * Tasks counted by state. `queued` are processing tasks no node is converting yet (or whose
 * node's claim lapsed); `running` are being converted.
 *
 * @since 0.2.0
 * @category models
 */
export const TaskCounts = Schema.Struct({
  queued: Schema.Number,
  running: Schema.Number,
  completed: Schema.Number,
  failed: Schema.Number
})

/**
 * @since 0.2.0
 * @category models
 */
export type TaskCounts = typeof TaskCounts.Type

/**
 * One node of the server (one process): the conversions it holds now and the tasks it finished
 * among those still kept.
 *
 * @since 0.2.0
 * @category models
 */
export const NodeUse = Schema.Struct({
  node: Schema.String,
  running: Schema.Number,
  finished: Schema.Number
})

/**
 * @since 0.2.0
 * @category models
 */
export type NodeUse = typeof NodeUse.Type

/**
 * One key's limits and their use now; a rule that is off is `null`.
 *
 * @since 0.2.0
 * @category models
 */
export const KeyUse = Schema.Struct({
  key: Schema.String,
  tasks: TaskCounts,
  /** The token bucket: `tokens` of `limit` left, refilled at `limit` per `windowMs`. */
  rate: Schema.NullOr(Schema.Struct({ limit: Schema.Number, windowMs: Schema.Number, tokens: Schema.Number })),
  /** The quota window: `used` of `limit` since the window began; it resets at `resetsAt` (epoch ms). */
  quota: Schema.NullOr(
    Schema.Struct({ limit: Schema.Number, windowMs: Schema.Number, used: Schema.Number, resetsAt: Schema.Number })
  ),
  /** Tasks in flight (processing) of `limit`. */
  concurrency: Schema.NullOr(Schema.Struct({ limit: Schema.Number, inFlight: Schema.Number }))
})

/**
 * @since 0.2.0
 * @category models
 */
export type KeyUse = typeof KeyUse.Type

/**
 * The operator view: the whole server as its storage sees it (every node of a shared database).
 *
 * @since 0.2.0
 * @category models
 */
export const Overview = Schema.Struct({
  /** The node that answered. */
  node: Schema.String,
  /** The server's time of the figures (epoch ms). */
  at: Schema.Number,
  /** Conversions each node runs at once. */
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

/**
 * @since 0.2.0
 * @category models
 */
export type Overview = typeof Overview.Type
