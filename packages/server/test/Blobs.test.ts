/**
 * The store with a blob directory (`blobDir`): the bytes of outputs and uploads are files there,
 * the rows hold none of them; a dropped row takes its files with it; a file the rows name and the
 * folder lacks is a 503 for its own request; files a crash left without a row go at the next start.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import * as BlobDirectory from "../src/internal/blobDirectory.js"
import type { Harness } from "./harness.js"
import { bearer, json, pathOf, serve, settle, status, submitted, upload } from "./harness.js"
import { digestConverter, digestOf, fakePdf } from "./utils.js"

const partSize = 5 * 1024 * 1024

/** A folder of its own, removed with the test's scope. */
const folder = Effect.acquireRelease(
  Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-blobs-"))),
  (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

const random = (size: number) => {
  const bytes = fakePdf(size)
  for (let i = 16; i < size; i++) bytes[i] = (i * 7919) % 251
  return bytes
}

/** A chunked upload of `file`, its parts sent in order: the `cache://` URL to submit. */
const chunked = (h: Harness, file: Uint8Array) =>
  Effect.gen(function*() {
    const init = yield* h.request({
      method: "POST",
      path: "/v1/uploads/init",
      headers: { ...bearer, ...json },
      body: JSON.stringify({ file_extension: ".pdf", size: file.byteLength })
    })
    assert.strictEqual(init.status, 200, init.body.toString())
    const data = (init.json as {
      data: { upload_id: string; total_parts: number; presigned_urls: Record<string, string> }
    }).data
    for (let n = 1; n <= data.total_parts; n++) {
      const put = yield* h.request({
        method: "PUT",
        path: pathOf(data.presigned_urls[String(n)]!),
        headers: { "content-type": "application/octet-stream" },
        body: file.subarray((n - 1) * partSize, n * partSize)
      })
      assert.strictEqual(put.status, 200, put.body.toString())
    }
    const url = yield* h.request({ path: `/v1/uploads/${data.upload_id}/url`, headers: bearer })
    assert.strictEqual(url.status, 200, url.body.toString())
    return { uploadId: data.upload_id, url: (url.json as { data: { url: string } }).data.url }
  })

/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): Array<string> =>
  (Fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<Fs.Dirent>)
    .filter((entry) => entry.isFile())
    .map((entry) => Path.relative(dir, Path.join(entry.parentPath, entry.name)))
    .sort()

/**
 * A process writing into `dir` forever (`fixtures/blob-writer.ts`), killed with SIGKILL once a
 * temporary file shows: what such a crash leaves behind. Tried again in the rare case that the kill
 * fell between two writes.
 */
const killedMidWrite = (dir: string) =>
  Effect.promise(async () => {
    const fixture = fileURLToPath(new URL("fixtures/blob-writer.ts", import.meta.url))
    for (let attempt = 0; attempt < 10; attempt++) {
      const child = spawn(process.execPath, ["--import", "tsx", fixture], {
        env: { ...process.env, BLOB_DIR: dir },
        stdio: "ignore"
      })
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      const deadline = Date.now() + 30_000
      while (!filesUnder(dir).some((file) => file.endsWith(".partial")) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
      child.kill("SIGKILL")
      await exited
      if (filesUnder(dir).some((file) => file.endsWith(".partial"))) return
    }
    throw new Error("no kill landed in the middle of a write")
  })

/** One turn of Node's event loop: files are written on libuv's threads, not on Effect's clock. */
const turn = Effect.async<void>((resume) => {
  setImmediate(() => resume(Effect.void))
})

/** Turns of the event loop until `done` holds (a bound, not a schedule: it fails the test if it never does). */
const until = (done: () => boolean) =>
  Effect.gen(function*() {
    for (let turns = 0; !done() && turns < 10_000; turns++) yield* Effect.zipRight(settle, turn)
    assert.isTrue(done(), "never happened")
  })

/** Submits `pdfURL`, lets the conversion run and its output be written: the task id and its download path. */
const converted = (h: Harness, pdfURL: string) =>
  Effect.gen(function*() {
    const id = yield* submitted(h, "markdown", { pdfURL })
    let done = yield* status(h, "markdown", id)
    for (let turns = 0; done.state === "processing" && turns < 10_000; turns++) {
      yield* Effect.zipRight(settle, turn)
      done = yield* status(h, "markdown", id)
    }
    assert.strictEqual(done.state, "completed")
    return { id, download: pathOf(done.state === "completed" ? done.data.downloadURL : "") }
  })

const fileIdOf = (url: string) => pathOf(url).split("/")[3]!.split("?")[0]!

describe("a blob directory", () => {
  it.scoped("holds the bytes of uploads and outputs, whole; the rows hold none of them", () =>
    Effect.gen(function*() {
      const dir = yield* folder
      const h = yield* serve({ blobDir: dir }, digestConverter)
      const whole = random(3000)
      const big = random(2 * partSize + 1234)
      const wholeUrl = yield* upload(h, bearer, whole)
      const { uploadId, url } = yield* chunked(h, big)

      const fromWhole = yield* converted(h, wholeUrl)
      const fromChunks = yield* converted(h, url)
      for (const [task, pdf] of [[fromWhole, whole], [fromChunks, big]] as const) {
        const download = yield* h.request({ path: task.download })
        assert.strictEqual(download.status, 200)
        // The converter saw the uploaded bytes exactly, read back from the files.
        assert.strictEqual(download.body.toString(), digestOf(pdf))
        assert.strictEqual(Fs.readFileSync(Path.join(dir, "outputs", task.id), "utf8"), digestOf(pdf))
      }
      assert.deepStrictEqual(Fs.readFileSync(Path.join(dir, "files", fileIdOf(wholeUrl), "1")), Buffer.from(whole))
      const parts = [1, 2, 3].map((n) => Fs.readFileSync(Path.join(dir, "files", uploadId, String(n))))
      assert.deepStrictEqual(Buffer.concat(parts), Buffer.from(big))
      // The uploaded file downloads as it was sent.
      const again = yield* h.request({ path: pathOf(wholeUrl), headers: bearer })
      assert.deepStrictEqual(again.body, Buffer.from(whole))

      const stored = yield* Effect.orDie(h.sql<{ outputs: number; partBytes: number }>`SELECT
        (SELECT COUNT(*) FROM pdt_tasks WHERE output IS NOT NULL) AS outputs,
        (SELECT COALESCE(SUM(LENGTH(bytes)), 0) FROM pdt_parts) AS partBytes`)
      assert.deepStrictEqual(stored[0], { outputs: 0, partBytes: 0 })
      // Nothing half-written is left beside them.
      const names = Fs.readdirSync(dir, { recursive: true, encoding: "utf8" })
      assert.isFalse(names.some((name) => name.endsWith(".partial")), names.join(", "))
    }))

  it.scoped("loses a task's and an upload's files with their rows: expiry and the output budget", () =>
    Effect.gen(function*() {
      const dir = yield* folder
      const h = yield* serve({
        blobDir: dir,
        conversions: { retention: "1 minute", maxStoredBytes: 200 },
        uploads: { retention: "2 minutes" }
      }, digestConverter)
      const pdfUrl = yield* upload(h, bearer, random(500))
      // Each output is 71 bytes (a digest line): the budget of 200 keeps two.
      const tasks: Array<string> = []
      for (let n = 0; n < 3; n++) tasks.push((yield* converted(h, pdfUrl)).id)
      const outputs = () => Fs.readdirSync(Path.join(dir, "outputs")).sort()
      // The first task is dropped with the third's end; its file goes once that end has committed.
      assert.strictEqual(
        (yield* h.request({ path: `/v1/pdf-transform-markdown/result/${tasks[0]}`, headers: bearer })).status,
        404
      )
      yield* until(() => outputs().length === 2)
      assert.deepStrictEqual(outputs(), tasks.slice(1).sort())

      yield* TestClock.adjust("61 seconds")
      // A task request sweeps what has expired (at most every 5 s).
      const result = (id: string) => h.request({ path: `/v1/pdf-transform-markdown/result/${id}`, headers: bearer })
      assert.strictEqual((yield* result(tasks[1]!)).status, 404)
      yield* until(() => outputs().length === 0)
      assert.isTrue(Fs.existsSync(Path.join(dir, "files", fileIdOf(pdfUrl))))
      yield* TestClock.adjust("60 seconds")
      yield* result(tasks[2]!)
      yield* until(() => Fs.readdirSync(Path.join(dir, "files")).length === 0)
    }))

  it.scoped("a file the rows name and the folder lacks is a 503 for its own request only", () =>
    Effect.gen(function*() {
      const dir = yield* folder
      const h = yield* serve({ blobDir: dir }, digestConverter)
      const pdfUrl = yield* upload(h, bearer, random(500))
      const lost = yield* converted(h, pdfUrl)
      const kept = yield* converted(h, pdfUrl)
      Fs.rmSync(Path.join(dir, "outputs", lost.id))
      const broken = yield* h.request({ path: lost.download })
      assert.strictEqual(broken.status, 503, broken.body.toString())
      assert.strictEqual((yield* h.request({ path: kept.download })).status, 200)
      Fs.rmSync(Path.join(dir, "files", fileIdOf(pdfUrl)), { recursive: true })
      assert.strictEqual((yield* h.request({ path: pathOf(pdfUrl), headers: bearer })).status, 503)
    }))

  it.scoped("at start, removes the files no row names once an hour old, and keeps younger ones", () =>
    Effect.gen(function*() {
      const dir = yield* folder
      const hoursAgo = (path: string, hours: number) => {
        const at = new Date(Date.now() - hours * 3_600_000)
        Fs.utimesSync(path, at, at)
      }
      for (const name of ["old-task", "young-task", "old-task.1a2b.partial"]) {
        Fs.mkdirSync(Path.join(dir, "outputs"), { recursive: true })
        Fs.writeFileSync(Path.join(dir, "outputs", name), "orphan")
        if (name.startsWith("old")) hoursAgo(Path.join(dir, "outputs", name), 2)
      }
      Fs.mkdirSync(Path.join(dir, "files", "old-file"), { recursive: true })
      Fs.writeFileSync(Path.join(dir, "files", "old-file", "1"), "orphan")
      hoursAgo(Path.join(dir, "files", "old-file"), 2)
      yield* serve({ blobDir: dir })
      assert.deepStrictEqual(Fs.readdirSync(Path.join(dir, "outputs")), ["young-task"])
      assert.deepStrictEqual(Fs.readdirSync(Path.join(dir, "files")), [])
    }))

  it.scoped("rows whose bytes are files, read by a server started without the folder, are a 503 each", () =>
    Effect.gen(function*() {
      const h = yield* serve({}, digestConverter)
      const pdfUrl = yield* upload(h, bearer, random(500))
      const task = yield* converted(h, pdfUrl)
      assert.strictEqual((yield* h.request({ path: task.download })).status, 200)
      // What a server with a blob directory writes: no output in the task's row, no bytes in the part's.
      yield* Effect.orDie(h.sql`UPDATE pdt_tasks SET output = NULL WHERE id = ${task.id}`)
      yield* Effect.orDie(h.sql`UPDATE pdt_parts SET bytes = ${new Uint8Array(0)} WHERE file_id = ${fileIdOf(pdfUrl)}`)
      const output = yield* h.request({ path: task.download })
      assert.strictEqual(output.status, 503, output.body.toString())
      assert.strictEqual((yield* h.request({ path: pathOf(pdfUrl), headers: bearer })).status, 503)
    }))

  it.scoped(
    "a process killed in the middle of a write leaves outputs/ with whole files only; its temporary file goes once old",
    () =>
      Effect.gen(function*() {
        const dir = yield* folder
        yield* killedMidWrite(dir)
        const outputs = Fs.readdirSync(Path.join(dir, "outputs"))
        assert.isTrue(outputs.every((name) => /^[A-Za-z0-9-]+$/.test(name)), `outputs/: ${outputs.join(" ")}`)
        const partial = filesUnder(dir).filter((file) => file.endsWith(".partial"))
        assert.strictEqual(partial.length, 1, partial.join(" "))
        const blobs = yield* BlobDirectory.make(dir)
        const none = () => Effect.succeed(new Set<string>())
        const written = Fs.statSync(Path.join(dir, partial[0]!)).mtimeMs
        assert.strictEqual(yield* blobs.removeOrphans({ tasks: none, files: none }, written + 60_000), 0)
        yield* blobs.removeOrphans({ tasks: none, files: none }, written + BlobDirectory.orphanAgeMs + 1)
        assert.deepStrictEqual(filesUnder(dir).filter((file) => file.endsWith(".partial")), [])
      }),
    60_000
  )
})
