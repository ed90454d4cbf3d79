/**
 * A server on a data directory, killed with SIGKILL in the middle of a conversion and started again
 * on the same folder: the task it was converting answers and completes, and what it had finished
 * (an output, an upload) still downloads. Real processes on real sockets: the deadlines below are
 * upper bounds on waiting for another process, not guesses of a schedule.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { bearer, fetchSigned, kill, start, status, submit, waitFor } from "./processes.js"
import type { Status } from "./processes.js"
import { fakePdf, raw } from "./utils.js"

const conversionMs = 1500

describe.each([
  { bytes: "in the database's rows", blobs: false },
  { bytes: "in a blob directory", blobs: true }
])("restart on a data directory, bytes $bytes", ({ blobs }) => {
  it(
    "SIGKILL mid-conversion: the task answers and completes after a restart; outputs and uploads still download",
    async () => {
      const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-restart-"))
      const started = () =>
        start({
          TEST_DATA_DIR: dataDir,
          ...(blobs ? { TEST_BLOB_DIR: Path.join(dataDir, "blobs") } : {}),
          TEST_CONVERSION_MS: String(conversionMs)
        })
      try {
        const first = await started()
        const pdf = fakePdf(4096)
        Crypto.randomFillSync(pdf, 16)
        const uploaded = await raw(first.origin, {
          method: "POST",
          path: "/v1/files",
          headers: { ...bearer, "content-type": "application/pdf" },
          body: pdf
        })
        assert.strictEqual(uploaded.status, 201, uploaded.body.toString())
        const fileUrl = (uploaded.json as { url: string }).url

        // A task that finishes before the kill, and its output.
        const finished = await submit(first.origin, "markdown", fileUrl)
        const done = await waitFor(first.origin, "markdown", finished, (s) => s.state === "completed", 20_000)
        const output = await fetchSigned(first.origin, done.data!.downloadURL)
        assert.strictEqual(output.status, 200)
        assert.isAbove(output.body.byteLength, 0)

        // A task killed in the middle of its conversion.
        const killed = await submit(first.origin, "epub", fileUrl)
        await waitFor(first.origin, "epub", killed, (s) => s.state === "processing" && s.progress > 0, 20_000)
        await kill(first)

        const second = await started()
        const after = await status(second.origin, "epub", killed)
        assert.strictEqual(after.status, 200, `the task is unknown after the restart: ${after.body.toString()}`)
        assert.strictEqual((after.json as Status).state, "processing")
        const resumed = await waitFor(second.origin, "epub", killed, (s) => s.state !== "processing", 20_000)
        assert.strictEqual(resumed.state, "completed")
        const epub = await fetchSigned(second.origin, resumed.data!.downloadURL)
        assert.strictEqual(epub.status, 200)
        assert.isAbove(epub.body.byteLength, 0)

        // What the first process finished is still there, byte for byte.
        const again = await waitFor(second.origin, "markdown", finished, (s) => s.state === "completed", 5_000)
        const outputAgain = await fetchSigned(second.origin, again.data!.downloadURL)
        assert.strictEqual(outputAgain.status, 200)
        assert.isTrue(outputAgain.body.equals(output.body))
        const file = await fetchSigned(second.origin, fileUrl)
        assert.strictEqual(file.status, 200, file.body.toString())
        assert.isTrue(file.body.equals(Buffer.from(pdf)))

        // A new task on the restarted server converts as before.
        const moved = new URL(fileUrl)
        const fresh = await submit(second.origin, "markdown", `${second.origin}${moved.pathname}${moved.search}`)
        assert.strictEqual(
          (await waitFor(second.origin, "markdown", fresh, (s) => s.state !== "processing", 20_000)).state,
          "completed"
        )
        await kill(second)
        // With a blob directory, the bytes were files there, and the rows held none of them.
        const outputs = Path.join(dataDir, "blobs", "outputs")
        assert.strictEqual(Fs.existsSync(outputs) && Fs.readdirSync(outputs).length === 3, blobs)
      } finally {
        Fs.rmSync(dataDir, { recursive: true, force: true })
      }
    },
    90_000
  )
})
