/**
 * The running totals (`pdt_totals`) that the server's limits read instead of counting its tables:
 * they follow every change to the tasks and the files (submits, ends, evictions over the count and
 * byte budgets, expiry), and a database made before they existed gets them from its rows. An end
 * over the byte budget evicts the oldest finished tasks, just enough, read a page at a time.
 */
import { assert, describe, it } from "@effect/vitest"
import type * as ConverterModule from "@pdf-transform/converter/Converter"
import { Effect, TestClock } from "effect"
import * as Tables from "../src/internal/sqlTables.js"
import { type Harness, serve, settle, submit, submitted, upload } from "./harness.js"

/** The totals as the tables count them, beside the running ones. */
const compare = (h: Harness) =>
  Effect.gen(function*() {
    const counted = (yield* h.sql<{ tasks: number; output_bytes: number; files: number; file_bytes: number }>`
      SELECT (SELECT COUNT(*) FROM pdt_tasks) AS tasks,
        (SELECT COALESCE(SUM(output_bytes), 0) FROM pdt_tasks) AS output_bytes,
        (SELECT COUNT(*) FROM pdt_files) AS files,
        (SELECT COALESCE(SUM(size), 0) FROM pdt_files) AS file_bytes`)[0]!
    const running = yield* Tables.readTotals(h.sql)
    assert.deepStrictEqual(running, {
      tasks: counted.tasks,
      outputBytes: counted.output_bytes,
      files: counted.files,
      fileBytes: counted.file_bytes
    })
    return running
  }).pipe(Effect.orDie)

describe("running totals", () => {
  it.scoped("follow submits, ends, evictions over both budgets and expiry", () =>
    Effect.gen(function*() {
      // Room for three tasks, and for less than one EPUB output: each end evicts the others.
      const h = yield* serve({
        conversions: { maxTasks: 3, maxStoredBytes: 200, retention: "1 minute" },
        uploads: { retention: "2 minutes" }
      })
      assert.deepStrictEqual(yield* compare(h), { tasks: 0, outputBytes: 0, files: 0, fileBytes: 0 })
      for (let round = 0; round < 4; round++) {
        yield* submitted(h, "epub")
        yield* submitted(h, "epub")
        const during = yield* compare(h)
        assert.isAtLeast(during.files, 1)
        yield* TestClock.adjust("2 seconds")
        yield* settle
        const after = yield* compare(h)
        assert.isAtMost(after.tasks, 3)
        // The byte budget keeps only the output that just ended.
        const outputs = yield* h.sql<{ n: number }>`SELECT COUNT(*) AS n FROM pdt_tasks WHERE output_bytes > 0`
        assert.strictEqual(outputs[0]!.n, 1)
      }
      assert.isAbove((yield* compare(h)).outputBytes, 0)
      yield* TestClock.adjust("3 minutes")
      yield* upload(h)
      yield* submitted(h, "markdown")
      // The sweep dropped what expired; the new upload and task are all that is left (at most).
      const swept = yield* compare(h)
      assert.isAtMost(swept.files, 2)
      assert.isAtMost(swept.tasks, 2)
    }).pipe(Effect.orDie))

  it.scoped("of a database made before them are counted from its rows once", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      yield* submitted(h, "markdown")
      yield* submitted(h, "markdown")
      yield* TestClock.adjust("2 seconds")
      yield* settle
      const before = yield* compare(h)
      assert.strictEqual(before.tasks, 2)
      // As the tables were before the totals: no row, no triggers.
      const triggers = yield* h.sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger'`
      assert.isAbove(triggers.length, 0)
      for (const { name } of triggers) yield* h.sql.unsafe(`DROP TRIGGER ${name}`)
      yield* h.sql`DROP TABLE pdt_totals`
      yield* Tables.setUp(h.sql)
      assert.deepStrictEqual(yield* compare(h), before)
      // Set up again (a restart): counted once, not twice.
      yield* Tables.setUp(h.sql)
      assert.deepStrictEqual(yield* compare(h), before)
      yield* submitted(h, "markdown")
      assert.strictEqual((yield* compare(h)).tasks, 3)
    }).pipe(Effect.orDie))

  it.scoped(
    "an end over the byte budget evicts the oldest finished tasks, just enough, past a page of them",
    () =>
      Effect.gen(function*() {
        // Markdown of `size` bytes for a filename `<name>-<size>`, at once.
        const sized: ConverterModule.Service = {
          toMarkdown: (_pdf, options) =>
            Effect.succeed({ output: "x".repeat(Number(options?.filename?.split("-")[1])), pages: 1, warnings: [] }),
          toEpub: () => Effect.die("not used")
        }
        const h = yield* serve({
          conversions: { maxStoredBytes: 3500, maxTasks: 1000 },
          limits: { rate: false, quota: false, concurrency: false }
        }, sized)
        const pdfURL = yield* upload(h)
        const ids: Array<string> = []
        const send = (filename: string) =>
          Effect.map(submit(h, "markdown", { pdfURL, model: "gundam", filename }), (answer) => {
            assert.strictEqual(answer.status, 200, answer.body.toString())
            return (answer.json as { sessionID: string }).sessionID
          })
        // 300 outputs of 10 bytes: 3,000 bytes, within the budget.
        for (let i = 0; i < 300; i++) {
          ids.push(yield* send("small-10"))
          if (i % 50 === 49) yield* settle
        }
        yield* TestClock.adjust("1 second")
        yield* settle
        assert.strictEqual((yield* compare(h)).outputBytes, 3000)
        // 3,200 more: 2,700 bytes over, so the 270 oldest go (more than one page of them).
        const big = yield* send("big-3200")
        yield* TestClock.adjust("1 second")
        yield* settle
        const left = yield* h.sql<{ id: string }>`SELECT id FROM pdt_tasks ORDER BY seq`.pipe(Effect.orDie)
        assert.deepStrictEqual(left.map((row) => row.id), [...ids.slice(270), big])
        const totals = yield* compare(h)
        assert.strictEqual(totals.tasks, 31)
        assert.strictEqual(totals.outputBytes, 3500)
      }),
    60_000
  )
})
