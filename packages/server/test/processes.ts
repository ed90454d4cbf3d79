/**
 * Servers as their own processes (`fixtures/durable-server.ts`) on real sockets, and the raw
 * requests the restart and cluster tests make of them. The deadlines are upper bounds on waiting
 * for another process, not guesses of a schedule.
 */
import { afterEach, assert } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { raw } from "./utils.js"
import type { RawResponse } from "./utils.js"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const fixture = fileURLToPath(new URL("fixtures/durable-server.ts", import.meta.url))
export const key = "process-test-key"
export const bearer = { authorization: `Bearer ${key}` }

export interface Started {
  readonly child: ChildProcess
  readonly origin: string
  /** Its Prometheus metrics. */
  readonly metrics: string
  /** Its exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>
}

const children = new Set<ChildProcess>()
afterEach(() => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
})

/** Starts a server process with `env` (see the fixture for the variables) and waits until it listens. */
export const start = (env: Record<string, string>): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", fixture], {
      cwd: packageDir,
      env: {
        ...process.env,
        TEST_KEY: key,
        TEST_SIGNING_KEY: "process-test-signing-key",
        ...env
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    children.add(child)
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
    let out = ""
    let err = ""
    const timer = setTimeout(() => reject(new Error(`the server did not start within 90 s:\n${out}\n${err}`)), 90_000)
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString()
    })
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening (http:\/\/[^\s]+)\/v1/.exec(out)
      const metrics = /metrics (http:\/\/[^\s]+)/.exec(out)
      if (match !== null && metrics !== null) {
        clearTimeout(timer)
        resolve({ child, origin: match[1]!, metrics: metrics[1]!, exited })
      }
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited with ${code} before listening:\n${out}\n${err}`))
    })
  })

export const kill = async (server: Started): Promise<void> => {
  server.child.kill("SIGKILL")
  await server.exited
  children.delete(server.child)
}

export interface Status {
  readonly state: string
  readonly progress: number
  readonly data?: { readonly downloadURL: string }
}

export const status = async (origin: string, format: string, taskId: string): Promise<RawResponse> =>
  raw(origin, { path: `/v1/pdf-transform-${format}/result/${taskId}`, headers: bearer })

/** Polls the task until `done` holds for its status, within `withinMs`. */
export const waitFor = async (
  origin: string,
  format: string,
  taskId: string,
  done: (status: Status) => boolean,
  withinMs: number
): Promise<Status> => {
  const deadline = Date.now() + withinMs
  for (;;) {
    const response = await status(origin, format, taskId)
    assert.strictEqual(response.status, 200, response.body.toString())
    const body = response.json as Status
    if (done(body)) return body
    if (Date.now() > deadline) assert.fail(`task ${taskId} still ${JSON.stringify(body)} after ${withinMs} ms`)
    await new Promise((resume) => setTimeout(resume, 50))
  }
}

/** A submit, answered as it comes (200, 429...). */
export const submitRaw = (origin: string, format: string, pdfURL: string): Promise<RawResponse> =>
  raw(origin, {
    method: "POST",
    path: `/v1/pdf-transform-${format}/submit`,
    headers: { ...bearer, "content-type": "application/json" },
    body: JSON.stringify({ pdfURL, model: "gundam" })
  })

/** A submit that must be accepted: its sessionID. */
export const submit = async (origin: string, format: string, pdfURL: string): Promise<string> => {
  const response = await submitRaw(origin, format, pdfURL)
  assert.strictEqual(response.status, 200, response.body.toString())
  return (response.json as { sessionID: string }).sessionID
}

/** GET of a URL a server signed, sent to `origin` (another node, or the same after a restart on another port). */
export const fetchSigned = (origin: string, url: string) => {
  const parsed = new URL(url)
  return raw(origin, { path: `${parsed.pathname}${parsed.search}` })
}
