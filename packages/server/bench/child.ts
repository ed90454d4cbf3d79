/**
 * A bench server in a process of its own (bench/server.ts, bundled by bench/bundle.ts), and what
 * /proc says of it: its RSS, and the CPU time of its main thread alone (the conversion worker
 * threads, niced, take whatever the main thread leaves; their time says nothing of a request's cost).
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"

export interface Announced {
  readonly baseUrl: string
  readonly live: boolean
  readonly metricsUrl?: string
}

export interface BenchServer {
  readonly pid: number
  readonly announced: Announced
  /** SIGTERM, then SIGKILL if it has not exited in `graceMs`; resolves once it has exited. */
  readonly stop: (graceMs: number) => Promise<void>
}

export const rssOf = (pid: number): number | undefined => {
  try {
    const status = Fs.readFileSync(`/proc/${pid}/status`, "utf8")
    const match = /VmRSS:\s+(\d+) kB/.exec(status)
    return match === null ? undefined : Number(match[1]) * 1024
  } catch {
    return undefined
  }
}

const ticksPerSecond = 100

const cpuOfStat = (path: string): number => {
  const fields = Fs.readFileSync(path, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
}

/** CPU seconds (user and system): the main thread's, and the whole process's. */
export const cpuOf = (pid: number): { readonly main: number; readonly process: number } => ({
  main: cpuOfStat(`/proc/${pid}/task/${pid}/stat`),
  process: cpuOfStat(`/proc/${pid}/stat`)
})

export const start = (entry: ReadonlyArray<string>, env: Record<string, string>): Promise<BenchServer> => {
  const child = ChildProcess.spawn(
    process.execPath,
    [
      ...(process.env["BENCH_PROFILE"] === "1" ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []),
      ...(process.env["BENCH_SERVER_FLAGS"] ?? "").split(" ").filter((flag) => flag !== ""),
      ...entry
    ],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] }
  )
  const kill = () => child.kill("SIGKILL")
  process.on("exit", kill)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async (graceMs: number) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM")
      const timer = setTimeout(kill, graceMs)
      await exited
      clearTimeout(timer)
    }
    process.off("exit", kill)
  }
  return new Promise<BenchServer>((resolve, reject) => {
    let buffer = ""
    let announced = false
    // Read to the end: a server whose stdout is closed under it fails its next log line with EPIPE.
    child.stdout.on("data", (chunk: Buffer) => {
      if (announced || process.env["BENCH_SERVER_FLAGS"] !== undefined) process.stderr.write(chunk)
      if (announced) return
      buffer += chunk.toString()
      const line = buffer.split("\n").find((l) => l.startsWith("{"))
      if (line !== undefined) {
        announced = true
        resolve({ pid: child.pid!, announced: JSON.parse(line) as Announced, stop })
      }
    })
    child.once("exit", (code) => {
      if (!announced) reject(new Error(`server exited with ${code}`))
    })
    setTimeout(() => {
      if (!announced) {
        kill()
        reject(new Error("server did not start in 30 s"))
      }
    }, 30_000).unref()
  })
}
