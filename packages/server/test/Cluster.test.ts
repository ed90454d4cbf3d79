/**
 * Three server processes on one PostgreSQL database (the test's own, see `fixtures/postgres.ts`),
 * with the simulated converter: any node answers any task, upload and download; conversions
 * spread over the nodes; a node killed with SIGKILL in the middle of its conversions has them
 * converted again by the others, and by nobody else; and the limit of tasks in flight holds across
 * the nodes. The figures come from the database itself (who claimed, who finished, how often), and
 * each node's metrics agree with them.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { Postgres } from "./fixtures/postgres.js"
import { rows, startPostgres } from "./fixtures/postgres.js"
import type { Started, Status } from "./processes.js"
import { bearer, fetchSigned, kill, start, submit, submitRaw, waitFor } from "./processes.js"
import { parse, totalOf, valueOf } from "./prometheus.js"
import { fakePdf, raw } from "./utils.js"
import type { RawResponse } from "./utils.js"

const conversionMs = 2000
// The default lease: a shorter one is taken over from a node that is alive but starved of CPU on a loaded machine.
const leaseMs = 10_000
const partSize = 5 * 1024 * 1024

let postgres: Postgres
beforeAll(async () => {
  postgres = await startPostgres()
}, 120_000)
/** Blob directories made by the tests, removed at the end whatever happened. */
const folders: Array<string> = []
afterAll(() => {
  postgres?.stop()
  for (const folder of folders) Fs.rmSync(folder, { recursive: true, force: true })
})

const startNodes = (url: string, extra: Record<string, string> = {}): Promise<ReadonlyArray<Started>> =>
  Promise.all([1, 2, 3].map((n) =>
    start({
      TEST_DATABASE_URL: url,
      TEST_NODE_ID: `node-${n}`,
      TEST_CLAIM_LEASE_MS: String(leaseMs),
      TEST_CONVERSION_MS: String(conversionMs),
      ...extra
    })
  ))

/** The official client's chunked upload, spread over the nodes: init on one, a part on each, the URL from the last. */
const uploadAcross = async (nodes: ReadonlyArray<Started>, file: Uint8Array): Promise<string> => {
  const init = await raw(nodes[0]!.origin, {
    method: "POST",
    path: "/v1/uploads/init",
    headers: { ...bearer, "content-type": "application/json" },
    body: JSON.stringify({ file_extension: ".pdf", size: file.byteLength })
  })
  assert.strictEqual(init.status, 200, init.body.toString())
  const data =
    (init.json as { data: { upload_id: string; total_parts: number; presigned_urls: Record<string, string> } })
      .data
  assert.strictEqual(data.total_parts, 3)
  for (let n = 1; n <= data.total_parts; n++) {
    const url = new URL(data.presigned_urls[String(n)]!)
    const put = await raw(nodes[n - 1]!.origin, {
      method: "PUT",
      path: `${url.pathname}${url.search}`,
      headers: { "content-type": "application/octet-stream" },
      body: file.subarray((n - 1) * partSize, n * partSize)
    })
    assert.strictEqual(put.status, 200, put.body.toString())
  }
  const done = await raw(nodes[2]!.origin, { path: `/v1/uploads/${data.upload_id}/url`, headers: bearer })
  assert.strictEqual(done.status, 200, done.body.toString())
  return (done.json as { data: { url: string } }).data.url
}

describe("three nodes on one Postgres", () => {
  it.each([
    { bytes: "in the database's rows", blobs: false },
    { bytes: "in a blob directory they share", blobs: true }
  ])(
    "30 tasks over 3 nodes, node 2 killed mid-run: all complete, download byte-identical from both survivors, only node 2's tasks ran twice; bytes $bytes",
    async ({ blobs }) => {
      const url = postgres.createDatabase()
      const blobDir = blobs ? Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-cluster-blobs-")) : undefined
      if (blobDir !== undefined) folders.push(blobDir)
      const nodes = await startNodes(url, blobDir === undefined ? {} : { TEST_BLOB_DIR: blobDir })
      const file = fakePdf(2 * partSize + 4096)
      Crypto.randomFillSync(file, 16)
      const pdfURL = await uploadAcross(nodes, file)

      const formats = ["markdown", "epub"] as const
      const tasks = await Promise.all(Array.from({ length: 30 }, async (_, i) => {
        const format = formats[i % 2]!
        return { format, id: await submit(nodes[i % 3]!.origin, format, pdfURL) }
      }))

      // Node 2 dies while it converts: it holds claims on tasks still processing.
      const deadline = Date.now() + 20_000
      while (rows(url, "SELECT 1 FROM pdt_tasks WHERE claimed_by = 'node-2' AND state = 'processing'").length === 0) {
        if (Date.now() > deadline) assert.fail("node 2 never claimed a task")
        await new Promise((resume) => setTimeout(resume, 50))
      }
      await new Promise((resume) => setTimeout(resume, conversionMs / 2))
      await kill(nodes[1]!)
      const inFlightAtKill = new Set(
        rows(url, "SELECT id FROM pdt_tasks WHERE claimed_by = 'node-2' AND state = 'processing'").map(([id]) => id!)
      )
      assert.isAbove(inFlightAtKill.size, 0)

      const survivors = [nodes[0]!, nodes[2]!]
      for (const [i, task] of tasks.entries()) {
        const origin = survivors[i % 2]!.origin
        const done: Status = await waitFor(origin, task.format, task.id, (s) => s.state !== "processing", 60_000)
        assert.strictEqual(done.state, "completed", JSON.stringify(done))
        const [first, second] = await Promise.all(
          survivors.map((node) => fetchSigned(node.origin, done.data!.downloadURL))
        )
        assert.strictEqual(first!.status, 200)
        assert.isAbove(first!.body.byteLength, 0)
        assert.isTrue(first!.body.equals(second!.body), `task ${task.id}: the two nodes served different bytes`)
      }

      const table = rows(url, "SELECT id, claims, finished_by FROM pdt_tasks ORDER BY seq")
      assert.strictEqual(table.length, 30)
      const finishers = new Map<string, number>()
      for (const [id, claims, finishedBy] of table) {
        // Claimed once, or twice when node 2 died holding it, and then finished by a survivor.
        assert.strictEqual(Number(claims), inFlightAtKill.has(id!) ? 2 : 1, `task ${id} claimed ${claims} times`)
        if (inFlightAtKill.has(id!)) assert.notStrictEqual(finishedBy, "node-2")
        finishers.set(finishedBy!, (finishers.get(finishedBy!) ?? 0) + 1)
      }
      // The conversions spread: each surviving node converted some of them.
      assert.isAbove(finishers.get("node-1") ?? 0, 0)
      assert.isAbove(finishers.get("node-3") ?? 0, 0)
      // Every node reads the cluster's figures from the database: the same on each. Its counters are
      // its own: summed over the survivors they equal what the database says the survivors did.
      const scrapes = await Promise.all(survivors.map(async (node) => {
        const scraped = await fetch(node.metrics)
        assert.strictEqual(scraped.status, 200)
        return parse(await scraped.text())
      }))
      for (const families of scrapes) {
        assert.strictEqual(valueOf(families, "pdf_transform_tasks", { state: "completed" }), 30)
        assert.strictEqual(valueOf(families, "pdf_transform_tasks", { state: "processing" }), 0)
        assert.strictEqual(valueOf(families, "pdf_transform_tasks_waiting"), 0)
      }
      const sum = (name: string, labels: Record<string, string> = {}) =>
        scrapes.reduce((total, families) => total + totalOf(families, name, labels), 0)
      assert.strictEqual(sum("pdf_transform_tasks_submitted_total"), 20)
      assert.strictEqual(sum("pdf_transform_claim_takeovers_total"), inFlightAtKill.size)
      assert.strictEqual(
        sum("pdf_transform_conversion_duration_seconds_count", { outcome: "completed" }),
        (finishers.get("node-1") ?? 0) + (finishers.get("node-3") ?? 0)
      )
      if (blobDir !== undefined) {
        // One file per output, none half-written, and no bytes in the rows.
        assert.strictEqual(Fs.readdirSync(Path.join(blobDir, "outputs")).length, 30)
        assert.deepStrictEqual(rows(url, "SELECT COUNT(*) FROM pdt_tasks WHERE output IS NOT NULL"), [["0"]])
      }
    },
    240_000
  )

  /** Twenty concurrent submits of one upload, spread over three nodes, each given the upload on its own address. */
  const submitsOverNodes = async (env: Record<string, string>) => {
    const url = postgres.createDatabase()
    const nodes = await startNodes(url, { ...env, TEST_CONVERSION_MS: "30000" })
    const uploaded = await raw(nodes[0]!.origin, {
      method: "POST",
      path: "/v1/files",
      headers: { ...bearer, "content-type": "application/pdf" },
      body: fakePdf(4096)
    })
    assert.strictEqual(uploaded.status, 201, uploaded.body.toString())
    const upload = new URL((uploaded.json as { url: string }).url)
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => {
      const origin = nodes[i % 3]!.origin
      return submitRaw(origin, "markdown", `${origin}${upload.pathname}${upload.search}`)
    }))
    return { url, nodes, answers }
  }

  const assertLimited = (answers: ReadonlyArray<RawResponse>, accepted: number, reason: string) => {
    const statuses = answers.map((answer) => answer.status)
    assert.strictEqual(statuses.filter((status) => status === 200).length, accepted, statuses.join(" "))
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      assert.strictEqual(answer.status, 429, answer.body.toString())
      assert.strictEqual((answer.json as { reason: string }).reason, reason)
    }
  }

  it(
    "a limit of 4 tasks in flight holds across nodes: of 20 concurrent submits spread over them, exactly 4 are accepted",
    async () => {
      const { answers, nodes } = await submitsOverNodes({ TEST_CONCURRENCY: "4" })
      assertLimited(answers, 4, "concurrency_exceeded")
      await Promise.all(nodes.map(kill))
    },
    240_000
  )

  it(
    "a rate of 5 submits an hour holds across nodes: of 20 concurrent submits of a new key spread over them, exactly 5 are accepted",
    async () => {
      const { answers, nodes, url } = await submitsOverNodes({ TEST_RATE: "5" })
      assertLimited(answers, 5, "rate_exceeded")
      // One row for the key, whichever node wrote it first; the quota counted the five.
      assert.deepStrictEqual(rows(url, "SELECT COUNT(*), MAX(used) FROM pdt_limits"), [["1", "5"]])
      await Promise.all(nodes.map(kill))
    },
    240_000
  )
})
