/**
 * A minimal contract-shaped peer for the loopback benchmark, in a process of its own: submit,
 * result (linear progress over the task time, then completed) and download, on 127.0.0.1. Plain
 * node:http, so its cost stays out of the measured client processes and is the same for all.
 *
 * Prints `{"port": N}` once listening. `GET /stats` answers the result GETs and tasks counted since
 * the last `POST /stats/reset`. Stops when its stdin closes (the runner's end).
 */
import * as http from "node:http"

const taskMs = Number(process.env["BENCH_TASK_MS"] ?? 500)
const output = Buffer.from(`# Converted\n\n${"Lorem ipsum dolor sit amet. ".repeat(70)}\n`)

interface Task {
  readonly format: string
  readonly createdAt: number
  /** Whether the completed status was already served. */
  seen: boolean
}

const tasks = new Map<string, Task>()
let counter = 0
let resultGets = 0
let submits = 0
let downloads = 0
/** Sum of the times from a task's creation to the first GET that found it completed. */
let detectedMs = 0

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

const server = http.createServer((req, res) => {
  const url = req.url ?? "/"
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", () => {
    if (url === "/stats") return send(res, 200, { resultGets, submits, downloads, detectedMs })
    if (url === "/stats/reset") {
      resultGets =
        submits =
        downloads =
        detectedMs =
          0
      tasks.clear()
      return send(res, 200, {})
    }
    if (url.startsWith("/downloads/")) {
      downloads++
      res.writeHead(200, { "content-type": "text/markdown; charset=utf-8", "content-length": output.length })
      return res.end(output)
    }
    if (req.headers["authorization"] !== "Bearer bench-key") {
      return send(res, 401, { error: "Unauthorized", code: "UNAUTHENTICATED", message: "bad key", resolution: "-" })
    }
    const match = /^\/v1\/pdf-transform-(markdown|epub)\/(submit|result\/(.+))$/.exec(url)
    if (match === null) return send(res, 404, { error: "not_found" })
    const [, format, action, id] = match
    if (action === "submit" && req.method === "POST") {
      submits++
      const sessionID = `task-${++counter}`
      tasks.set(sessionID, { format: format!, createdAt: Date.now(), seen: false })
      return send(res, 200, { success: true, sessionID })
    }
    resultGets++
    const task = id === undefined ? undefined : tasks.get(decodeURIComponent(id))
    if (task === undefined || task.format !== format) {
      return send(res, 404, { success: false, state: "not_found", error: `Task ${id} not found` })
    }
    const elapsed = Date.now() - task.createdAt
    if (elapsed < taskMs) {
      return send(res, 200, { success: true, state: "processing", progress: Math.floor((elapsed / taskMs) * 100) })
    }
    if (!task.seen) {
      task.seen = true
      detectedMs += elapsed
    }
    const downloadURL = `http://127.0.0.1:${(server.address() as { port: number }).port}/downloads/${id}`
    return send(res, 200, { success: true, state: "completed", progress: 100, data: { downloadURL } })
  })
})

server.keepAliveTimeout = 60_000
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`)
})
process.stdin.on("end", () => server.close(() => process.exit(0)))
process.stdin.resume()
