/** The batch's durable memory, so a batch killed and started again never submits twice nor loses an output.
 * @since 0.1.0 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import type * as Contract from "@pdf-transform/core/Contract"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { JournalFailed } from "./BatchError.js"
import * as entries from "./internal/journalEntry.js"
import * as file from "./internal/journalFile.js"

/** Why a job failed: the error's `tag`, its `message`, and `taskEnded` (the task is over at the service).
 * @since 0.1.0
 * @category models */
export type Failure = typeof entries.Failure.Type

/** One journal entry (the type of the line Schema), told apart by `state`.
 * @since 0.1.0
 * @category models */
export type Entry = typeof entries.Entry.Type

/** What the journal says of one job, by its last `state`, with its output path and sessionID once known.
 * @since 0.1.0
 * @category models */
export type JobRecord =
  | { readonly state: "submitting"; readonly key: string; readonly output: string; readonly sessionId?: undefined }
  | {
    readonly state: "submitted"
    readonly key: string
    readonly output?: string | undefined
    readonly sessionId: Contract.SessionId
  }
  | {
    readonly state: "rejected" | "ambiguous"
    readonly key: string
    readonly output?: string | undefined
    readonly sessionId?: Contract.SessionId | undefined
    readonly reason: string
  }
  | {
    readonly state: "completed"
    readonly key: string
    readonly output: string
    readonly sessionId: Contract.SessionId
  }
  | {
    readonly state: "failed"
    readonly key: string
    readonly output?: string | undefined
    readonly sessionId?: Contract.SessionId | undefined
    readonly failure: Failure
  }

/** A journal line that could not be read. Reported, kept in the file, and otherwise ignored.
 * @since 0.1.0
 * @category models */
export interface Problem {
  /** Line number, from 1. */
  readonly line: number
  readonly problem: string
}

/** What earlier runs left.
 * @since 0.1.0
 * @category models */
export interface Recovered {
  readonly jobs: ReadonlyMap<string, JobRecord>
  readonly problems: ReadonlyArray<Problem>
}

/** @since 0.1.0
 * @category models */
export interface Service {
  readonly recovered: Recovered
  /** Appends an entry; when the effect succeeds the entry is durable. */
  readonly append: (entry: Entry) => Effect.Effect<void, JournalFailed>
  /** Where the journal lives, for messages ("memory" for the in-memory one). */
  readonly location: string
}

/** @since 0.1.0
 * @category tags */
export class Journal extends Context.Tag("@pdf-transform/stream/Journal")<Journal, Service>() {}

/** A journal in memory: a file journal's behaviour, without surviving the process.
 * @since 0.1.0
 * @category constructors */
export const makeMemory = (initial: ReadonlyArray<Entry> = []): Service => {
  const jobs = new Map<string, JobRecord>()
  for (const entry of initial) jobs.set(entry.key, entries.fold(jobs.get(entry.key), entry))
  return {
    get recovered() {
      return { jobs: new Map(jobs), problems: [] }
    },
    append: (entry) => Effect.sync(() => void jobs.set(entry.key, entries.fold(jobs.get(entry.key), entry))),
    location: "memory"
  }
}

/** An in-memory journal (see `makeMemory`).
 * @since 0.1.0
 * @category layers */
export const layerMemory: Layer.Layer<Journal> = Layer.sync(Journal, () => makeMemory())

/** A journal in a file of JSON lines, append-only.
 * @since 0.1.0
 * @category constructors */
export const makeFile: (path: string) => Effect.Effect<
  Service,
  JournalFailed,
  FileSystem.FileSystem | Path.Path | Scope.Scope
> = file.make

/** The file journal as a layer (see `makeFile`).
 * @since 0.1.0
 * @category layers */
export const layerFile = (path: string): Layer.Layer<Journal, JournalFailed, FileSystem.FileSystem | Path.Path> =>
  Layer.scoped(Journal, file.make(path))
