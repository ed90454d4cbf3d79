import { assert, describe, it } from "@effect/vitest"
import * as Messages from "../src/Messages.js"
import { errors } from "./support/errors.js"

describe("error messages", () => {
  it("every error is one line, a sentence (or two), with no stack and no object dump", () => {
    for (const [name, error] of Object.entries(errors)) {
      const sentence = Messages.sentence(error, { service: "https://svc.example/v1" })
      assert.notInclude(sentence, "\n", name)
      assert.match(sentence, /^\S.*[^.]\.$/, name)
      assert.notInclude(sentence, "[object", name)
      assert.notMatch(sentence, /\bat \S+:\d+/, name)
    }
  })

  it("says what happened and what to do", () => {
    assert.strictEqual(
      Messages.sentence(errors.unauthenticated, { service: "http://127.0.0.1:8787/v1" }),
      "The service at http://127.0.0.1:8787/v1 refused the API key: The API key is not valid for this server. " +
        "Check the key given with --api-key or PDF_TRANSFORM_API_KEY."
    )
    assert.strictEqual(
      Messages.sentence(errors.conversionFailed),
      "The service could not convert it: Not a readable PDF: Invalid PDF structure."
    )
    assert.strictEqual(
      Messages.sentence(errors.pollTimeout),
      "Still converting after 10 min 00 s (at 43%); the task goes on at the service. " +
        "Run the same command again to pick it up, or allow more time with --timeout."
    )
    assert.include(Messages.sentence(errors.outcomeUnknown), "socket hang up")
    assert.include(Messages.sentence(errors.outcomeUnknown), "--resubmit-ambiguous")
    assert.include(Messages.sentence(errors.taskNotFound), "the other format (--to)")
    assert.include(
      Messages.sentence(errors.transport, { service: "http://h/v1" }),
      "Cannot reach the service at http://h/v1"
    )
    assert.include(Messages.sentence(errors.journal), "cannot be written: EACCES")
    assert.strictEqual(
      Messages.sentence(errors.uploadFailed),
      "The upload of report.pdf failed at part 3 (HTTP 502) after 5 attempt(s): Bad Gateway. " +
        "Run the same command again: nothing was submitted for it."
    )
    assert.include(Messages.sentence(errors.uploadTooLarge), "the limit is 524288000")
  })

  it("tells quota, rate and concurrency limits apart", () => {
    const when = new Date(Date.UTC(2030, 0, 1, 12)).toLocaleString()
    assert.strictEqual(
      Messages.sentence(errors.quota),
      `The service's quota for this API key is spent. Try again after ${when}.`
    )
    assert.include(Messages.sentence(errors.rate), "as too frequent (20 attempts)")
    assert.include(Messages.sentence(errors.concurrency), "too many were running")
  })

  it("keeps a server's answer short and on one line, and says when to try later", () => {
    assert.strictEqual(
      Messages.sentence(errors.serverError),
      "The service answered HTTP 503 to the status: <html> <body>Service Unavailable</body> </html>. " +
        "The service has a problem: try again later."
    )
    assert.include(Messages.sentence(errors.tooLarge), "larger than the service accepts")
  })
})
