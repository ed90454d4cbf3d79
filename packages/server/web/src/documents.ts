/**
 * This browser's documents and their tasks, kept in `localStorage` so the list survives a reload.
 * A task's phase is written before each step that has an effect on the server (as the batch's
 * journal does): a task found `submitting` after a reload may or may not exist, so it becomes
 * `unknown`, never submitted again without the user's say.
 */
import { Format } from "@pdf-transform/core/Contract"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

export const Phase = Schema.Literal(
  "queued",
  "submitting",
  /** Refused with 429 (no task was created): submitted again at `retryAt`. */
  "rate-limited",
  "processing",
  "completed",
  "failed",
  /** The submit was sent and no usable answer came: a task may exist. */
  "unknown",
  "gone"
)
export type Phase = typeof Phase.Type

const Task = Schema.mutable(Schema.Struct({
  format: Format,
  phase: Phase,
  sessionID: Schema.optional(Schema.String),
  progress: Schema.Number,
  error: Schema.optional(Schema.String),
  submittedAt: Schema.optional(Schema.Number),
  endedAt: Schema.optional(Schema.Number),
  /** 429s ridden out on the way to the submit that was accepted. */
  rateLimited: Schema.Number,
  retryAt: Schema.optional(Schema.Number)
}))
export type Task = typeof Task.Type

const Upload = Schema.mutable(Schema.Struct({
  phase: Schema.Literal("uploading", "done", "failed"),
  progress: Schema.Number,
  error: Schema.optional(Schema.String)
}))

const Document = Schema.mutable(Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  /** The key identity (`key#1`) the document was sent with: another key cannot see its tasks. */
  owner: Schema.String,
  size: Schema.optional(Schema.Number),
  addedAt: Schema.Number,
  upload: Upload,
  pdfURL: Schema.optional(Schema.String),
  fileId: Schema.optional(Schema.String),
  tasks: Schema.mutable(Schema.Array(Task))
}))
export type Document = typeof Document.Type

const decodeDocument = Schema.decodeUnknownEither(Document)
const encodeDocuments = Schema.encodeSync(Schema.Array(Document))

const storageKey = "pdf-transform.documents.v1"

const savedEntries = (): ReadonlyArray<unknown> => {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(storageKey) ?? "[]")
    return Array.isArray(saved) ? saved : []
  } catch {
    // Written by something else than this page: nothing of it can be trusted.
    return []
  }
}

/** The documents kept in this browser, each as the last step written left it; entries that do not decode are dropped. */
export const load = (): Array<Document> => {
  const documents = savedEntries().map((entry) => decodeDocument(entry)).filter(Either.isRight).map((entry) =>
    entry.right
  )
  for (const document of documents) {
    // The page that held the file is gone: the upload cannot go on.
    if (document.upload.phase === "uploading") {
      document.upload = { phase: "failed", progress: document.upload.progress, error: "the page was left mid-upload" }
      for (const task of document.tasks) {
        if (task.phase === "queued") {
          Object.assign(task, { phase: "failed", error: "never submitted: the upload did not finish" })
        }
      }
    }
    for (const task of document.tasks) {
      if (task.phase === "submitting") {
        Object.assign(task, { phase: "unknown", error: "the page was left while the submit was on its way" })
      }
    }
  }
  return documents
}

export const save = (documents: ReadonlyArray<Document>): void => {
  localStorage.setItem(storageKey, JSON.stringify(encodeDocuments(documents)))
}

export const newId = (): string => crypto.randomUUID()

/** A task that has ended, one way or another, and needs nothing more from the page. */
export const isSettled = (task: Task): boolean =>
  task.phase === "completed" || task.phase === "failed" || task.phase === "unknown" || task.phase === "gone"
