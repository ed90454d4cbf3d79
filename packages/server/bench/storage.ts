/**
 * What the server's storage costs a client, in one run, each store in a server process of its own
 * (bench/server.ts, simulated conversions of 1.5-4.5 s, 8 at a time, limits off), loopback only:
 *
 * - submit throughput: BENCH_SUBMITS (default 3000) submits over 32 keep-alive connections;
 * - result GETs: 32 connections polling random tasks of those for BENCH_SECONDS (default 10): p50, p99.
 *
 * Stores: SQLite in memory (the reference: what `Server.layer` keeps without a data folder), SQLite
 * on disk (a data folder: the CLI's default), and PostgreSQL (a throwaway server of the bench's
 * own, as the cluster test starts it; PDF_TRANSFORM_TEST_PG_URL to use another; BENCH_PG=0 skips it).
 * BENCH_SERVER_FLAGS passes Node flags to the servers (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 *
 *   pnpm --filter @pdf-transform/server bench:storage
 */
import * as ChildProcess from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { startPostgres } from "../test/fixtures/postgres.js"
import { serverEntry } from "./bundle.js"
import { Connection } from "./connection.js"

/** The server as users run it, bundled (bench/bundle.ts). */
const entry = await serverEntry()

const submits = Number(process.env["BENCH_SUBMITS"] ?? 3000)
const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const connections = 32

interface Row {
  readonly store: string
  readonly submitsPerSecond: number
  readonly resultGets: number
  readonly p50Ms: number
  readonly p99Ms: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

const startServer = (env: Record<string, string>, key: string) =>
  new Promise<{ readonly child: ChildProcess.ChildProcess; readonly host: string; readonly port: number }>(
    (resolve, reject) => {
      const child = ChildProcess.spawn(process.execPath, [
        ...(process.env["BENCH_SERVER_FLAGS"] ?? "").split(" ").filter((flag) => flag !== ""),
        ...entry
      ], {
        env: {
          ...process.env,
          ...env,
          BENCH_KEY: key,
          BENCH_LIVE: "0",
          BENCH_RETENTION: "10 minutes",
          // A node's slots, as on a real server: the other tasks wait in the store's queue.
          BENCH_MAX_CONCURRENT: "8"
        },
        stdio: ["ignore", "pipe", "inherit"]
      })
      let buffer = ""
      child.stdout!.on("data", (chunk: Buffer) => {
        buffer += chunk.toString()
        const line = buffer.split("\n").find((l) => l.startsWith("{"))
        if (line !== undefined) {
          const base = new URL((JSON.parse(line) as { baseUrl: string }).baseUrl)
          resolve({ child, host: base.hostname, port: Number(base.port) })
        }
      })
      child.on("exit", (code) => reject(new Error(`server exited with ${code}`)))
      setTimeout(() => reject(new Error("server did not start in 30 s")), 30_000).unref()
    }
  )

const measure = async (store: string, env: Record<string, string>): Promise<Row> => {
  const key = Crypto.randomBytes(16).toString("hex")
  const server = await startServer(env, key)
  try {
    const pool = Array.from(
      { length: connections },
      () => new Connection(server.host, server.port, `authorization: Bearer ${key}\r\n`)
    )
    const uploaded = await pool[0]!.request(
      "POST",
      "/v1/files",
      new TextEncoder().encode("%PDF-1.4\n% simulated\n%%EOF\n"),
      "application/pdf"
    )
    if (uploaded.status !== 201) throw new Error(`upload: HTTP ${uploaded.status} ${uploaded.body}`)
    const body = JSON.stringify({ pdfURL: (JSON.parse(uploaded.body) as { url: string }).url, model: "gundam" })

    const ids: Array<string> = []
    let next = 0
    const submitStart = performance.now()
    await Promise.all(pool.map(async (connection) => {
      while (next < submits) {
        next++
        const answer = await connection.request("POST", "/v1/pdf-transform-markdown/submit", body)
        if (answer.status !== 200) throw new Error(`submit: HTTP ${answer.status} ${answer.body}`)
        ids.push((JSON.parse(answer.body) as { sessionID: string }).sessionID)
      }
    }))
    const submitSeconds = (performance.now() - submitStart) / 1000

    const latencies: Array<number> = []
    const end = performance.now() + seconds * 1000
    await Promise.all(pool.map(async (connection) => {
      while (performance.now() < end) {
        const id = ids[Math.floor(Math.random() * ids.length)]!
        const sent = performance.now()
        const answer = await connection.request("GET", `/v1/pdf-transform-markdown/result/${id}`)
        latencies.push(performance.now() - sent)
        if (answer.status !== 200) {
          throw new Error(
            `result of ${id} after ${
              ((performance.now() - submitStart) / 1000).toFixed(1)
            } s: HTTP ${answer.status} ${answer.body}`
          )
        }
      }
    }))
    for (const connection of pool) connection.close()
    latencies.sort((a, b) => a - b)
    return {
      store,
      submitsPerSecond: Math.round(submits / submitSeconds),
      resultGets: latencies.length,
      p50Ms: Number(percentile(latencies, 50).toFixed(2)),
      p99Ms: Number(percentile(latencies, 99).toFixed(2))
    }
  } finally {
    server.child.kill("SIGTERM")
  }
}

const main = async () => {
  const rows: Array<Row> = []
  rows.push(await measure("SQLite in memory (reference)", {}))
  const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-bench-store-"))
  try {
    rows.push(await measure("SQLite on disk (data folder)", { BENCH_DATA_DIR: dataDir }))
  } finally {
    Fs.rmSync(dataDir, { recursive: true, force: true })
  }
  if (process.env["BENCH_PG"] !== "0") {
    const postgres = await startPostgres()
    try {
      rows.push(await measure("PostgreSQL (one node)", { BENCH_DATABASE_URL: postgres.createDatabase() }))
    } finally {
      postgres.stop()
    }
  }
  const reference = rows[0]!
  console.log(
    `${submits} submits over ${connections} connections, then result GETs for ${seconds} s (${Os.cpus().length} cores)`
  )
  console.log("store                          submits/s  result GETs   p50 ms   p99 ms   p99 vs reference")
  for (const row of rows) {
    console.log(
      `${row.store.padEnd(30)} ${String(row.submitsPerSecond).padStart(9)}  ${String(row.resultGets).padStart(11)}  ${
        row.p50Ms.toFixed(2).padStart(7)
      }  ${row.p99Ms.toFixed(2).padStart(7)}   ${(row.p99Ms / reference.p99Ms).toFixed(2)}x`
    )
  }
  console.log(JSON.stringify({ rows }))
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error)
  process.exit(1)
})
