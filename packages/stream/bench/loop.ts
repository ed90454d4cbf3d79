/**
 * The reference for the batch's CPU and memory: the same work written by hand, with no Effect. For
 * every job, on a fixed pool of workers: the submit, the result polled (at once, then 100 ms x1.5
 * up to 500 ms, as the batch's client in the bench) until terminal, the download, and the same
 * durable write (a temporary file, fsync, rename, the folder fsync'd). No journal, no events, no
 * retries: what the batch costs beyond it is what its guarantees cost.
 *
 *   node loop.mjs <baseUrl> <apiKey> <jobs.json> <workDir>
 *
 * Prints one JSON line, as `client.ts` does.
 */
import * as Fs from "node:fs"
import * as FsPromises from "node:fs/promises"
import * as Path from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { request } from "undici"

const [baseUrl, key, jobsFile, workDir] = process.argv.slice(2) as [string, string, string, string]
const jobs = Fs.readFileSync(jobsFile, "utf8").split("\n").filter((line) => line !== "").map((line) =>
  JSON.parse(line) as { pdfURL: string; filename: string }
)
const outputDirectory = Path.join(workDir, "out")
const workers = 64
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }

interface Status {
  readonly state: string
  readonly data?: { readonly downloadURL: string }
  readonly error?: string
}

const json = async <A>(method: "GET" | "POST", url: string, body?: unknown): Promise<A> => {
  const response = await request(url, { method, headers, body: body === undefined ? null : JSON.stringify(body) })
  const text = await response.body.text()
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: HTTP ${response.statusCode} ${text}`)
  return JSON.parse(text) as A
}

const writeDurably = async (path: string, bytes: Uint8Array) => {
  const temporary = `${path}.${process.pid}.part`
  const file = await FsPromises.open(temporary, "wx")
  try {
    await file.writeFile(bytes)
    await file.sync()
  } finally {
    await file.close()
  }
  await FsPromises.rename(temporary, path)
  const folder = await FsPromises.open(outputDirectory, "r")
  try {
    await folder.sync()
  } finally {
    await folder.close()
  }
}

const convert = async (job: { pdfURL: string; filename: string }): Promise<boolean> => {
  const { sessionID } = await json<{ sessionID: string }>("POST", `${baseUrl}/pdf-transform-markdown/submit`, {
    pdfURL: job.pdfURL,
    model: "gundam",
    filename: job.filename
  })
  let delay = 100
  for (;;) {
    const status = await json<Status>("GET", `${baseUrl}/pdf-transform-markdown/result/${sessionID}`)
    if (status.state === "failed") return false
    if (status.state === "completed" && status.data !== undefined) {
      const response = await request(status.data.downloadURL)
      const bytes = new Uint8Array(await response.body.arrayBuffer())
      if (response.statusCode !== 200) throw new Error(`download: HTTP ${response.statusCode}`)
      await writeDurably(Path.join(outputDirectory, `${job.filename}.md`), bytes)
      return true
    }
    await sleep(delay)
    delay = Math.min(500, delay * 1.5)
  }
}

const cpuBefore = process.cpuUsage()
const started = performance.now()
Fs.mkdirSync(outputDirectory, { recursive: true })
let next = 0
let completed = 0
let failed = 0
const failures = new Set<string>()
const worker = async () => {
  while (next < jobs.length) {
    const job = jobs[next++]!
    try {
      if (await convert(job)) completed++
      else failed++
    } catch (error) {
      failed++
      failures.add(error instanceof Error ? error.message.slice(0, 80) : String(error))
    }
  }
}
await Promise.all(Array.from({ length: workers }, worker))
const makespanMs = performance.now() - started
const cpu = process.cpuUsage(cpuBefore)
const gc = (globalThis as { gc?: () => void }).gc
gc?.()
console.log(JSON.stringify({
  completed,
  failed,
  ambiguous: 0,
  failures: [...failures],
  makespanMs,
  cpuMs: (cpu.user + cpu.system) / 1000,
  systemMs: cpu.system / 1000,
  maxRssMb: process.resourceUsage().maxRSS / 1024,
  liveHeapMb: gc === undefined ? undefined : process.memoryUsage().heapUsed / 1024 ** 2
}))
process.exit(0)
