import { assert, describe, expectTypeOf, it } from "@effect/vitest"
import { Contract, PdfTransformClient, type PdfTransformError } from "@pdf-transform/core"
import { Either } from "effect"

/** What a caller writes after `status` or `watch`: a switch on `state`, no casts. */
const describeStatus = (status: PdfTransformClient.Status): string => {
  switch (status.state) {
    case "completed":
      expectTypeOf(status).toEqualTypeOf<Contract.CompletedStatus>()
      return `done: ${status.data.downloadURL}`
    case "failed":
      expectTypeOf(status).toEqualTypeOf<Contract.FailedStatus>()
      return `failed: ${status.error}`
    case "processing":
      expectTypeOf(status).toEqualTypeOf<Contract.ProcessingStatus>()
      // @ts-expect-error only a completed status has data
      return `processing ${status.progress ?? "?"} ${status.data}`
    case "unrecognized":
      expectTypeOf(status).toEqualTypeOf<PdfTransformClient.UnrecognizedStatus>()
      return `unknown state ${status.reported}`
  }
}

describe("Status", () => {
  it("narrows on state, an unknown state included", () => {
    const completed: PdfTransformClient.Status = {
      success: true,
      state: "completed",
      data: { downloadURL: "https://files.example.com/out.md" }
    }
    assert.strictEqual(describeStatus(completed), "done: https://files.example.com/out.md")
    assert.strictEqual(describeStatus({ state: "unrecognized", reported: "queued" }), "unknown state queued")
    if (completed.state === "completed") {
      expectTypeOf(completed.data.downloadURL).toBeString()
    }
  })

  it("an unknown state cannot pass for a contract state", () => {
    // @ts-expect-error the raw state goes in `reported`; `state` is always "unrecognized"
    const wrong: PdfTransformClient.UnrecognizedStatus = { state: "queued", reported: "queued" }
    assert.isFalse(PdfTransformClient.isTerminal({ state: "unrecognized", reported: "completed" }))
    assert.isDefined(wrong)
  })

  it("a terminal status gives its task's result with completion", () => {
    const task = PdfTransformClient.task("epub", Contract.SessionId.make("s-1"))
    const failed = PdfTransformClient.completion(task, { success: false, state: "failed", error: "" })
    assert.isTrue(Either.isLeft(failed) && failed.left.reason === "no details")
    const done = PdfTransformClient.completion(task, {
      success: true,
      state: "completed",
      data: { downloadURL: "https://files.example.com/out.epub" }
    })
    expectTypeOf(done).toEqualTypeOf<
      Either.Either<PdfTransformClient.CompletedTask<"epub">, PdfTransformError.ConversionFailed>
    >()
    assert.isTrue(Either.isRight(done) && done.right.format === "epub")
  })
})
