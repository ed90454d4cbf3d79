/**
 * The loopback benchmark (issue 15): a contract-shaped peer on 127.0.0.1 in its own process, and
 * each client in its own process, measured alike: the hand-written fetch + setTimeout loop (the
 * baseline), ours over FetchHttpClient and over NodeHttpClient.layerUndici (the recommended layer).
 * Same N, concurrency,
 * task time and polling for all. Prints CPU per task, peak RSS, result GETs per task and wall time,
 * each of ours as a ratio to the baseline, for each round.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as path from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
const tasks = Number(process.env["BENCH_TASKS"] ?? 1000)
const concurrency = Number(process.env["BENCH_CONCURRENCY"] ?? 64)
const taskMs = Number(process.env["BENCH_TASK_MS"] ?? 500)
const pollMs = Number(process.env["BENCH_POLL_MS"] ?? 50)
const rounds = Number(process.env["BENCH_ROUNDS"] ?? 2)
/** Only the loop and the clients whose file name contains this (for quick comparisons). */
const only = process.env["BENCH_ONLY"]

const clients = [
  { name: "fetch + setTimeout loop", file: "loop.mjs", args: [] },
  { name: "ours, FetchHttpClient", file: "client-fetch.mjs", args: [] },
  { name: "ours, NodeHttpClient.layerUndici (recommended)", file: "client-undici.mjs", args: [] }
].filter((client, i) => i === 0 || only === undefined || client.file.includes(only))

interface Measured {
  readonly cpuMs: number
  readonly wallMs: number
  readonly peakRssMb: number
}

/** The lines a child writes, one at a time; a child that exits before its next line fails the run. */
const lines = (child: ChildProcess, name: string) => {
  const queue: Array<string> = []
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = []
  let exited: Error | undefined
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const next = waiting.shift()
    if (next) next.resolve(line)
    else queue.push(line)
  })
  child.on("exit", (code) => {
    exited = new Error(`${name} exited (${code})`)
    for (const next of waiting.splice(0)) next.reject(exited)
  })
  return () =>
    new Promise<string>((resolve, reject) => {
      const line = queue.shift()
      if (line !== undefined) resolve(line)
      else if (exited) reject(exited)
      else waiting.push({ resolve, reject })
    })
}

const start = (file: string, args: ReadonlyArray<string>) =>
  spawn(process.execPath, [path.join(here, file), ...args], {
    env: { ...process.env, BENCH_TASKS: String(tasks), BENCH_CONCURRENCY: String(concurrency) },
    stdio: ["pipe", "pipe", "inherit"]
  })

const main = async () => {
  const peer = start("peer.mjs", [])
  const { port } = JSON.parse(await lines(peer, "the peer")()) as { port: number }
  const base = `http://127.0.0.1:${port}`
  const ideal = (tasks / concurrency) * taskMs
  console.log(
    `loopback: ${tasks} conversions, ${concurrency} at a time, tasks of ${taskMs} ms with linear progress, ` +
      `polling from ${pollMs} ms, each result downloaded; ideal wall ${(ideal / 1000).toFixed(1)} s`
  )
  /** Every round's figures, by client, for the totals after the last round. */
  const all = new Map<string, Array<Measured>>()
  for (let round = 1; round <= rounds; round++) {
    const results: Array<{ name: string; measured: Measured; gets: number; detected: number }> = []
    for (const client of clients) {
      const child = start(client.file, [base, ...client.args])
      const next = lines(child, client.name)
      if ((await next()) !== "warm") throw new Error(`${client.name} did not warm up`)
      await fetch(`${base}/stats/reset`, { method: "POST" })
      child.stdin!.write("go\n")
      const measured = JSON.parse(await next()) as Measured
      const stats = (await (await fetch(`${base}/stats`)).json()) as {
        resultGets: number
        downloads: number
        detectedMs: number
      }
      if (stats.downloads !== tasks) throw new Error(`${client.name}: ${stats.downloads} downloads of ${tasks}`)
      results.push({ name: client.name, measured, gets: stats.resultGets / tasks, detected: stats.detectedMs / tasks })
      all.set(client.name, [...(all.get(client.name) ?? []), measured])
      child.stdin!.end()
    }
    const baseline = results[0]!.measured
    console.log(`\nround ${round}`)
    console.log(
      "| client | CPU per task | peak RSS | result GETs per task | completion seen after | wall | CPU vs loop | RSS vs loop | wall vs loop |"
    )
    console.log("|---|---|---|---|---|---|---|---|---|")
    for (const { detected, gets, measured, name } of results) {
      const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`
      console.log(
        `| ${name} | ${(measured.cpuMs / tasks).toFixed(2)} ms | ${measured.peakRssMb.toFixed(0)} MB | ${
          gets.toFixed(1)
        } | ${detected.toFixed(0)} ms | ${(measured.wallMs / 1000).toFixed(1)} s | ${
          ratio(measured.cpuMs, baseline.cpuMs)
        } | ${ratio(measured.peakRssMb, baseline.peakRssMb)} | ${ratio(measured.wallMs, baseline.wallMs)} |`
      )
    }
  }
  // One round's ratios move with the baseline's own spread (its CPU per task varies by a tenth
  // from round to round): the totals over every round compare the same work, done as often.
  if (rounds > 1) {
    const sum = (runs: ReadonlyArray<Measured>, key: "cpuMs" | "wallMs") => runs.reduce((total, m) => total + m[key], 0)
    const loop = all.get(clients[0]!.name)!
    console.log(`\nall ${rounds} rounds: totals against the loop's`)
    console.log("| client | CPU | wall | peak RSS, highest round against highest |")
    console.log("|---|---|---|---|")
    for (const [name, runs] of all) {
      const peak = (ms: ReadonlyArray<Measured>) => Math.max(...ms.map((m) => m.peakRssMb))
      console.log(
        `| ${name} | ${(sum(runs, "cpuMs") / sum(loop, "cpuMs")).toFixed(2)}x | ${
          (sum(runs, "wallMs") / sum(loop, "wallMs")).toFixed(2)
        }x | ${(peak(runs) / peak(loop)).toFixed(2)}x |`
      )
    }
  }
  peer.stdin!.end()
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
