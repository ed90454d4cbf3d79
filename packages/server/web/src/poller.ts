/**
 * Polls each processing task of this browser until it ends: every second at first, then half as
 * long again each time up to five seconds, jittered. A failed poll (no answer, a 5xx, a 429) only
 * delays the next one; a 404 means the server no longer knows the task.
 */
import * as Api from "./api.js"
import type { App } from "./app.js"
import { jittered } from "./app.js"
import type { Task } from "./documents.js"

const schedule = { initialMs: 1000, factor: 1.5, maxMs: 5000 }

export interface Poller {
  readonly watch: (task: Task) => void
  readonly stopAll: () => void
}

export const make = (app: App, ended: (task: Task) => void): Poller => {
  const timers = new Map<Task, ReturnType<typeof setTimeout>>()

  const end = (task: Task, fields: Partial<Task>) => {
    Object.assign(task, fields, { endedAt: Date.now() })
    timers.delete(task)
    app.changed()
    ended(task)
  }

  const poll = async (task: Task, attempt: number) => {
    timers.delete(task)
    const key = app.key
    if (key === undefined || task.sessionID === undefined || task.phase !== "processing") return
    const outcome = await Api.result(key, task.format, task.sessionID)
    switch (outcome._tag) {
      case "Status": {
        const { status } = outcome
        if (status.state === "completed") return end(task, { phase: "completed", progress: 100 })
        if (status.state === "failed") {
          return end(task, { phase: "failed", error: status.error === "" ? "no details" : status.error })
        }
        const progress = status.progress ?? 0
        if (progress > task.progress) {
          task.progress = progress
          app.changed()
        }
        break
      }
      case "NotFound":
        return end(task, { phase: "gone", error: "the server no longer knows this task (expired, or restarted)" })
      case "Unauthenticated":
        return app.refused(outcome.message)
      case "Transient":
        break
    }
    later(task, attempt + 1)
  }

  const later = (task: Task, attempt: number) => {
    const delay = Math.min(schedule.maxMs, schedule.initialMs * schedule.factor ** attempt)
    timers.set(task, setTimeout(() => void poll(task, attempt), jittered(delay)))
  }

  return {
    watch: (task) => {
      if (!timers.has(task)) later(task, 0)
    },
    stopAll: () => {
      for (const timer of timers.values()) clearTimeout(timer)
      timers.clear()
    }
  }
}
