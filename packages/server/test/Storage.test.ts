/**
 * What the server does with a stored row it cannot read (damaged by hand, written by another
 * version): the request that meets it is answered 503 `storage_unavailable`, with a hint to retry;
 * nothing crashes, and every other task is answered as before.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { bearer, pathOf, poll, serve, settle, status, submitted, upload } from "./harness.js"

describe("a damaged stored row", () => {
  it.scoped("is a 503 storage_unavailable for its own request only", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      const damaged = yield* submitted(h, "markdown")
      const intact = yield* submitted(h, "markdown")
      yield* TestClock.adjust("2 seconds")
      yield* settle
      assert.strictEqual((yield* status(h, "markdown", damaged)).state, "completed")

      for (
        const damage of [
          h.sql`UPDATE pdt_tasks SET source = 'not json' WHERE id = ${damaged}`,
          h.sql`UPDATE pdt_tasks SET source = '{"_tag":"File"}' WHERE id = ${damaged}`,
          h.sql`UPDATE pdt_tasks SET state = 'half-done' WHERE id = ${damaged}`,
          h.sql`UPDATE pdt_tasks SET format = 'docx' WHERE id = ${damaged}`
        ]
      ) {
        yield* Effect.orDie(h.sql`UPDATE pdt_tasks SET source = '{"_tag":"File","fileId":"x"}', state = 'completed',
          format = 'markdown' WHERE id = ${damaged}`)
        yield* Effect.orDie(damage)
        const answer = yield* poll(h, "markdown", damaged)
        assert.strictEqual(answer.status, 503, answer.body.toString())
        assert.strictEqual(answer.headers["retry-after"], "5")
        assert.deepStrictEqual(answer.json, {
          error: "storage_unavailable",
          message: "The server's storage failed; retry later"
        })
        // Another task is read as before.
        assert.strictEqual((yield* status(h, "markdown", intact)).state, "completed")
      }
    }))

  it.scoped("that a claim cannot read does not stall the tasks queued behind it", () =>
    Effect.gen(function*() {
      const h = yield* serve({ conversions: { maxConcurrent: 1 } })
      const first = yield* submitted(h, "markdown")
      const damaged = yield* submitted(h, "markdown")
      const behind = yield* submitted(h, "markdown")
      yield* Effect.orDie(h.sql`UPDATE pdt_tasks SET source = 'not json' WHERE id = ${damaged}`)
      // The first ends after a second; the claim that follows meets the damaged row and fails. No
      // submit comes to wake the node: it must look again by itself and take the task behind.
      for (let step = 0; step < 8; step++) {
        yield* TestClock.adjust("500 millis")
        yield* settle
      }
      assert.strictEqual((yield* status(h, "markdown", first)).state, "completed")
      assert.strictEqual((yield* status(h, "markdown", behind)).state, "completed")
      assert.strictEqual((yield* poll(h, "markdown", damaged)).status, 503)
    }))

  it.scoped("a file row of an unknown kind is a 503 for its own download, other files unaffected", () =>
    Effect.gen(function*() {
      const h = yield* serve()
      const damaged = yield* upload(h)
      const intact = yield* upload(h)
      const id = pathOf(damaged).split("/")[3]!.split("?")[0]!
      yield* Effect.orDie(h.sql`UPDATE pdt_files SET kind = 'folder' WHERE id = ${id}`)
      const broken = yield* h.request({ method: "GET", path: pathOf(damaged), headers: bearer })
      assert.strictEqual(broken.status, 503, broken.body.toString())
      assert.strictEqual((yield* h.request({ method: "GET", path: pathOf(intact), headers: bearer })).status, 200)
    }))
})
