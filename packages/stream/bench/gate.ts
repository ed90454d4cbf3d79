/**
 * The concurrency gate's cost with many waiters: core's FIFO `Gate` against Effect's `Semaphore`
 * through 16 permits: 10,000 jobs with as many waiting as the batch pulls ahead (134 for a bound
 * of 64), and 2,000 jobs all waiting at once, as a pipeline without a pull bound would queue them
 * (with 10,000 of those the Semaphore ran out of a 4 GB heap after 400 s here). CPU time of the
 * whole run; the second of two rounds is printed (the first warms the JIT). BENCH_QUICK=1 (CI) runs
 * 2,000 jobs with 134 waiting and 500 all waiting.
 */
import { Effect } from "effect"
import * as Gate from "../src/internal/gate.js"

const permits = 16

/** A job's work while it holds its permit: a few turns of the scheduler. */
const work = Effect.repeatN(Effect.yieldNow(), 3)

const measure = async (
  withPermit: (self: Effect.Effect<void>) => Effect.Effect<void>,
  jobs: number,
  waiting: number
) => {
  const before = process.cpuUsage()
  await Effect.runPromise(
    Effect.forEach(Array.from({ length: jobs }), () => withPermit(work), {
      concurrency: permits + waiting,
      discard: true
    })
  )
  const cpu = process.cpuUsage(before)
  return (cpu.user + cpu.system) / 1000
}

const quick = process.env["BENCH_QUICK"] === "1"
const cases: ReadonlyArray<readonly [number, number]> = quick ?
  [[2_000, 134], [500, 500]] :
  [[10_000, 134], [2_000, 2_000]]

for (const [jobs, waiting] of cases) {
  let semaphoreMs = 0
  let gateMs = 0
  for (let round = 0; round < 2; round++) {
    const semaphore = Effect.runSync(Effect.makeSemaphore(permits))
    semaphoreMs = await measure(semaphore.withPermits(1), jobs, waiting)
    const gate = Gate.make(permits)
    gateMs = await measure((self) => gate.withPermit(self), jobs, waiting)
  }
  console.log(
    `${jobs} jobs, ${permits} permits, ${waiting} waiting: Effect.Semaphore ${semaphoreMs.toFixed(0)} ms CPU, ` +
      `core Gate ${gateMs.toFixed(0)} ms CPU (${(semaphoreMs / gateMs).toFixed(1)}x)`
  )
}
