import { assert, describe, it } from "@effect/vitest"
import { PdfTransformError } from "@pdf-transform/core"
import { FastCheck as fc } from "effect"
import { bar, documentLine, frame, totalLine } from "../src/internal/view/render.js"
import * as State from "../src/internal/view/state.js"
import { plain } from "../src/internal/view/style.js"
import { width } from "../src/internal/view/width.js"

const running = (index: number, name: string, progress?: number): State.Running => ({
  index,
  name,
  phase: progress === undefined ? "submitted" : "converting",
  progress,
  since: 0,
  resumed: false
})

const withRunning = (docs: ReadonlyArray<State.Running>, total: number): State.State => ({
  ...State.initial(total, 0),
  running: new Map(docs.map((doc) => [doc.index, doc])),
  queued: total - docs.length
})

const names = fc.string({
  unit: fc.oneof(fc.constantFrom("a", "/", " ", "漢", "😀", "e\u0301", "\n", "\x1b"), fc.char()),
  maxLength: 200
})

describe("the live view's lines", () => {
  it("draws a document with its name, state, bar, percentage and time", () => {
    const line = documentLine(running(0, "corpus/text/tracemonkey.pdf", 42), 7_000, 100, plain)
    assert.match(line, /^ {2}\S corpus\/text\/tracemonkey\.pdf +converting +\[█{8}░{11}\] +42% +0:07$/)
    assert.strictEqual(bar(undefined, 4), "░░░░")
    assert.strictEqual(bar(100, 4), "████")
  })

  it("keeps the end of a long name and leaves out the bar, then the state, as the terminal narrows", () => {
    const doc = running(0, "a/very/long/folder/name/with/many/parts/tracemonkey.pdf", 42)
    assert.match(documentLine(doc, 0, 60, plain), /…\S*tracemonkey\.pdf +converting +\[█+░+\] +42%/)
    assert.match(documentLine(doc, 0, 50, plain), /…\S*key\.pdf +converting +42% +0:00$/)
    assert.match(documentLine(doc, 0, 36, plain), /^ {2}\S …\S*\.pdf +42% +0:00$/)
  })

  it.prop(
    "every line fits the terminal with a column to spare",
    [names, fc.integer({ min: 20, max: 240 })],
    ([name, columns]) => {
      const line = documentLine(running(3, name, 50), 65_000, columns, plain)
      assert.isTrue(width(line) <= columns - 1, `${width(line)} > ${columns - 1}: ${line}`)
      assert.notInclude(line, "\n")
      assert.notInclude(line, "\x1b")
      const state = withRunning([running(3, name, 50)], 10_000)
      for (const row of frame(state, 65_000, { columns, rows: 24 }, plain)) assert.isTrue(width(row) <= columns - 1)
    }
  )

  it("writes the total line, leaving out what does not fit", () => {
    const state: State.State = {
      ...withRunning([running(5, "a.pdf", 10), running(6, "b.pdf")], 10),
      done: 3,
      failed: 1,
      convertedNow: 3,
      firstStartAt: 0
    }
    assert.strictEqual(
      totalLine(state, 12_000, 120, plain),
      "  3/10 done · 1 failed · 2 running · 4 queued · 0.25 docs/s · ETA 0:24 · 0:12"
    )
    assert.strictEqual(totalLine(state, 12_000, 50, plain), "  3/10 done · 1 failed · 2 running · 4 queued")
    assert.strictEqual(totalLine(state, 12_000, 30, plain), "  3/10 ✓ 1 ✗ 2 ▶")
  })

  it("shows as many documents as the screen has rows for, and counts the others", () => {
    const docs = Array.from({ length: 30 }, (_, i) => running(i, `doc-${i}.pdf`, i))
    const lines = frame(withRunning(docs, 40), 0, { columns: 80, rows: 12 }, plain)
    assert.strictEqual(lines.length, 10)
    assert.match(lines[8]!, /^ {2}… and 22 more running$/)
    assert.match(lines[9]!, /^ {2}0\/40 done/)
    assert.deepStrictEqual(frame(withRunning(docs, 40), 0, { columns: 80, rows: 12 }, plain, { documents: false }), [
      lines[9]
    ])
  })

  it("says the batch is stopping above the total", () => {
    const state = { ...withRunning([running(0, "a.pdf", 10)], 3), stopping: "Ctrl-C" }
    const lines = frame(state, 0, { columns: 120, rows: 24 }, plain)
    assert.match(lines[1]!, /^ {2}Stopping \(Ctrl-C\): waiting for the running ones; Ctrl-C again leaves them/)
  })

  it("says the service is unreachable and counts down to its next try, until it answers again", () => {
    const error = new PdfTransformError.TransportError({ operation: "submit", reason: "ECONNREFUSED", sent: false })
    const down = State.update(withRunning([running(0, "a.pdf", 10)], 3), {
      _tag: "ServiceUnreachable",
      error,
      since: 1_000,
      retryInMs: 8_000,
      answeredBefore: true
    }, 1_000)
    assert.strictEqual(
      frame(down, 1_000, { columns: 120, rows: 24 }, plain)[1],
      "  service unreachable (ECONNREFUSED), next try in 8 s"
    )
    assert.strictEqual(
      frame(down, 6_000, { columns: 120, rows: 24 }, plain)[1],
      "  service unreachable (ECONNREFUSED), next try in 3 s"
    )
    const back = State.update(down, { _tag: "ServiceReachable", downMs: 9_000 }, 10_000)
    assert.lengthOf(frame(back, 10_000, { columns: 120, rows: 24 }, plain), 2)
  })
})
