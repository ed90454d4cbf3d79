/** The end of a batch: a table of every document (file, result, output or why not) and a closing line. */
import type * as Batch from "@pdf-transform/stream/Batch"
import type { Final } from "@pdf-transform/stream/BatchEvent"
import * as Messages from "../Messages.js"
import { short } from "./duration.js"
import type { Display } from "./lines.js"
import type { Style } from "./view/style.js"
import { fit, printable, truncate, truncateStart, width } from "./view/width.js"

export interface Row {
  readonly index: number
  readonly file: string
  readonly result:
    | "converted"
    | "done before"
    | "duplicate"
    | "failed"
    | "failed before"
    | "ambiguous"
    | "not started"
    | "interrupted"
  readonly detail: string
}

const rowOf = (event: Final, display: Display): Row => {
  const base = { index: event.job.index, file: printable(display.path(event.job.name)) }
  switch (event._tag) {
    case "Completed":
      return { ...base, result: "converted", detail: display.path(event.output) }
    case "Failed":
      return { ...base, result: "failed", detail: Messages.sentence(event.error, display.messages) }
    case "Skipped":
      if (event.previous === "completed") {
        return { ...base, result: "done before", detail: event.output === undefined ? "" : display.path(event.output) }
      }
      if (event.previous === "failed") return { ...base, result: "failed before", detail: event.reason ?? "" }
      return { ...base, result: "duplicate", detail: event.reason ?? "" }
    case "Ambiguous":
      return { ...base, result: "ambiguous", detail: event.reason }
    case "NotAttempted":
      return { ...base, result: "not started", detail: event.reason }
  }
}

/** A document the batch was interrupted on: its task, when it has one, goes on at the service. */
export interface Unfinished {
  readonly index: number
  readonly name: string
  readonly sessionId: string | undefined
}

/** Every document of the summary, and the unfinished ones, in input order. */
export const rows = (
  summary: Batch.Summary,
  display: Display,
  unfinished: ReadonlyArray<Unfinished> = []
): ReadonlyArray<Row> =>
  [
    ...[...summary.completed, ...summary.failed, ...summary.skipped, ...summary.ambiguous, ...summary.notAttempted]
      .map((event) => rowOf(event, display)),
    ...unfinished.map((job): Row => ({
      index: job.index,
      file: printable(display.path(job.name)),
      result: "interrupted",
      detail: job.sessionId === undefined ?
        "not submitted" :
        `task ${job.sessionId} goes on at the service; the next run picks it up`
    }))
  ].sort((a, b) => a.index - b.index)

/** Which rows a long table keeps first: what went wrong before what went well. */
const priority: Record<Row["result"], number> = {
  failed: 0,
  ambiguous: 1,
  "failed before": 2,
  interrupted: 3,
  "not started": 4,
  converted: 5,
  "done before": 6,
  duplicate: 7
}

const count = (rows: ReadonlyArray<Row>): string => {
  const byResult = new Map<string, number>()
  for (const row of rows) byResult.set(row.result, (byResult.get(row.result) ?? 0) + 1)
  return [...byResult].map(([result, n]) => `${n} ${result}`).join(", ")
}

/** The table, at most `maxRows` documents, failures first; `columns` cuts it to a terminal's width. */
export const table = (
  all: ReadonlyArray<Row>,
  options: { readonly columns?: number | undefined; readonly style: Style; readonly maxRows?: number }
): ReadonlyArray<string> => {
  if (all.length === 0) return []
  const { style } = options
  const ranked = [...all].sort((a, b) => priority[a.result] - priority[b.result] || a.index - b.index)
  const maxRows = options.maxRows ?? 40
  const shown = ranked.slice(0, maxRows).sort((a, b) => a.index - b.index)
  const hidden = ranked.slice(maxRows)
  const room = options.columns === undefined ? Number.MAX_SAFE_INTEGER : options.columns - 1
  const fileColumns = Math.max(4, Math.min(Math.max(...shown.map((row) => width(row.file)), 4), Math.floor(room * 0.4)))
  const resultColumns = 13
  const detailColumns = Math.max(10, room - fileColumns - resultColumns - 4)
  const paint = (row: Row, text: string) =>
    row.result === "converted" || row.result === "done before" ?
      style.green(text) :
      row.result === "duplicate" || row.result === "not started" || row.result === "interrupted" ?
      style.dim(text) :
      style.red(text)
  const line = (file: string, result: string, detail: string, row?: Row) => {
    const cells = `${fit(truncateStart(file, fileColumns), fileColumns)}  ${
      row === undefined ? fit(result, resultColumns) : paint(row, fit(result, resultColumns))
    }  ${options.columns === undefined ? detail : truncate(detail, detailColumns)}`
    return cells.trimEnd()
  }
  const lines = [
    style.bold(line("file", "result", "output or reason")),
    ...shown.map((row) => line(row.file, row.result, row.detail, row))
  ]
  if (hidden.length > 0) lines.push(style.dim(`… and ${hidden.length} more: ${count(hidden)}`))
  return lines
}

/** The closing lines: counts, time, where the outputs are, and how to go on when documents are left. */
export const closing = (
  summary: Batch.Summary,
  options: {
    readonly elapsedMs: number
    readonly outputDirectory: string
    readonly journal: string
    /** Documents that never reached an end (the batch was interrupted). */
    readonly unfinished: number
  }
): ReadonlyArray<string> => {
  const converted = summary.completed.length
  const before = summary.skipped.filter((event) => event.previous === "completed").length
  const failed = summary.failed.length + summary.skipped.filter((event) => event.previous === "failed").length
  const left = summary.ambiguous.length + summary.notAttempted.length + options.unfinished
  const parts = [`${converted} converted`]
  if (before > 0) parts.push(`${before} done before`)
  if (failed > 0) parts.push(`${failed} failed`)
  if (left > 0) parts.push(`${left} not converted`)
  const lines = [`${parts.join(", ")} in ${short(options.elapsedMs)}. Outputs in ${options.outputDirectory}/`]
  if (left > 0) {
    lines.push(
      `To go on, run the same command again: the journal (${options.journal}) remembers every task, ` +
        "so nothing is submitted twice."
    )
  }
  if (summary.ambiguous.length > 0) {
    lines.push("Documents whose submit has an unknown outcome are only submitted again with --resubmit-ambiguous.")
  }
  return lines
}
