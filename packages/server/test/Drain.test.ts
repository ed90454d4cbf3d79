/**
 * A node stopped by SIGTERM on a two-node cluster (one Postgres, node processes, the simulated
 * converter): it leaves the rotation at once (`/readyz` 503, submits 503 with Retry-After, `/healthz`
 * still 200), exits 0, and every task completes: its conversions finish on it when the drain
 * timeout allows, or are taken by the other node when it cuts them. Nothing else runs twice.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import type { Postgres } from "./fixtures/postgres.js"
import { rows, startPostgres } from "./fixtures/postgres.js"
import type { Started } from "./processes.js"
import { bearer, start, submit, submitRaw, waitFor } from "./processes.js"
import { parse, valueOf } from "./prometheus.js"
import { fakePdf, raw } from "./utils.js"

// Node A converts slowly, so that its conversions are still running when it is stopped whatever
// the machine's load; node B quickly, so that the tasks it takes over end soon.
const slowMs = 15_000
const fastMs = 2000

let postgres: Postgres
beforeAll(async () => {
  postgres = await startPostgres()
}, 120_000)
afterAll(() => postgres?.stop())

const node = (url: string, id: string, conversionMs: number, drainMs: number): Promise<Started> =>
  start({
    TEST_DATABASE_URL: url,
    TEST_NODE_ID: id,
    TEST_CLAIM_LEASE_MS: "10000",
    TEST_CONVERSION_MS: String(conversionMs),
    TEST_MAX_CONCURRENT: "4",
    TEST_DRAIN_TIMEOUT_MS: String(drainMs)
  })

/** Polls until `done` holds, within `withinMs` (an upper bound on another process, not a schedule). */
const until = async (what: string, done: () => boolean | Promise<boolean>, withinMs: number) => {
  const deadline = Date.now() + withinMs
  while (!(await done())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${withinMs} ms`)
    await new Promise((resume) => setTimeout(resume, 50))
  }
}

describe("drain at SIGTERM, two nodes on one Postgres", () => {
  it.each([
    { cut: false, drainMs: 60_000 },
    { cut: true, drainMs: 1000 }
  ])(
    "8 tasks, over both nodes, node A gets SIGTERM while it converts; conversions cut by the drain timeout: $cut",
    async ({ cut, drainMs }) => {
      const url = postgres.createDatabase()
      const [a, b] = await Promise.all([node(url, "node-a", slowMs, drainMs), node(url, "node-b", fastMs, 60_000)])
      const uploaded = await raw(a.origin, {
        method: "POST",
        path: "/v1/files",
        headers: { ...bearer, "content-type": "application/pdf" },
        body: fakePdf(1000)
      })
      assert.strictEqual(uploaded.status, 201, uploaded.body.toString())
      const pdfURL = (uploaded.json as { url: string }).url
      const ids = await Promise.all(Array.from({ length: 8 }, () => submit(a.origin, "markdown", pdfURL)))
      // Every task claimed, some by node A: it can take no other before it stops, nor end these.
      const claimedBy = (id: string) =>
        rows(url, `SELECT id FROM pdt_tasks WHERE claimed_by = '${id}' AND state = 'processing'`).map(([t]) => t!)
      const unclaimed = () => rows(url, "SELECT id FROM pdt_tasks WHERE claimed_by IS NULL AND state = 'processing'")
      await until(
        "every task claimed, some by node A",
        () => unclaimed().length === 0 && claimedBy("node-a").length > 0,
        30_000
      )
      const held = new Set(claimedBy("node-a"))

      const stopped = Date.now()
      a.child.kill("SIGTERM")
      if (!cut) {
        const readyz = async (origin: string) => (await raw(origin, { path: "/readyz" })).status
        await until("node A not ready", async () => (await readyz(a.origin)) === 503, 10_000)
        assert.strictEqual((await raw(a.origin, { path: "/healthz" })).status, 200)
        const refused = await submitRaw(a.origin, "markdown", pdfURL)
        assert.strictEqual(refused.status, 503, refused.body.toString())
        assert.isDefined(refused.headers["retry-after"])
        assert.strictEqual(await readyz(b.origin), 200)
      }
      assert.strictEqual(await a.exited, 0)
      const took = Date.now() - stopped
      // Cut: it did not wait for its conversions. Not cut: it waited for them, within its timeout.
      if (cut) assert.isBelow(took, slowMs)
      else assert.isBelow(took, drainMs)

      for (const id of ids) await waitFor(b.origin, "markdown", id, (s) => s.state === "completed", 60_000)
      const table = rows(url, "SELECT id, claims, finished_by FROM pdt_tasks")
      assert.strictEqual(table.length, 8)
      for (const [id, claims, finishedBy] of table) {
        const cutHere = cut && held.has(id!)
        assert.strictEqual(Number(claims), cutHere ? 2 : 1, `task ${id}`)
        assert.strictEqual(finishedBy, held.has(id!) && !cut ? "node-a" : "node-b", `task ${id}`)
      }
      const metrics = parse(await (await fetch(b.metrics)).text())
      assert.strictEqual(valueOf(metrics, "pdf_transform_claim_takeovers_total"), cut ? held.size : 0)
    },
    180_000
  )
})
