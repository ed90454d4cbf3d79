/**
 * Do conversion slots scale with nodes? One run: BENCH_TASKS (default 48) simulated tasks of 3 s
 * each (no jitter), submitted at once round-robin over the nodes, against one node and then three
 * nodes on one PostgreSQL (a throwaway server, as the cluster test starts it;
 * PDF_TRANSFORM_TEST_PG_URL to use another), each node a process of its own (bench/server.ts) with
 * BENCH_SLOTS (default 4) conversion slots. Prints each makespan (first submit to last completion
 * seen by polling every 100 ms), the ideal one (waves of slots x 3 s), and the speed-up.
 *
 * Every node runs on this one machine: the simulated converter only waits, so the figure is the
 * claims' and the database's, not the CPU's.
 *
 *   pnpm --filter @pdf-transform/server bench:cluster
 */
import * as ChildProcess from "node:child_process"
import * as Crypto from "node:crypto"
import { startPostgres } from "../test/fixtures/postgres.js"
import { serverEntry } from "./bundle.js"
import { Connection } from "./connection.js"

/** The server as users run it, bundled (bench/bundle.ts). */
const entry = await serverEntry()

const tasks = Number(process.env["BENCH_TASKS"] ?? 48)
const slots = Number(process.env["BENCH_SLOTS"] ?? 4)
const conversionSeconds = 3

interface Node {
  readonly child: ChildProcess.ChildProcess
  readonly host: string
  readonly port: number
}

const startNode = (databaseUrl: string, key: string, id: string) =>
  new Promise<Node>((resolve, reject) => {
    const child = ChildProcess.spawn(process.execPath, entry, {
      env: {
        ...process.env,
        BENCH_KEY: key,
        BENCH_LIVE: "0",
        BENCH_JITTER: "0",
        BENCH_MAX_CONCURRENT: String(slots),
        BENCH_RETENTION: "10 minutes",
        BENCH_DATABASE_URL: databaseUrl,
        BENCH_NODE_ID: id
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
    child.on("exit", (code) => reject(new Error(`node ${id} exited with ${code}`)))
    setTimeout(() => reject(new Error(`node ${id} did not start in 30 s`)), 30_000).unref()
  })

/** Submits `tasks` round-robin over `nodes` and polls each until it ends: the makespan in seconds. */
const makespan = async (nodes: ReadonlyArray<Node>, key: string): Promise<number> => {
  const connect = (node: Node) => new Connection(node.host, node.port, `authorization: Bearer ${key}\r\n`)
  const setup = connect(nodes[0]!)
  const uploaded = await setup.request(
    "POST",
    "/v1/files",
    new TextEncoder().encode("%PDF-1.4\n% simulated\n%%EOF\n"),
    "application/pdf"
  )
  if (uploaded.status !== 201) throw new Error(`upload: HTTP ${uploaded.status} ${uploaded.body}`)
  setup.close()
  const fileUrl = new URL((JSON.parse(uploaded.body) as { url: string }).url)
  const started = performance.now()
  const ends = await Promise.all(Array.from({ length: tasks }, async (_, i) => {
    const node = nodes[i % nodes.length]!
    const connection = connect(node)
    // The upload's URL on the node's own address: each node knows its own uploads by its Host.
    const pdfURL = `http://${node.host}:${node.port}${fileUrl.pathname}${fileUrl.search}`
    const answer = await connection.request(
      "POST",
      "/v1/pdf-transform-markdown/submit",
      JSON.stringify({ pdfURL, model: "gundam" })
    )
    if (answer.status !== 200) throw new Error(`submit: HTTP ${answer.status} ${answer.body}`)
    const id = (JSON.parse(answer.body) as { sessionID: string }).sessionID
    for (;;) {
      const status = await connection.request("GET", `/v1/pdf-transform-markdown/result/${id}`)
      const state = (JSON.parse(status.body) as { state: string }).state
      if (state === "completed") break
      if (state !== "processing") throw new Error(`task ${id}: ${status.body}`)
      await new Promise((resume) => setTimeout(resume, 100))
    }
    connection.close()
    return performance.now()
  }))
  return (Math.max(...ends) - started) / 1000
}

const run = async (postgres: Awaited<ReturnType<typeof startPostgres>>, count: number) => {
  const key = Crypto.randomBytes(16).toString("hex")
  const url = postgres.createDatabase()
  const nodes: Array<Node> = []
  try {
    for (let n = 1; n <= count; n++) nodes.push(await startNode(url, key, `node-${n}`))
    return await makespan(nodes, key)
  } finally {
    for (const node of nodes) node.child.kill("SIGTERM")
  }
}

const main = async () => {
  const postgres = await startPostgres()
  try {
    const one = await run(postgres, 1)
    const three = await run(postgres, 3)
    const ideal = (count: number) => Math.ceil(tasks / (slots * count)) * conversionSeconds
    console.log(`${tasks} simulated tasks of ${conversionSeconds} s, ${slots} slots per node, one PostgreSQL`)
    console.log(`1 node:  makespan ${one.toFixed(2)} s (ideal ${ideal(1)} s)`)
    console.log(`3 nodes: makespan ${three.toFixed(2)} s (ideal ${ideal(3)} s)`)
    console.log(`speed-up ${(one / three).toFixed(2)}x (ideal ${(ideal(1) / ideal(3)).toFixed(2)}x)`)
    console.log(JSON.stringify({ tasks, slots, oneNodeSeconds: one, threeNodesSeconds: three }))
  } finally {
    postgres.stop()
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error)
  process.exit(1)
})
