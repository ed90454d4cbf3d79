import { assert, describe, it } from "@effect/vitest"
import type { BatchEvent } from "@pdf-transform/stream"
import { Batch } from "@pdf-transform/stream"
import type { Display } from "../src/internal/lines.js"
import * as Summary from "../src/internal/summary.js"
import { plain } from "../src/internal/view/style.js"
import { width } from "../src/internal/view/width.js"
import { errors } from "./support/errors.js"
import { completed, failed, job } from "./support/events.js"

const display: Display = { path: (path) => path, messages: {} }
const summaryOf = (events: ReadonlyArray<BatchEvent.BatchEvent>) => {
  const summarizer = Batch.makeSummarizer()
  for (const event of events) summarizer.add(event)
  return summarizer.summary
}

describe("the summary", () => {
  it("lists every document in input order with its output or its reason", () => {
    const summary = summaryOf([
      failed(1, errors.conversionFailed),
      completed(0),
      { _tag: "Skipped", job: job(2), previous: "completed", output: "out/doc-2.md" },
      { _tag: "Ambiguous", job: job(3), reason: "no answer" }
    ])
    const rows = Summary.rows(summary, display, [{ index: 4, name: "doc-4.pdf", sessionId: "t-4" }])
    assert.deepStrictEqual(Summary.table(rows, { style: plain }), [
      "file       result         output or reason",
      "doc-0.pdf  converted      out/doc-0.md",
      "doc-1.pdf  failed         The service could not convert it: Not a readable PDF: Invalid PDF structure.",
      "doc-2.pdf  done before    out/doc-2.md",
      "doc-3.pdf  ambiguous      no answer",
      "doc-4.pdf  interrupted    task t-4 goes on at the service; the next run picks it up"
    ])
  })

  it("fits a terminal's width, and keeps failures first when there are too many rows", () => {
    const events = [
      ...Array.from({ length: 50 }, (_, i) => completed(i)),
      failed(50, errors.conversionFailed),
      ...Array.from({ length: 10 }, (_, i) => ({ _tag: "NotAttempted", job: job(51 + i), reason: "Ctrl-C" }) as const)
    ]
    const lines = Summary.table(Summary.rows(summaryOf(events), display), { style: plain, columns: 60, maxRows: 5 })
    assert.strictEqual(lines.length, 7)
    assert.match(lines[1]!, /^doc-50\.pdf +failed +The service could not \S.*…$/)
    assert.match(lines[5]!, /^doc-54\.pdf +not started +Ctrl-C$/)
    assert.strictEqual(lines[6], "… and 56 more: 6 not started, 50 converted")
    for (const line of lines) assert.isTrue(width(line) <= 59, line)
  })

  it("closes with counts, time and where the outputs are, and how to go on when documents are left", () => {
    const done = summaryOf([completed(0), { _tag: "Skipped", job: job(1), previous: "completed" }])
    const options = { elapsedMs: 12_300, outputDirectory: "out", journal: "out/.pdf-transform-journal.jsonl" }
    assert.deepStrictEqual(Summary.closing(done, { ...options, unfinished: 0 }), [
      "1 converted, 1 done before in 12.3 s. Outputs in out/"
    ])
    const left = summaryOf([failed(0, errors.conversionFailed), { _tag: "Ambiguous", job: job(1), reason: "?" }])
    assert.deepStrictEqual(Summary.closing(left, { ...options, unfinished: 2 }), [
      "0 converted, 1 failed, 3 not converted in 12.3 s. Outputs in out/",
      "To go on, run the same command again: the journal (out/.pdf-transform-journal.jsonl) remembers every task, " +
      "so nothing is submitted twice.",
      "Documents whose submit has an unknown outcome are only submitted again with --resubmit-ambiguous."
    ])
  })
})
