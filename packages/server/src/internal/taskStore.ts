/**
 * Tasks by id, bounded in count and in bytes of finished outputs, kept for their retention.
 */
import type { Format } from "@pdf-transform/core/Contract"
import { ExpiringStore } from "./expiringStore.js"

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

/** Full means every entry is still processing: the submit is refused, nothing is dropped. */
export class TaskStore extends ExpiringStore<TaskRecord> {
  protected sizeOf(task: TaskRecord): number {
    return task.output?.byteLength ?? 0
  }

  get(id: string, now: number): TaskRecord | undefined {
    return this.entry(id, now)
  }

  /** Makes room for one more task: drops expired tasks, then the oldest finished ones. */
  hasRoom(now: number): boolean {
    if (this.entries.size < this.limits.maxEntries) return true
    this.sweep(now)
    this.evictFinished(() => this.entries.size >= this.limits.maxEntries)
    return this.entries.size < this.limits.maxEntries
  }

  insert(task: TaskRecord): void {
    this.add(task)
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

  private evictFinished(tooMuch: () => boolean, keep?: TaskRecord): void {
    for (const task of this.entries.values()) {
      if (!tooMuch()) return
      if (task.state !== "processing" && task !== keep) this.remove(task)
    }
  }
}
