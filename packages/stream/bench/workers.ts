/**
 * The batch's worker pool (`internal/workers.ts`) against the stock way to run an effect per stream
 * element, `Stream.mapEffect(..., { concurrency, unordered: true })` over `Stream.zipWithIndex`:
 * the same elements, the same work per element, as many at once as the batch pulls ahead (146 for
 * a bound of 64). CPU time of the whole run; the second of two rounds is printed (the first warms
 * the JIT). The user-facing figure is the batch bench's CPU per job (`pnpm bench`); this one runs
 * in CI's quick mode so that an Effect upgrade that makes the stock way cheap enough shows.
 *
 *   BENCH_QUICK=1 for CI (fewer elements).
 */
import { Effect, Stream } from "effect"
import * as Workers from "../src/internal/workers.js"

const quick = process.env["BENCH_QUICK"] === "1"
const elements = quick ? 5_000 : 20_000
const concurrency = 146

/** An element's work: a few turns of the scheduler, as a job's requests would take. */
const work = (_element: number, _index: number) => Effect.repeatN(Effect.yieldNow(), 3)

const input = Stream.range(1, elements)

const cpuMs = async (run: Effect.Effect<void>) => {
  const before = process.cpuUsage()
  await Effect.runPromise(run)
  const cpu = process.cpuUsage(before)
  return (cpu.user + cpu.system) / 1000
}

let stockMs = 0
let oursMs = 0
for (let round = 0; round < 2; round++) {
  stockMs = await cpuMs(
    Stream.runDrain(
      Stream.mapEffect(Stream.zipWithIndex(input), ([element, index]) => work(element, index), {
        concurrency,
        unordered: true
      })
    )
  )
  oursMs = await cpuMs(Workers.forEach(input, concurrency, work))
}
console.log(
  `${elements} elements, ${concurrency} at once: Stream.mapEffect (unordered) ${stockMs.toFixed(0)} ms CPU, ` +
    `Workers.forEach ${oursMs.toFixed(0)} ms CPU (${(stockMs / oursMs).toFixed(1)}x)`
)
