/**
 * What every client process of the loopback benchmark measures, the same way for all: a warm-up
 * batch (not measured), then N conversions at the given concurrency; CPU time of this process
 * (`process.cpuUsage`), wall time, and peak RSS (`maxRSS`, the whole life of the process).
 */
export const measure = (run: (count: number, concurrency: number) => Promise<void>) => {
  const tasks = Number(process.env["BENCH_TASKS"] ?? 1000)
  const concurrency = Number(process.env["BENCH_CONCURRENCY"] ?? 64)
  const warmup = Number(process.env["BENCH_WARMUP"] ?? 128)
  const main = async () => {
    await run(warmup, concurrency)
    process.stdout.write("warm\n")
    // The runner resets the peer's counters between the warm-up and the measured batch.
    await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()))
    const cpu = process.cpuUsage()
    const start = performance.now()
    await run(tasks, concurrency)
    const used = process.cpuUsage(cpu)
    const result = {
      cpuMs: (used.user + used.system) / 1000,
      wallMs: performance.now() - start,
      peakRssMb: process.resourceUsage().maxRSS / 1024
    }
    process.stdout.write(`${JSON.stringify(result)}\n`)
    process.exit(0)
  }
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`)
    process.exit(1)
  })
}
