/** What a status means: whether polling stops, and what a terminal status gives its task. */
import * as Either from "effect/Either"
import type * as Contract from "../Contract.js"
import type * as Client from "../PdfTransformClient.js"
import { ConversionFailed } from "../PdfTransformError.js"

/** Whether polling stops at this status: completed or failed. */
export const isTerminal = (status: Client.Status): status is Contract.CompletedStatus | Contract.FailedStatus =>
  status.state === "completed" || status.state === "failed"

/** What a terminal status means for its task: the completed task, or `ConversionFailed`. */
export const completion = <F extends Contract.Format>(
  task: { readonly format: F; readonly sessionId: Contract.SessionId },
  status: Contract.CompletedStatus | Contract.FailedStatus
): Either.Either<Client.CompletedTask<F>, ConversionFailed> => {
  if (status.state === "completed") {
    return Either.right({ format: task.format, sessionId: task.sessionId, downloadURL: status.data.downloadURL })
  }
  return Either.left(
    new ConversionFailed({
      format: task.format,
      sessionId: task.sessionId,
      reason: status.error.trim() === "" ? "no details" : status.error,
      ...(status.progress === undefined ? {} : { progress: status.progress })
    })
  )
}
