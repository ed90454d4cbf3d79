/**
 * `Polling.progressAware`, stepped by hand: a task of 500 ms whose server reports progress in whole
 * points (rounded down), polled by a client that may read each answer late. Each test follows the
 * polls until one finds the task done and checks when that was.
 */
import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Schedule } from "effect"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as ScheduleIntervals from "effect/ScheduleIntervals"
import * as Polling from "../src/Polling.js"

const taskMs = 500
/** What the server answers to a poll it reads at `t` ms after the task began. */
const progressAt = (t: number) => Math.floor((100 * Math.max(0, t)) / taskMs)

interface Client {
  /** When the task began on the server, relative to the client's `startedAt` (0). */
  readonly startOffset?: number
  /** How long after sending a poll the client gets to its answer. */
  readonly readLag?: number
  /** Whether each input says when its poll was sent. */
  readonly tellsAskedAt: boolean
}

/** The times the polls were sent, the last of them the one that found the task done. */
const polls = (options: Polling.ProgressAwareOptions, client: Client) =>
  Effect.gen(function*() {
    const schedule = Polling.progressAware(Schedule.spaced("50 millis"), options)
    const start = client.startOffset ?? 0
    const lag = client.readLag ?? 0
    let state = schedule.initial
    let asked = 0
    const sent: Array<number> = []
    while (sent.length < 50) {
      sent.push(asked)
      if (asked - start >= taskMs) return sent
      const now = asked + lag
      const input = { progress: progressAt(asked - start), ...(client.tellsAskedAt ? { askedAt: asked } : {}) }
      const [next, , decision] = yield* schedule.step(now, input, state)
      state = next
      if (ScheduleDecision.isDone(decision)) return sent
      asked = ScheduleIntervals.start(decision.intervals)
    }
    return sent
  })

describe("Polling.progressAware", () => {
  it.effect("exact start, prompt answers: the poll after completion comes within its margin", () =>
    Effect.gen(function*() {
      const sent = yield* polls({ min: Duration.millis(50), max: Duration.seconds(10), startedAt: 0 }, {
        tellsAskedAt: true
      })
      const found = sent[sent.length - 1]!
      assert.isAtLeast(found, taskMs)
      assert.isAtMost(found, taskMs + 10, sent.join(","))
    }))

  it.effect("answers read late: the estimate allows for when the server read them", () =>
    Effect.gen(function*() {
      // Each answer is read 60 ms after its poll: taken as read then, a 22 at 110 ms puts the
      // completion at 739-772 ms and the first poll after it comes at 780.
      const blind = yield* polls({ min: Duration.millis(50), max: Duration.seconds(10), startedAt: 0 }, {
        readLag: 60,
        tellsAskedAt: false
      })
      const told = yield* polls({ min: Duration.millis(50), max: Duration.seconds(10), startedAt: 0 }, {
        readLag: 60,
        tellsAskedAt: true
      })
      assert.isAbove(blind[blind.length - 1]!, 700, blind.join(","))
      assert.isAtMost(told[told.length - 1]!, 630, told.join(","))
      assert.isAtMost(told.length, blind.length + 1)
    }))

  it.effect("a start known only within the submit's round trip: the window allows for all of it", () =>
    Effect.gen(function*() {
      // The task began 30 ms before the client's estimate of its start (the middle of a submit of
      // 60 ms round trip), so it looks faster than it is. Taken as exact, that start puts the
      // poll inside the window too early, twice (found 43 ms after the completion); allowed for,
      // the window holds the completion and the poll after the one inside it finds the task done.
      const options = { min: Duration.millis(50), max: Duration.seconds(10), startedAt: 0 }
      const exact = yield* polls(options, { startOffset: -30, tellsAskedAt: true })
      const within = yield* polls(
        { ...options, startedWithin: Duration.millis(30) },
        { startOffset: -30, tellsAskedAt: true }
      )
      assert.isAtMost(within[within.length - 1]! + 30, taskMs + 15, within.join(","))
      assert.isBelow(within.length, exact.length, `${within.join(",")} against ${exact.join(",")}`)
    }))
})
