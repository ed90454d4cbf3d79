/** The web page's JSON API (`WebApi.ts`): settings for the page, and the operator view of the whole server. */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as WebApi from "../WebApi.js"
import type { AppContext } from "./context.js"
import { jsonResponse } from "./http.js"
import * as Limiter from "./limiter.js"
import type { StoredOverview } from "./sqlOverview.js"
import type { StorageError, TaskState } from "./store.js"

const encodeSettings = Schema.encodeSync(WebApi.Settings)
const encodeOverview = Schema.encodeSync(WebApi.Overview)

const noStore = { "cache-control": "no-store", "x-content-type-options": "nosniff" }

const counts = (rows: StoredOverview["states"], owner?: string): WebApi.TaskCounts => {
  const sum = (state: TaskState, field: "n" | "running") =>
    rows.filter((row) => row.state === state && (owner === undefined || row.owner === owner))
      .reduce((total, row) => total + row[field], 0)
  const processing = sum("processing", "n")
  const running = sum("processing", "running")
  return { queued: processing - running, running, completed: sum("completed", "n"), failed: sum("failed", "n") }
}

/** Every configured key in configuration order, with its limits brought up to `now`. */
const keyUses = (context: AppContext, stored: StoredOverview, now: number): Array<WebApi.KeyUse> => {
  return context.options.keys.map(({ id: key, limiter: config }) => {
    const tasks = counts(stored.states, key)
    const state = Limiter.currentState(config, stored.limits.get(key), now)
    return {
      key,
      tasks,
      rate: config.rate === undefined
        ? null
        : { limit: config.rate.limit, windowMs: config.rate.windowMs, tokens: Math.floor(state.tokens) },
      quota: config.quota === undefined
        ? null
        : {
          limit: config.quota.limit,
          windowMs: config.quota.windowMs,
          used: state.used,
          resetsAt: state.windowStart + config.quota.windowMs
        },
      concurrency: config.concurrency === undefined
        ? null
        : { limit: config.concurrency, inFlight: tasks.queued + tasks.running }
    }
  })
}

const overviewOf = (context: AppContext, stored: StoredOverview, now: number): WebApi.Overview => {
  const nodes = new Map<string, { running: number; finished: number }>()
  const node = (id: string) => nodes.get(id) ?? nodes.set(id, { running: 0, finished: 0 }).get(id)!
  // The answering node is listed even while it converts nothing.
  node(context.options.node.id)
  for (const row of stored.running) node(row.node).running = row.n
  for (const row of stored.finished) node(row.node).finished = row.n
  const { options } = context
  return {
    node: options.node.id,
    at: now,
    conversionsPerNode: options.maxConcurrentConversions,
    tasks: counts(stored.states),
    nodes: [...nodes].map(([id, use]) => ({ node: id, ...use })).sort((a, b) => a.node.localeCompare(b.node)),
    keys: keyUses(context, stored, now),
    storage: {
      tasks: stored.totals.tasks,
      maxTasks: options.maxTasks,
      outputBytes: stored.totals.outputBytes,
      maxOutputBytes: options.maxStoredOutputBytes,
      files: stored.totals.files,
      maxFiles: options.uploads.maxFiles,
      fileBytes: stored.totals.fileBytes,
      maxFileBytes: options.uploads.maxTotalBytes
    }
  }
}

/** The API's routes; `readOverview` reads the store's figures at a time. */
export const routes = (
  context: AppContext,
  readOverview: (now: number) => Effect.Effect<StoredOverview, StorageError>
) =>
  HttpRouter.empty.pipe(
    HttpRouter.get(
      WebApi.paths.settings,
      Effect.map(context.authenticate, (key) =>
        jsonResponse(
          200,
          encodeSettings({
            key: key.id,
            remoteFetch: context.options.remoteFetch.enabled,
            maxUploadBytes: context.options.uploads.maxBytes
          }),
          noStore
        ))
    ),
    HttpRouter.get(
      WebApi.paths.overview,
      Effect.gen(function*() {
        yield* context.authenticate
        const now = yield* Clock.currentTimeMillis
        const stored = yield* readOverview(now)
        return jsonResponse(200, encodeOverview(overviewOf(context, stored, now)), noStore)
      })
    )
  )
