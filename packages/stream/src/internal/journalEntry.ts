/** The journal's line format (JSON, one entry per line) and the fold that reads a job's state from it. */
import * as Contract from "@pdf-transform/core/Contract"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type * as Journal from "../Journal.js"

const key = Schema.String

/** Why a job failed, as the journal keeps it. */
export const Failure = Schema.Struct({
  /** The error's tag, e.g. `ConversionFailed`. */
  tag: Schema.String,
  message: Schema.String,
  /** Whether the task is over at the service (failed there, or unknown to it): polling it again is pointless. */
  taskEnded: Schema.Boolean
})

/** Every entry a journal holds. */
export const Entry = Schema.Union(
  Schema.Struct({
    state: Schema.Literal("submitting"),
    key,
    name: Schema.String,
    format: Contract.Format,
    output: Schema.String
  }),
  Schema.Struct({ state: Schema.Literal("submitted"), key, sessionId: Contract.SessionId }),
  Schema.Struct({ state: Schema.Literal("rejected"), key, reason: Schema.String }),
  Schema.Struct({ state: Schema.Literal("ambiguous"), key, reason: Schema.String }),
  Schema.Struct({
    state: Schema.Literal("completed"),
    key,
    sessionId: Contract.SessionId,
    output: Schema.String,
    bytes: Schema.Number
  }),
  Schema.Struct({
    state: Schema.Literal("failed"),
    key,
    sessionId: Schema.optional(Contract.SessionId),
    failure: Failure
  })
)

/** A line of the file: an entry, the format's version and the Clock time it was appended at. */
const Line = Schema.extend(Entry, Schema.Struct({ v: Schema.Literal(1), at: Schema.Number }))

/** How much of an unreadable line a problem report quotes. */
const excerptChars = 80

const decodeLine = Schema.decodeUnknownEither(Schema.parseJson(Line))

/** One line of the file, newline included. */
export const toLine = (entry: Journal.Entry, at: number): string => `${JSON.stringify({ v: 1, at, ...entry })}\n`

/** Folds one entry into the job's record: the last word of each kind wins. */
export const fold = (previous: Journal.JobRecord | undefined, entry: Journal.Entry): Journal.JobRecord => {
  const { key } = entry
  switch (entry.state) {
    case "submitting":
      // A new submit: any earlier task of this job is over (failed for good and resubmitted).
      return { key, state: "submitting", output: entry.output }
    case "submitted":
      return { key, state: "submitted", output: previous?.output, sessionId: entry.sessionId }
    case "rejected":
    case "ambiguous":
      return { key, state: entry.state, output: previous?.output, sessionId: previous?.sessionId, reason: entry.reason }
    case "completed":
      return { key, state: "completed", output: entry.output, sessionId: entry.sessionId }
    case "failed":
      return {
        key,
        state: "failed",
        output: previous?.output,
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
