/**
 * What the server keeps (tasks, files, chunked uploads), kept in SQL by `sqlStore.ts`. Times are passed
 * in from Effect's `Clock`, so expiry is tested under `TestClock`.
 */
import type { Format } from "@pdf-transform/core/Contract"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { KeyState } from "./limiter.js"

export const TaskState = Schema.Literal("processing", "completed", "failed")
export type TaskState = typeof TaskState.Type

/** Where a task's PDF comes from, as stored: one of the server's uploads, or a checked remote URL. */
export const TaskSource = Schema.Union(
  Schema.TaggedStruct("File", { fileId: Schema.String }),
  Schema.TaggedStruct("Remote", { url: Schema.String, address: Schema.String, family: Schema.Literal(4, 6) })
)
export type TaskSource = typeof TaskSource.Type

export interface Task {
  readonly id: string
  readonly format: Format
  /** The key identity that created the task; other keys see it as unknown. */
  readonly owner: string
  readonly filename: string | undefined
  readonly createdAt: number
  readonly state: TaskState
  readonly progress: number
  readonly error: string | undefined
  /** When a terminal task stops being answered; infinite while processing. */
  readonly expiresAt: number
  readonly source: TaskSource
  /** The submit body as the client sent it (encoded JSON), for the conversion's options. */
  readonly request: string
  /** How many times a node has claimed it: more than once when a node died, stopped or let it go. */
  readonly claims: number
}

export type NewTask = Omit<Task, "state" | "progress" | "error" | "expiresAt" | "claims">

export type Outcome = { readonly output: Uint8Array } | { readonly error: string }

/** A whole file, or a chunked upload still receiving parts. */
export interface FileEntry {
  readonly kind: "file" | "upload"
  readonly id: string
  /** The key identity that uploaded it; other keys see it as unknown. */
  readonly owner: string
  /** The file's size (an upload's declared size, reserved when it starts). */
  readonly size: number
  readonly partSize: number
  readonly totalParts: number
  /** Part numbers (1-based) received whole, ascending. */
  readonly received: ReadonlyArray<number>
  readonly createdAt: number
  readonly expiresAt: number
}

export interface Usage {
  readonly files: number
  readonly bytes: number
}

/** The store could not be read or written (disk full, database unreachable): a 503, nothing is lost. */
export class StorageError
  extends Data.TaggedError("StorageError")<{ readonly operation: string; readonly cause: unknown }>
{
  get message(): string {
    const reasons: Array<string> = []
    let cause: unknown = this.cause
    while (cause instanceof Error && reasons.length < 3) {
      if (cause.message !== "" && !reasons.includes(cause.message)) reasons.push(cause.message)
      cause = cause.cause
    }
    return `The server's storage failed (${this.operation})${reasons.length === 0 ? "" : `: ${reasons.join(": ")}`}`
  }
}

/** A claim on a task: the node running it, and until when unless renewed (`null`: until released). */
export interface Claim {
  readonly node: string
  readonly until: number | null
}

export interface Store {
  /**
   * Inserts a task when there is room (`Full` when every stored task is processing) and `admit`, given
   * the owner's tasks and limiter state, accepts it: one transaction, so no two submits take the last slot.
   */
  readonly createTask: <D extends { readonly _tag: "Accepted" | "Rejected" }>(
    task: NewTask,
    now: number,
    admit: (inFlight: number, state: KeyState | undefined) => { readonly decision: D; readonly state: KeyState }
  ) => Effect.Effect<D | { readonly _tag: "Full" }, StorageError>
  readonly task: (id: string, now: number) => Effect.Effect<Option.Option<Task>, StorageError>
  /** Claims the oldest processing task nobody holds (or whose claim lapsed) for `claim.node`: the nodes' queue. */
  readonly claimNext: (claim: Claim, now: number) => Effect.Effect<Option.Option<Task>, StorageError>
  /** Extends every claim `node` holds on a processing task to `until`; answers the tasks it still holds. */
  readonly renewClaims: (node: string, until: number) => Effect.Effect<ReadonlySet<string>, StorageError>
  /** Lets go of the claims `node` holds (every claim when `undefined`), so any node may take those tasks at once. */
  readonly releaseClaims: (node: string | undefined) => Effect.Effect<void, StorageError>
  /** Raises a processing task's progress (never backwards). */
  readonly setProgress: (id: string, progress: number) => Effect.Effect<void, StorageError>
  /** Records a processing task's end and output in one write (a task already finished stays as it is). */
  readonly finishTask: (
    id: string,
    outcome: Outcome,
    expiresAt: number,
    node: string
  ) => Effect.Effect<void, StorageError>
  readonly output: (id: string, now: number) => Effect.Effect<Option.Option<Uint8Array>, StorageError>
  readonly taskCount: Effect.Effect<number, StorageError>

  /** Stores a whole file, or answers false when the count or byte budget is used up by live entries. */
  readonly addFile: (
    file: Omit<FileEntry, "kind" | "received" | "partSize" | "totalParts">,
    bytes: Uint8Array,
    now: number
  ) => Effect.Effect<boolean, StorageError>
  /** Reserves a chunked upload's declared size, or answers false as `addFile` does. */
  readonly startUpload: (
    upload: Omit<FileEntry, "kind" | "received">,
    now: number
  ) => Effect.Effect<boolean, StorageError>
  readonly entry: (id: string, now: number) => Effect.Effect<Option.Option<FileEntry>, StorageError>
  /** Writes one part of an upload; a part sent again replaces itself. */
  readonly putPart: (id: string, part: number, bytes: Uint8Array) => Effect.Effect<void, StorageError>
  /** Turns an upload whose parts are all there into a file kept until `expiresAt`; no byte is copied. */
  readonly completeUpload: (id: string, expiresAt: number) => Effect.Effect<void, StorageError>
  /** A whole file's bytes (its parts in order) if it exists and has not expired. */
  readonly fileBytes: (id: string, now: number) => Effect.Effect<Option.Option<Uint8Array>, StorageError>
  readonly fileUsage: Effect.Effect<Usage, StorageError>

  /** Drops expired entries at most once per sweep interval: entries nobody asks for again still go. */
  readonly sweepIfDue: (now: number) => Effect.Effect<void, StorageError>
}

export interface StoreLimits {
  readonly maxTasks: number
  readonly maxOutputBytes: number
  readonly maxFiles: number
  readonly maxFileBytes: number
}
