import { describe, expect, it } from "@effect/vitest"
import type { Duration } from "effect"
import { Clock, Effect, Fiber, Random, TestClock } from "effect"
import * as SimulatedConverter from "../src/SimulatedConverter.js"

const pdf = new TextEncoder().encode("%PDF-1.4\n%%EOF\n")

/** Starts `count` conversions at once and returns how long each one took, in the order they ended. */
const endTimes = (
  converter: ReturnType<typeof SimulatedConverter.make>,
  count: number,
  until: Duration.DurationInput
) =>
  Effect.gen(function*() {
    const start = yield* Clock.currentTimeMillis
    const ended: Array<number> = []
    const fibers = yield* Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) =>
        Effect.fork(
          (i % 2 === 0 ? Effect.asVoid(converter.toMarkdown(pdf)) : Effect.asVoid(converter.toEpub(pdf))).pipe(
            Effect.zipRight(Clock.currentTimeMillis),
            Effect.tap((now) => Effect.sync(() => ended.push(now - start)))
          )
        )
    )
    yield* TestClock.adjust(until)
    yield* Effect.forEach(fibers, Fiber.join)
    return ended
  })

describe("SimulatedConverter durations (TestClock)", () => {
  it.effect("without jitter every conversion takes the configured duration, to the millisecond", () =>
    Effect.gen(function*() {
      const converter = SimulatedConverter.make({ duration: "3 seconds", progressSteps: 6 })
      const ended = yield* endTimes(converter, 20, "10 seconds")
      expect(ended).toHaveLength(20)
      expect(new Set(ended)).toEqual(new Set([3000]))
    }))

  it.effect("with jitter 0.5 durations spread over 1.5-4.5 s, so tasks started together do not end together", () =>
    Effect.gen(function*() {
      const converter = SimulatedConverter.make({ duration: "3 seconds", jitter: 0.5, progressSteps: 2 })
      const ended = yield* endTimes(converter, 100, "10 seconds")
      expect(ended).toHaveLength(100)
      expect(Math.min(...ended)).toBeGreaterThanOrEqual(1500)
      expect(Math.max(...ended)).toBeLessThanOrEqual(4500)
      // A uniform spread: no 100 ms window holds a quarter of the tasks (identical durations would
      // put all of them in one), and both halves of the range are used.
      const perWindow = new Map<number, number>()
      for (const t of ended) perWindow.set(Math.floor(t / 100), (perWindow.get(Math.floor(t / 100)) ?? 0) + 1)
      expect(Math.max(...perWindow.values())).toBeLessThan(25)
      expect(ended.filter((t) => t < 3000).length).toBeGreaterThan(25)
      expect(ended.filter((t) => t > 3000).length).toBeGreaterThan(25)
    }).pipe(Effect.withRandom(Random.make("jitter"))))

  it.effect("jittered durations are reproducible under a seeded Random", () =>
    Effect.gen(function*() {
      // A fresh generator with the same seed for each run.
      const run = Effect.suspend(() =>
        endTimes(SimulatedConverter.make({ duration: "2 seconds", jitter: 0.3 }), 10, "5 seconds").pipe(
          Effect.withRandom(Random.make(42))
        )
      )
      const first = yield* run
      const second = yield* run
      expect(second).toEqual(first)
      expect(new Set(first).size).toBeGreaterThan(1)
    }))

  it.effect("progress is reported evenly over the drawn duration", () =>
    Effect.gen(function*() {
      const converter = SimulatedConverter.make({ duration: "1 second", jitter: 0.5, progressSteps: 4 })
      const reports: Array<readonly [number, number]> = []
      const fiber = yield* Effect.fork(
        converter.toMarkdown(pdf, {
          onProgress: ({ pagesDone }) =>
            Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => reports.push([pagesDone, now])))
        })
      )
      yield* TestClock.adjust("2 seconds")
      const { output } = yield* Fiber.join(fiber)
      expect(reports.map(([page]) => page)).toEqual([1, 2, 3, 4])
      const step = reports[0]![1]
      expect(step).toBeGreaterThanOrEqual(125)
      expect(step).toBeLessThanOrEqual(375)
      reports.forEach(([page, at]) => expect(at).toBeCloseTo(page * step, -1))
      expect(output).toContain(`It took`)
    }).pipe(Effect.withRandom(Random.make("progress"))))
})
