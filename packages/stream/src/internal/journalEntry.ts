/** The journal's line format (JSON, one entry per line) and the fold that reads a job's state from it. */
import * as Contract from "@pdf-transform/core/Contract"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type * as Journal from "../Journal.js"

const common = { v: Schema.Literal(1), key: Schema.String, at: Schema.Number }

const Failure = Schema.Struct({ tag: Schema.String, message: Schema.String, taskEnded: Schema.Boolean })

/** Every entry a journal line can hold. */
export const Entry = Schema.Union(
  Schema.Struct({
    ...common,
    state: Schema.Literal("submitting"),
    name: Schema.String,
    format: Contract.Format,
    output: Schema.String
  }),
  Schema.Struct({ ...common, state: Schema.Literal("submitted"), sessionId: Contract.SessionId }),
  Schema.Struct({ ...common, state: Schema.Literal("rejected"), reason: Schema.String }),
  Schema.Struct({ ...common, state: Schema.Literal("ambiguous"), reason: Schema.String }),
  Schema.Struct({
    ...common,
    state: Schema.Literal("completed"),
    sessionId: Contract.SessionId,
    output: Schema.String,
    bytes: Schema.Number
  }),
  Schema.Struct({
    ...common,
    state: Schema.Literal("failed"),
    sessionId: Schema.optional(Contract.SessionId),
    failure: Failure
  })
)

export type Entry = typeof Entry.Type

/** How much of an unreadable line a problem report quotes. */
const excerptChars = 80

const decodeLine = Schema.decodeUnknownEither(Schema.parseJson(Entry))

/**
 * One line of the file, newline included. The entry's type already is the line's shape, so plain
 * JSON suffices here; the Schema guards the other direction, where the file may hold anything.
 */
export const toLine = (entry: Journal.Entry, at: number): string => `${JSON.stringify({ v: 1, at, ...entry })}\n`

/** Folds one entry into the job's state: the last word of each kind wins. */
export const fold = (previous: Journal.JobRecord | undefined, entry: Journal.Entry): Journal.JobRecord => {
  const base = { key: entry.key, output: previous?.output, sessionId: previous?.sessionId }
  switch (entry.state) {
    case "submitting":
      // A new submit: any earlier task of this job is over (failed for good and resubmitted).
      return { key: entry.key, state: "submitting", output: entry.output }
    case "submitted":
      return { ...base, state: "submitted", sessionId: entry.sessionId }
    case "rejected":
    case "ambiguous":
      return { ...base, state: entry.state, reason: entry.reason }
    case "completed":
      return { key: entry.key, state: "completed", output: entry.output, sessionId: entry.sessionId }
    case "failed":
      return {
        ...base,
        state: "failed",
        sessionId: entry.sessionId ?? previous?.sessionId,
        failure: entry.failure
      }
  }
}

/** Reads a journal's text: every job's state, and every line that could not be read. */
export const recover = (text: string): Journal.Recovered => {
  const jobs = new Map<string, Journal.JobRecord>()
  const problems: Array<Journal.Problem> = []
  const lines = text.split("\n")
  lines.forEach((line, i) => {
    if (line.trim() === "") return
    const decoded = decodeLine(line)
    if (Either.isRight(decoded)) {
      const { at: _at, v: _v, ...entry } = decoded.right
      jobs.set(entry.key, fold(jobs.get(entry.key), entry))
      return
    }
    // The last line of a file cut short by a crash has no newline: say so, it is the usual case.
    // The parse error itself is not formatted: it would echo (and recurse into) whatever the line holds.
    const truncated = i === lines.length - 1
    const excerpt = line.length > excerptChars ? `${line.slice(0, excerptChars)}…` : line
    problems.push({
      line: i + 1,
      problem: `${truncated ? "truncated entry (the run that wrote it was cut short)" : "not a journal entry"}: ${
        JSON.stringify(excerpt)
      }`
    })
  })
  return { jobs, problems }
}
