/**
 * In-memory task and upload stores, bounded in count and bytes, with retention measured on the
 * Effect clock (times are passed in, so everything here is plain synchronous code).
 */
import type { Format } from "@pdf-transform/core/Contract"

/** Expired entries are looked for at most this often (a scan of every stored entry: 10,000 tasks by default). */
const sweepIntervalMs = 5_000

export type TaskState = "processing" | "completed" | "failed"

export interface TaskRecord {
  readonly id: string
  readonly format: Format
  /** The key identity that created the task; other keys see it as unknown. */
  readonly owner: string
  readonly filename: string | undefined
  readonly createdAt: number
  state: TaskState
  progress: number
  output: Uint8Array | undefined
  error: string | undefined
  /** When a terminal task stops being answered; infinite while processing. */
  expiresAt: number
}

export interface StoreLimits {
  readonly maxEntries: number
  readonly maxBytes: number
}

/** Tasks by id. Full means every entry is still processing: the submit is refused, nothing is dropped. */
export class TaskStore {
  private readonly tasks = new Map<string, TaskRecord>()
  private bytes = 0
  private sweptAt = 0

  constructor(private readonly limits: StoreLimits) {}

  get size(): number {
    return this.tasks.size
  }

  get storedBytes(): number {
    return this.bytes
  }

  /** The task if it exists and has not expired (an expired one is dropped here). */
  get(id: string, now: number): TaskRecord | undefined {
    const task = this.tasks.get(id)
    if (task === undefined) return undefined
    if (task.expiresAt <= now) {
      this.remove(task)
      return undefined
    }
    return task
  }

  /** Makes room for one more task: drops expired tasks, then the oldest finished ones. */
  hasRoom(now: number): boolean {
    if (this.tasks.size < this.limits.maxEntries) return true
    this.sweep(now)
    this.evictFinished(() => this.tasks.size >= this.limits.maxEntries)
    return this.tasks.size < this.limits.maxEntries
  }

  insert(task: TaskRecord): void {
    this.tasks.set(task.id, task)
  }

  /** Records a finished task; older finished outputs are dropped if the byte budget is exceeded. */
  finish(
    task: TaskRecord,
    outcome: { readonly output: Uint8Array } | { readonly error: string },
    expiresAt: number
  ): void {
    if ("output" in outcome) {
      task.state = "completed"
      task.progress = 100
      task.output = outcome.output
      this.bytes += outcome.output.byteLength
    } else {
      task.state = "failed"
      task.error = outcome.error
    }
    task.expiresAt = expiresAt
    this.evictFinished(() => this.bytes > this.limits.maxBytes, task)
  }

  /** Drops expired tasks at most once per `sweepIntervalMs`: tasks nobody polls again still go. */
  sweepIfDue(now: number): void {
    if (now - this.sweptAt < sweepIntervalMs) return
    this.sweep(now)
  }

  /** Drops every expired task. */
  sweep(now: number): void {
    this.sweptAt = now
    for (const task of this.tasks.values()) {
      if (task.expiresAt <= now) this.remove(task)
    }
  }

  private evictFinished(tooMuch: () => boolean, keep?: TaskRecord): void {
    for (const task of this.tasks.values()) {
      if (!tooMuch()) return
      if (task.state !== "processing" && task !== keep) this.remove(task)
    }
  }

  private remove(task: TaskRecord): void {
    if (this.tasks.delete(task.id) && task.output !== undefined) this.bytes -= task.output.byteLength
  }
}

export interface FileRecord {
  readonly id: string
  readonly owner: string
  readonly bytes: Uint8Array
  readonly createdAt: number
  readonly expiresAt: number
}

/** Uploaded PDFs by id. Unexpired uploads are never dropped to make room: a full store refuses. */
export class FileStore {
  private readonly files = new Map<string, FileRecord>()
  private bytes = 0
  private sweptAt = 0

  constructor(private readonly limits: StoreLimits) {}

  get(id: string, now: number): FileRecord | undefined {
    const file = this.files.get(id)
    if (file === undefined) return undefined
    if (file.expiresAt <= now) {
      this.remove(file)
      return undefined
    }
    return file
  }

  /** Stores the file, or answers false when the count or byte budget is used up by live uploads. */
  insert(file: FileRecord, now: number): boolean {
    const fits = () =>
      this.files.size < this.limits.maxEntries && this.bytes + file.bytes.byteLength <= this.limits.maxBytes
    if (!fits()) this.sweep(now)
    if (!fits()) return false
    this.files.set(file.id, file)
    this.bytes += file.bytes.byteLength
    return true
  }

  sweepIfDue(now: number): void {
    if (now - this.sweptAt < sweepIntervalMs) return
    this.sweep(now)
  }

  sweep(now: number): void {
    this.sweptAt = now
    for (const file of this.files.values()) {
      if (file.expiresAt <= now) this.remove(file)
    }
  }

  private remove(file: FileRecord): void {
    if (this.files.delete(file.id)) this.bytes -= file.bytes.byteLength
  }
}
