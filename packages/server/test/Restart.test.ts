/**
 * A server on a data directory, killed with SIGKILL in the middle of a conversion and started again
 * on the same folder: the task it was converting answers and completes, and what it had finished
 * (an output, an upload) still downloads. Real processes on real sockets: the deadlines below are
 * upper bounds on waiting for another process, not guesses of a schedule.
 */
import { afterEach, assert, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { fakePdf, raw } from "./utils.js"
import type { RawResponse } from "./utils.js"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const fixture = fileURLToPath(new URL("fixtures/durable-server.ts", import.meta.url))
const key = "restart-test-key"
const bearer = { authorization: `Bearer ${key}` }
const conversionMs = 1500

interface Started {
  readonly child: ChildProcess
  readonly origin: string
  readonly exited: Promise<void>
}

const children = new Set<ChildProcess>()
afterEach(() => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
})

const start = (dataDir: string): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", fixture], {
      cwd: packageDir,
      env: {
        ...process.env,
        TEST_KEY: key,
        TEST_SIGNING_KEY: "restart-test-signing-key",
        TEST_DATA_DIR: dataDir,
        TEST_CONVERSION_MS: String(conversionMs)
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    children.add(child)
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    let out = ""
    let err = ""
    const timer = setTimeout(() => reject(new Error(`the server did not start within 30 s:\n${out}\n${err}`)), 30_000)
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString()
    })
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening (http:\/\/[^\s]+)\/v1/.exec(out)
      if (match !== null) {
        clearTimeout(timer)
        resolve({ child, origin: match[1]!, exited })
      }
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited with ${code} before listening:\n${out}\n${err}`))
    })
  })

const kill = async (server: Started): Promise<void> => {
  server.child.kill("SIGKILL")
  await server.exited
  children.delete(server.child)
}

interface Status {
  readonly state: string
  readonly progress: number
  readonly data?: { readonly downloadURL: string }
}

const status = async (origin: string, format: string, taskId: string): Promise<RawResponse> =>
  raw(origin, { path: `/v1/pdf-transform-${format}/result/${taskId}`, headers: bearer })

/** Polls the task until `done` holds for its status, within `withinMs`. */
const waitFor = async (
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

const submit = async (origin: string, format: string, pdfURL: string): Promise<string> => {
  const response = await raw(origin, {
    method: "POST",
    path: `/v1/pdf-transform-${format}/submit`,
    headers: { ...bearer, "content-type": "application/json" },
    body: JSON.stringify({ pdfURL, model: "gundam" })
  })
  assert.strictEqual(response.status, 200, response.body.toString())
  return (response.json as { sessionID: string }).sessionID
}

/** GET of a URL the server signed, sent to `origin` (the port changes with each start). */
const fetchSigned = (origin: string, url: string) => {
  const parsed = new URL(url)
  return raw(origin, { path: `${parsed.pathname}${parsed.search}` })
}

describe("restart on a data directory", () => {
  it(
    "SIGKILL mid-conversion: the task answers and completes after a restart; outputs and uploads still download",
    async () => {
      const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-restart-"))
      try {
        const first = await start(dataDir)
        const pdf = fakePdf(4096)
        Crypto.randomFillSync(pdf, 16)
        const uploaded = await raw(first.origin, {
          method: "POST",
          path: "/v1/files",
          headers: { ...bearer, "content-type": "application/pdf" },
          body: pdf
        })
        assert.strictEqual(uploaded.status, 201, uploaded.body.toString())
        const fileUrl = (uploaded.json as { url: string }).url

        // A task that finishes before the kill, and its output.
        const finished = await submit(first.origin, "markdown", fileUrl)
        const done = await waitFor(first.origin, "markdown", finished, (s) => s.state === "completed", 20_000)
        const output = await fetchSigned(first.origin, done.data!.downloadURL)
        assert.strictEqual(output.status, 200)
        assert.isAbove(output.body.byteLength, 0)

        // A task killed in the middle of its conversion.
        const killed = await submit(first.origin, "epub", fileUrl)
        await waitFor(first.origin, "epub", killed, (s) => s.state === "processing" && s.progress > 0, 20_000)
        await kill(first)

        const second = await start(dataDir)
        const after = await status(second.origin, "epub", killed)
        assert.strictEqual(after.status, 200, `the task is unknown after the restart: ${after.body.toString()}`)
        assert.strictEqual((after.json as Status).state, "processing")
        const resumed = await waitFor(second.origin, "epub", killed, (s) => s.state !== "processing", 20_000)
        assert.strictEqual(resumed.state, "completed")
        const epub = await fetchSigned(second.origin, resumed.data!.downloadURL)
        assert.strictEqual(epub.status, 200)
        assert.isAbove(epub.body.byteLength, 0)

        // What the first process finished is still there, byte for byte.
        const again = await waitFor(second.origin, "markdown", finished, (s) => s.state === "completed", 5_000)
        const outputAgain = await fetchSigned(second.origin, again.data!.downloadURL)
        assert.strictEqual(outputAgain.status, 200)
        assert.isTrue(outputAgain.body.equals(output.body))
        const file = await fetchSigned(second.origin, fileUrl)
        assert.strictEqual(file.status, 200, file.body.toString())
        assert.isTrue(file.body.equals(Buffer.from(pdf)))

        // A new task on the restarted server converts as before.
        const moved = new URL(fileUrl)
        const fresh = await submit(second.origin, "markdown", `${second.origin}${moved.pathname}${moved.search}`)
        assert.strictEqual(
          (await waitFor(second.origin, "markdown", fresh, (s) => s.state !== "processing", 20_000)).state,
          "completed"
        )
        await kill(second)
      } finally {
        Fs.rmSync(dataDir, { recursive: true, force: true })
      }
    },
    90_000
  )
})
