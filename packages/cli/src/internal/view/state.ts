/** What the live view knows of a batch, folded from its events: pure, so it is tested without a terminal. */
import type { BatchEvent } from "@pdf-transform/stream/BatchEvent"

export type Phase = "uploading" | "submitted" | "converting"

/** A document uploading, or between its submit and its end (one uploaded and waiting for a slot is queued). */
export interface Running {
  readonly index: number
  readonly name: string
  readonly phase: Phase
  readonly progress: number | undefined
  /** When it started running, in epoch milliseconds. */
  readonly since: number
  /** Its task was submitted by an earlier run and is followed again. */
  readonly resumed: boolean
}

export interface State {
  readonly startedAt: number
  /** Jobs in the batch, when known up front. */
  readonly total: number
  /** Seen, not yet running, not yet ended. */
  readonly queued: number
  readonly running: ReadonlyMap<number, Running>
  /** Converted now, or by an earlier run. */
  readonly done: number
  /** Failed, ambiguous, or failed in an earlier run. */
  readonly failed: number
  /** Not started because the batch stopped. */
  readonly notStarted: number
  /** Converted by this run: the rate counts only these. */
  readonly convertedNow: number
  /** When this run first started a document (the rate's origin). */
  readonly firstStartAt: number | undefined
  /** Why no new documents start any more, once that is so. */
  readonly stopping: string | undefined
  /** The service cannot be reached now: why, and when the next try is (epoch ms), when known. */
  readonly unreachable: { readonly reason: string; readonly retryAt: number | undefined } | undefined
}

export const initial = (total: number, now: number): State => ({
  startedAt: now,
  total,
  queued: 0,
  running: new Map(),
  done: 0,
  failed: 0,
  notStarted: 0,
  convertedNow: 0,
  firstStartAt: undefined,
  stopping: undefined,
  unreachable: undefined
})

const start = (
  state: State,
  index: number,
  name: string,
  now: number,
  change: { readonly phase: Phase; readonly resumed?: boolean; readonly progress?: number | undefined }
): State => {
  const previous = state.running.get(index)
  const running = new Map(state.running)
  const resumed = change.resumed === true
  running.set(index, {
    index,
    name,
    phase: change.phase,
    progress: change.progress ?? previous?.progress,
    since: previous?.since ?? now,
    resumed: resumed || previous?.resumed === true
  })
  return {
    ...state,
    running,
    queued: previous === undefined ? Math.max(0, state.queued - 1) : state.queued,
    firstStartAt: state.firstStartAt ?? now
  }
}

/** A document that finished its upload waits for a conversion slot: queued again. */
const requeue = (state: State, index: number): State => {
  if (!state.running.has(index)) return state
  const running = new Map(state.running)
  running.delete(index)
  return { ...state, running, queued: state.queued + 1 }
}

const end = (state: State, index: number, outcome: "done" | "failed" | "notStarted", converted: boolean): State => {
  const wasRunning = state.running.has(index)
  const running = new Map(state.running)
  running.delete(index)
  return {
    ...state,
    running,
    queued: wasRunning ? state.queued : Math.max(0, state.queued - 1),
    done: state.done + (outcome === "done" ? 1 : 0),
    failed: state.failed + (outcome === "failed" ? 1 : 0),
    notStarted: state.notStarted + (outcome === "notStarted" ? 1 : 0),
    convertedNow: state.convertedNow + (converted ? 1 : 0)
  }
}

export const update = (state: State, event: BatchEvent, now: number): State => {
  switch (event._tag) {
    case "Queued":
      return { ...state, queued: state.queued + 1 }
    case "Uploading":
      return start(state, event.job.index, event.job.name, now, {
        phase: "uploading",
        progress: event.total > 0 ? (event.sent / event.total) * 100 : undefined
      })
    case "Uploaded":
      return requeue(state, event.job.index)
    case "Submitted":
      return start(state, event.job.index, event.job.name, now, { phase: "submitted", resumed: event.resumed })
    case "Progress":
      return start(state, event.job.index, event.job.name, now, { phase: "converting", progress: event.progress })
    case "Completed":
      return end(state, event.job.index, "done", true)
    case "Skipped":
      return end(state, event.job.index, event.previous === "failed" ? "failed" : "done", false)
    case "Failed":
    case "Ambiguous":
      return end(state, event.job.index, "failed", false)
    case "NotAttempted":
      return end(state, event.job.index, "notStarted", false)
    case "Stopped":
      return { ...state, stopping: state.stopping ?? event.reason }
    case "ServiceUnreachable":
      return {
        ...state,
        unreachable: {
          reason: event.error.reason,
          retryAt: event.retryInMs === undefined ? state.unreachable?.retryAt : now + event.retryInMs
        }
      }
    case "ServiceReachable":
      return { ...state, unreachable: undefined }
    case "JournalProblem":
      return state
  }
}

export const ended = (state: State): number => state.done + state.failed + state.notStarted

/** Documents per second converted by this run, once one has been. */
export const rate = (state: State, now: number): number | undefined => {
  if (state.convertedNow === 0 || state.firstStartAt === undefined) return undefined
  const seconds = (now - state.firstStartAt) / 1_000
  return seconds > 0 ? state.convertedNow / seconds : undefined
}

/** Milliseconds until the documents left are done, at the rate so far. */
export const eta = (state: State, now: number): number | undefined => {
  const perSecond = rate(state, now)
  const left = state.total - ended(state)
  return perSecond === undefined ? undefined : (left / perSecond) * 1_000
}
