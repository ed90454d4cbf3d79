/**
 * A node's claims on a shared database: a node that finds at a renewal that another node holds
 * the claim of a task it is converting (it was paused past its lease, and the task was taken
 * over) stops converting it, and its slot takes the next task. Time is TestClock's.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as SimulatedConverter from "../src/SimulatedConverter.js"
import { serve, settle, status, submitted } from "./harness.js"

describe("a node's claims on a shared database", () => {
  it.scoped("a claim taken over by another node stops the conversion here, and the slot takes the next task", () =>
    Effect.gen(function*() {
      const h = yield* serve(
        { conversions: { maxConcurrent: 1 }, node: { id: "here", claimLease: "9 seconds", claimPoll: "500 millis" } },
        SimulatedConverter.make({ duration: "10 seconds", progressSteps: 10 }),
        { shared: true }
      )
      const taken = yield* submitted(h, "markdown")
      yield* settle
      const claims = () =>
        Effect.orDie(h.sql<{ id: string; claimed_by: string | null; finished_by: string | null }>`
          SELECT id, claimed_by, finished_by FROM pdt_tasks ORDER BY seq`)
      assert.deepStrictEqual((yield* claims()).map((row) => row.claimed_by), ["here"])
      // Another node takes the task over, as if this one had been paused past its lease.
      yield* Effect.orDie(
        h.sql`UPDATE pdt_tasks SET claimed_by = 'there', claim_until = ${Number.MAX_SAFE_INTEGER} WHERE id = ${taken}`
      )
      const next = yield* submitted(h, "markdown")
      // The renewal (every third of the lease) finds the claim gone and stops the conversion.
      for (let step = 0; step < 8; step++) {
        yield* TestClock.adjust("500 millis")
        yield* settle
      }
      assert.strictEqual((yield* claims()).find((row) => row.id === next)?.claimed_by, "here")
      // Long past the first conversion's 10 s: this node never finished the task it lost, and the
      // slot converted the next one.
      for (let step = 0; step < 24; step++) {
        yield* TestClock.adjust("500 millis")
        yield* settle
      }
      const rows = yield* claims()
      assert.deepStrictEqual(rows.map((row) => [row.claimed_by, row.finished_by]), [["there", null], ["here", "here"]])
      assert.strictEqual((yield* status(h, "markdown", taken)).state, "processing")
      assert.strictEqual((yield* status(h, "markdown", next)).state, "completed")
    }))
})
