/** Small builders of batch events for the tests of the pure modules. */
import type { Contract } from "@pdf-transform/core"
import type { BatchError, BatchEvent } from "@pdf-transform/stream"

export const job = (index: number, name = `doc-${index}.pdf`): BatchEvent.JobInfo => ({
  index,
  name,
  key: `key-${index}`,
  format: "markdown"
})

export const sessionId = (index: number) => `task-${index}` as Contract.SessionId

export const completed = (index: number, output = `out/doc-${index}.md`): BatchEvent.BatchEvent => ({
  _tag: "Completed",
  job: job(index),
  sessionId: sessionId(index),
  output,
  bytes: 84_010
})

export const failed = (index: number, error: BatchError.JobError): BatchEvent.BatchEvent => ({
  _tag: "Failed",
  job: job(index),
  error
})
