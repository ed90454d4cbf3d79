/**
 * The offline examples, run as a user runs them (`tsx src/<example>.ts` in a child process): each
 * exits 0 and prints what it promises. The README samples that are tests run on their own; these
 * are the programs.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const examples = fileURLToPath(new URL("..", import.meta.url))
const temporary = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-examples-"))
const started: Array<ChildProcess> = []

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL")
  Fs.rmSync(temporary, { recursive: true, force: true })
})

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const start = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  // `--import tsx` as `tsx` does, resolved from this folder up (the workspace root has it).
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: examples,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  started.push(child)
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
  const ended = new Promise<Ran>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })))
  return { child, ended }
}

const run = (args: ReadonlyArray<string>, env?: Record<string, string>) => start(args, env).ended

const outputOf = (ran: Ran) => `exit ${ran.code}\n${ran.stdout}\n${ran.stderr}`

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = Net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))
      )
    })
  })

describe("the offline examples", () => {
  it("converter-usage (the converter's README sample) converts tracemonkey", async () => {
    const ran = await run(["src/readme/converter-usage.ts"])
    assert.strictEqual(ran.code, 0, outputOf(ran))
    assert.match(ran.stdout, /^14 pages: \d+ characters of Markdown, \d+ bytes of EPUB$/m)
  }, 120_000)

  it("convert-local uploads, converts with progress and writes the output", async () => {
    const out = Path.join(temporary, "local")
    const ran = await run(["src/convert-local.ts", "--out", out])
    assert.strictEqual(ran.code, 0, outputOf(ran))
    assert.match(ran.stdout, /tracemonkey\.pdf: uploaded \d+ bytes as cache:\/\//)
    assert.include(ran.stdout, "tracemonkey.pdf: completed 100%")
    assert.isAbove(Fs.statSync(Path.join(out, "tracemonkey.md")).size, 10_000)
  }, 120_000)

  it("convert-one converts against FakeServer", async () => {
    const ran = await run(["src/convert-one.ts"])
    assert.strictEqual(ran.code, 0, outputOf(ran))
    assert.match(ran.stdout, /^converted task-\d+: "Tracemonkey" \(\d+ characters\)$/m)
  }, 60_000)

  it("batch-folder converts the example folder, and a second run resumes from the journal", async () => {
    const out = Path.join(temporary, "batch")
    const first = await run(["src/batch-folder.ts", "--out", out])
    assert.strictEqual(first.code, 0, outputOf(first))
    const outputs = Fs.readdirSync(out).filter((name) => name.endsWith(".md")).sort()
    assert.deepStrictEqual(outputs, ["pdkids.md", "shared-mime-info-spec.md", "tracemonkey.md"])
    const second = await run(["src/batch-folder.ts", "--out", out])
    assert.strictEqual(second.code, 0, outputOf(second))
    for (const name of outputs) {
      assert.include(second.stdout, `already completed (${Path.join(out, name)})`)
      assert.notInclude(second.stdout, `-> ${Path.join(out, name)}`)
    }
  }, 180_000)

  it("cli-json drives the command through --json", async () => {
    const ran = await run(["src/cli-json.ts"])
    assert.strictEqual(ran.code, 0, outputOf(ran))
    assert.match(ran.stdout, /^3 documents on /m)
    // Its output folder is fixed (examples/out/json): a run after an earlier one finds the
    // outputs in the journal and converts none, so the count may be 0 or 3, the files always 3.
    assert.match(ran.stdout, /^[03] converted, 0 failed; exit code 0$/m)
    const outputs = Fs.readdirSync(Path.join(examples, "out", "json")).filter((name) => name.endsWith(".md")).sort()
    assert.deepStrictEqual(outputs, ["pdkids.md", "shared-mime-info-spec.md", "tracemonkey.md"])
  }, 120_000)

  it("self-host serves the contract until interrupted", async () => {
    const port = await freePort()
    const { child, ended } = start(["src/self-host.ts"], {
      PDF_TRANSFORM_SERVER_KEYS: "example-key",
      PDF_TRANSFORM_SERVER_PORT: String(port),
      PDF_TRANSFORM_SERVER_HOST: "127.0.0.1"
    })
    // A result request without a key: 401 once the server listens.
    let status = 0
    for (let attempt = 0; attempt < 300 && status === 0 && child.exitCode === null; attempt++) {
      status = await fetch(`http://127.0.0.1:${port}/v1/pdf-transform-markdown/result/none`).then(
        (response) => response.status,
        () => new Promise<number>((resolve) => setTimeout(() => resolve(0), 100))
      )
    }
    assert.strictEqual(status, 401)
    child.kill("SIGINT")
    const ran = await ended
    assert.include([0, 130], ran.code, outputOf(ran))
  }, 60_000)
})
