// The forks of Effect primitives the batch keeps, each beside the stock primitive in the same run:
// core's FIFO `Gate` against `Effect.Semaphore` (bench/gate.ts) and the worker pool against
// `Stream.mapEffect` (bench/workers.ts). A fork stays only while it pays (issue 27: at least 25 %
// on a user-facing figure); CI runs this in its quick mode (BENCH_QUICK=1) after every install, so
// an Effect upgrade that closes the gap is seen. It prints; it does not fail on figures.
//
//   pnpm --filter @pdf-transform/stream bench:forks
import { spawnSync } from "node:child_process"
import * as Path from "node:path"
import { bundle, out } from "./processes.mjs"

await Promise.all([bundle("gate"), bundle("workers")])
for (const name of ["gate", "workers"]) {
  const run = spawnSync(process.execPath, [Path.join(out, `${name}.mjs`)], { stdio: "inherit" })
  if (run.status !== 0) throw new Error(`${name} bench exited ${run.status}`)
}
