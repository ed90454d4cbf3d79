/**
 * The command as a child process (no terminal): run it to its end, or start it and read its
 * output as it comes; `serve` in the background; a proxy in front of a server that counts submits.
 * Every process and server started here ends when the test's cleanup runs.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

export const bin = fileURLToPath(new URL("../../bin/pdf-transform.mjs", import.meta.url))
export const repository = fileURLToPath(new URL("../../../../", import.meta.url))

/** The environment of the tests' processes: none of the caller's pdf-transform settings leak in. */
export const environment = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("PDF_TRANSFORM_")) env[name] = value
  }
  return { ...env, NO_COLOR: "1", ...extra }
}

export interface Running {
  readonly child: ChildProcess
  /** Everything written to stdout so far. */
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  readonly exited: Promise<number | string>
  /** Resolves when stdout matches, rejects after `timeoutMs` or if the process ends first. */
  readonly waitFor: (pattern: RegExp, timeoutMs: number) => Promise<RegExpMatchArray>
}

/** The processes still running, each with its end. */
const children = new Map<ChildProcess, Promise<unknown>>()

// Should a test file end without its cleanup (a crash, a timeout), its servers do not outlive it.
process.once("exit", () => {
  for (const [child] of children) child.kill("SIGKILL")
})

/** Starts `pdf-transform args...` in `cwd` (default: the repository), or another `script` of the command. */
export const start = (
  args: ReadonlyArray<string>,
  options: { readonly cwd?: string; readonly env?: Record<string, string>; readonly script?: string } = {}
): Running => {
  const child = spawn(process.execPath, [options.script ?? bin, ...args], {
    cwd: options.cwd ?? repository,
    env: environment(options.env),
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  const listeners = new Set<() => void>()
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8")
    for (const listener of listeners) listener()
  })
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8")
  })
  const exited = new Promise<number | string>((resolve) =>
    child.on("close", (code, signal) => {
      children.delete(child)
      for (const listener of listeners) listener()
      resolve(code ?? signal ?? "unknown")
    })
  )
  children.set(child, exited)
  const waitFor = (pattern: RegExp, timeoutMs: number) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(check)
        reject(new Error(`no ${pattern} within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`))
      }, timeoutMs)
      const check = () => {
        const match = stdout.match(pattern)
        if (match !== null) {
          clearTimeout(timer)
          listeners.delete(check)
          resolve(match)
        } else if (child.exitCode !== null || child.signalCode !== null) {
          clearTimeout(timer)
          listeners.delete(check)
          reject(new Error(`ended before ${pattern}; stdout:\n${stdout}\nstderr:\n${stderr}`))
        }
      }
      listeners.add(check)
      check()
    })
  return { child, stdout: () => stdout, stderr: () => stderr, exited, waitFor }
}

/** Runs the command to its end. */
export const run = async (
  args: ReadonlyArray<string>,
  options: { readonly cwd?: string; readonly env?: Record<string, string>; readonly script?: string } = {}
): Promise<{ readonly code: number | string; readonly stdout: string; readonly stderr: string }> => {
  const running = start(args, options)
  const code = await running.exited
  return { code, stdout: running.stdout(), stderr: running.stderr() }
}

/**
 * `pdf-transform serve` on a free port with one key, keeping its data in a temporary folder of its
 * own (the default, `./.pdf-transform-server`, would be the repository's, and carry tasks from one
 * run of the tests to the next); answers its base URL.
 */
export const serve = async (
  key: string,
  extra: ReadonlyArray<string> = [],
  options: { readonly env?: Record<string, string> } = {}
) => {
  const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-serve-"))
  const running = start(["serve", "--port", "0", "--keys", key, "--data-dir", dataDir, ...extra], options)
  void running.exited.then(() => Fs.rmSync(dataDir, { recursive: true, force: true }))
  const [, baseUrl] = await running.waitFor(/listening on (http:\/\/\S+\/v1)/, 30_000)
  return { ...running, baseUrl: baseUrl! }
}

/** A proxy in front of `target` (a base URL ending in /v1) that counts the submits it forwards and records every path. */
export const countingProxy = async (target: string) => {
  const upstream = new URL(target)
  let submits = 0
  const paths: Array<string> = []
  const server = Http.createServer((request, response) => {
    paths.push((request.url ?? "").split("?")[0]!)
    if (request.method === "POST" && /\/submit$/.test(request.url ?? "")) submits++
    const forwarded = Http.request({
      host: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers: request.headers
    }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    forwarded.on("error", () => response.destroy())
    request.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as Net.AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    submits: () => submits,
    paths: () => [...paths],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

const folders = new Set<string>()

/** A new empty folder under the system's temporary folder, removed by `stopAll`. */
export const temporaryFolder = (prefix: string): string => {
  const folder = Fs.mkdtempSync(Path.join(Os.tmpdir(), prefix))
  folders.add(folder)
  return folder
}

/** Ends every process this module started that is still running, then removes the temporary folders. */
export const stopAll = async (): Promise<void> => {
  const running = [...children]
  for (const [child] of running) child.kill("SIGKILL")
  await Promise.all(running.map(([, exited]) => exited))
  for (const folder of folders) Fs.rmSync(folder, { recursive: true, force: true })
  folders.clear()
}
