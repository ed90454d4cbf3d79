/**
 * The operator view: the whole server from `GET /api/overview`, read again every two seconds while
 * it is shown.
 */
import type * as WebApi from "../../src/WebApi.js"
import * as Api from "./api.js"
import type { App } from "./app.js"
import { sleep } from "./app.js"
import { byId, bytes, duration, fill, h } from "./dom.js"

const refreshMs = 2000

const table = (caption: string, head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  h(
    "table",
    {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ...head.map((cell) => h("th", { scope: "col" }, cell)))),
    h(
      "tbody",
      {},
      ...rows.map(([first, ...rest]) =>
        h("tr", {}, h("th", { scope: "row" }, first ?? ""), ...rest.map((cell) => h("td", {}, cell)))
      )
    )
  )

const counts = (tasks: WebApi.TaskCounts) => [tasks.queued, tasks.running, tasks.completed, tasks.failed].map(String)

const keyRow = (key: WebApi.KeyUse, at: number): Array<string> => [
  key.key,
  key.concurrency === null
    ? `${key.tasks.queued + key.tasks.running} (no limit)`
    : `${key.concurrency.inFlight} of ${key.concurrency.limit}`,
  key.rate === null ? "no limit" : `${key.rate.tokens} of ${key.rate.limit} per ${duration(key.rate.windowMs)}`,
  key.quota === null
    ? "no limit"
    : `${key.quota.used} of ${key.quota.limit}, resets in ${duration(Math.max(0, key.quota.resetsAt - at))}`,
  `${key.tasks.completed} completed, ${key.tasks.failed} failed`
]

const show = (overview: WebApi.Overview) => {
  const { storage } = overview
  fill(
    byId("overview"),
    table("Tasks by state", ["", "Queued", "Running", "Completed", "Failed"], [[
      "All keys",
      ...counts(overview.tasks)
    ]]),
    table(
      `Conversions per node (up to ${overview.conversionsPerNode} at once each; this page is served by ${overview.node})`,
      ["Node", "Running now", "Finished (still kept)"],
      overview.nodes.map((node) => [node.node, String(node.running), String(node.finished)])
    ),
    table(
      "Keys: limits and use",
      ["Key", "Tasks in flight", "Submit rate (tokens left)", "Quota used", "Kept tasks"],
      overview.keys.map((key) => keyRow(key, overview.at))
    ),
    table("Storage", ["", "Used", "Limit"], [
      ["Tasks", String(storage.tasks), String(storage.maxTasks)],
      ["Outputs", bytes(storage.outputBytes), bytes(storage.maxOutputBytes)],
      ["Uploads", String(storage.files), String(storage.maxFiles)],
      ["Upload bytes", bytes(storage.fileBytes), bytes(storage.maxFileBytes)]
    ])
  )
}

/** Bumped by every start and stop: a loop of an older generation ends at its next turn. */
let generation = 0

const refresh = async (app: App, key: string) => {
  const answer = await Api.overview(key)
  const error = byId("operator-error")
  if (answer._tag === "Unauthenticated") return app.refused(answer.message)
  if (answer._tag === "Failed") error.textContent = `The overview could not be read: ${answer.message}`
  else {
    error.textContent = ""
    show(answer.value)
  }
}

/** Reads the overview now and every two seconds, until `stop`. */
export const start = (app: App): void => {
  const mine = ++generation
  void (async () => {
    while (mine === generation && app.key !== undefined) {
      await refresh(app, app.key)
      await sleep(refreshMs)
    }
  })()
}

export const stop = (): void => {
  generation++
}
