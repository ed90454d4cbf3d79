/**
 * Submits the tasks waiting in the list, one at a time and in order, following the server's hints
 * as core's client does. A 429 proves that no task was created, so that submit is made again after
 * the server's delay (`retryAfterMs`, `Retry-After` or `RateLimit`), or a backoff when it gave
 * none; a wait longer than `maxWaitMs` ends the task as refused instead. A `RateLimit` saying the
 * burst is spent holds the next submit until it comes back, and one saying every slot of the key is
 * taken holds it until one of this browser's tasks ends. A submit with no usable answer is
 * `unknown` and is never made again by the page.
 */
import * as RateLimit from "@pdf-transform/core/RateLimit"
import * as Option from "effect/Option"
import * as Api from "./api.js"
import type { App } from "./app.js"
import { jittered } from "./app.js"
import type { Document, Task } from "./documents.js"

const maxWaitMs = 10 * 60_000
const backoff = { initialMs: 1000, maxMs: 30_000 }
/** Without a task end, a held submit is tried this long after all (its 429 then says how long to wait). */
const slotWaitMs = 5000

export interface Submitter {
  /** Looks for tasks to submit. */
  readonly wake: () => void
  /** One of this browser's tasks ended: a slot of the key is free. */
  readonly slotFreed: () => void
}

export const make = (app: App, submitted: (document: Document, task: Task) => void): Submitter => {
  let running = false
  let notBefore = 0
  let slotsTaken = false
  let interrupt: (() => void) | undefined

  const waitAtMost = (ms: number) =>
    new Promise<void>((resume) => {
      const timer = setTimeout(resume, Math.max(0, ms))
      interrupt = () => {
        clearTimeout(timer)
        resume()
      }
    }).finally(() => {
      interrupt = undefined
    })

  const next = (): { readonly document: Document; readonly task: Task } | undefined => {
    for (const document of app.documents) {
      if (document.owner !== app.settings?.key || document.pdfURL === undefined) continue
      const task = document.tasks.find((task) => task.phase === "queued" || task.phase === "rate-limited")
      if (task !== undefined) return { document, task }
    }
    return undefined
  }

  const rateLimited = (task: Task, outcome: Extract<Api.SubmitOutcome, { _tag: "RateLimited" }>) => {
    task.rateLimited += 1
    const delay = outcome.delayMs ??
      Math.min(backoff.maxMs, jittered(backoff.initialMs * 2 ** Math.min(10, task.rateLimited - 1)))
    const reason = outcome.reason ?? "rate_limited"
    if (delay > maxWaitMs) {
      Object.assign(task, {
        phase: "failed",
        error: `refused (${reason}): the server asks to wait until ${
          new Date(Date.now() + delay).toLocaleString()
        }; no task was created`
      })
      return
    }
    task.phase = "rate-limited"
    task.retryAt = Date.now() + delay
    task.error = `429 ${reason}`
    // The gate is the key's, not the task's: every submit waits.
    notBefore = Math.max(notBefore, task.retryAt)
  }

  const submit = async (key: string, document: Document, task: Task, pdfURL: string) => {
    task.phase = "submitting"
    app.changed()
    const filename = document.name.replace(/\.pdf$/i, "").slice(0, 255)
    const outcome = await Api.submit(key, task.format, {
      pdfURL,
      model: "gundam",
      ...(filename === "" ? {} : { filename })
    })
    switch (outcome._tag) {
      case "Submitted": {
        Object.assign(task, { phase: "processing", sessionID: outcome.sessionID, submittedAt: Date.now(), progress: 0 })
        delete task.retryAt
        delete task.error
        const reset = RateLimit.resetDelay(outcome.rateLimit)
        if (Option.isSome(reset)) notBefore = Date.now() + reset.value
        slotsTaken = Option.getOrUndefined(RateLimit.concurrencyRemaining(outcome.rateLimit)) === 0
        submitted(document, task)
        break
      }
      case "RateLimited":
        rateLimited(task, outcome)
        break
      case "Unauthenticated":
        task.phase = "queued"
        app.refused(outcome.message)
        break
      case "Unknown":
        Object.assign(task, { phase: "unknown", error: `${outcome.reason}: the task may or may not exist` })
        break
      case "Refused":
        Object.assign(task, { phase: "failed", error: `refused: ${outcome.message}` })
        break
    }
    app.changed()
  }

  const pump = async () => {
    if (running) return
    running = true
    try {
      for (;;) {
        const key = app.key
        const found = next()
        if (key === undefined || found === undefined) return
        const { document, task } = found
        const wait = Math.max(notBefore, task.retryAt ?? 0) - Date.now()
        if (wait > 0) {
          await waitAtMost(wait)
          continue
        }
        if (slotsTaken) {
          slotsTaken = false
          await waitAtMost(slotWaitMs)
          continue
        }
        await submit(key, document, task, document.pdfURL!)
      }
    } finally {
      running = false
    }
  }

  return {
    wake: () => {
      // A running pump finds new tasks by itself once its wait is over.
      if (!running) void pump()
    },
    slotFreed: () => {
      slotsTaken = false
      interrupt?.()
    }
  }
}
