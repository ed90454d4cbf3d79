/** The fake's tasks and their timelines: the one place that says what a task's status is at a given time. */
import type * as Contract from "@pdf-transform/core/Contract"
import * as Duration from "effect/Duration"
import type * as FakeServer from "../FakeServer.js"
import type { ContractStep } from "./replies.js"

interface TimedStep {
  readonly atMs: number
  readonly status: FakeServer.StatusStep
}

export interface TaskRecord {
  readonly task: FakeServer.FakeTask
  readonly steps: ReadonlyArray<TimedStep>
  readonly signature: string
  /** The output its `Accept` step gave, if any. */
  readonly output: FakeServer.Output | undefined
}

const toTimedSteps = (timeline: FakeServer.Timeline): ReadonlyArray<TimedStep> =>
  timeline
    .map((step) => ({ atMs: Duration.toMillis(Duration.decode(step.after)), status: step.status }))
    // Array.prototype.sort is stable, so steps with the same `after` keep their order.
    .sort((a, b) => a.atMs - b.atMs)

/** The step of a timeline at `now` (`current`), and the contract step it stands for (`underlying`). */
export const stepAt = (
  record: TaskRecord,
  now: number
): { readonly current: FakeServer.StatusStep; readonly underlying: ContractStep } => {
  const elapsed = now - record.task.createdAt
  let current: FakeServer.StatusStep | undefined
  const steps = record.steps
  let i = steps.length - 1
  while (i >= 0 && steps[i]!.atMs > elapsed) i--
  for (; i >= 0; i--) {
    const status = steps[i]!.status
    if (current === undefined) current = status
    if (status.state !== "fault") return { current, underlying: status }
  }
  const processing: ContractStep = { state: "processing" }
  return { current: current ?? processing, underlying: processing }
}

export class TaskStore {
  private readonly records = new Map<string, TaskRecord>()
  private readonly pending = new Map<string, FakeServer.Timeline>()
  /** Tasks that may still be in flight; pruned as their timelines reach a terminal step. */
  private readonly live = new Set<string>()
  private readonly defaultSteps: ReadonlyArray<TimedStep>
  private taskCounter = 0
  private signatureCounter = 0

  constructor(private readonly defaultTimeline: FakeServer.Timeline) {
    this.defaultSteps = toTimedSteps(defaultTimeline)
  }

  get(sessionId: string): TaskRecord | undefined {
    return this.records.get(sessionId)
  }

  /** Creates a task as its `Accept` step (if any) says, and counts it in flight. */
  create(
    format: Contract.Format,
    request: unknown,
    now: number,
    step: Extract<FakeServer.SubmitStep, { _tag: "Accept" }> | undefined
  ): string {
    let sessionId = step?.sessionId
    if (sessionId === undefined) {
      do sessionId = `task-${++this.taskCounter}`
      while (this.records.has(sessionId))
    }
    const given = this.pending.get(sessionId) ?? step?.timeline
    this.pending.delete(sessionId)
    this.signatureCounter++
    this.records.set(sessionId, {
      task: { sessionId, format, request, createdAt: now, timeline: given ?? this.defaultTimeline },
      steps: given === undefined ? this.defaultSteps : toTimedSteps(given),
      signature: (Math.imul(this.signatureCounter, 2654435761) >>> 0).toString(16).padStart(8, "0"),
      output: step?.output
    })
    this.live.add(sessionId)
    return sessionId
  }

  /** Replaces a task's timeline; for an id not yet created, keeps it for when it is. */
  setTimeline(sessionId: string, timeline: FakeServer.Timeline): void {
    const record = this.records.get(sessionId)
    if (record === undefined) {
      this.pending.set(sessionId, timeline)
      return
    }
    this.records.set(sessionId, { ...record, task: { ...record.task, timeline }, steps: toTimedSteps(timeline) })
  }

  /** Tasks in flight at `now`: created, and not yet `completed` or `failed`. */
  inFlightAt(now: number): number {
    let count = 0
    for (const sessionId of this.live) {
      const record = this.records.get(sessionId)
      const state = record === undefined ? "completed" : stepAt(record, now).underlying.state
      if (state === "completed" || state === "failed") this.live.delete(sessionId)
      else count++
    }
    return count
  }

  all(): ReadonlyArray<FakeServer.FakeTask> {
    return Array.from(this.records.values(), (record) => record.task)
  }
}
