/**
 * The command against a service: `pdf-transform serve --simulate` in a child process, reached
 * through a proxy that counts the submits it forwards.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { countingProxy, repository, run, serve, start, stopAll, temporaryFolder } from "../support/process.js"

const key = "the-right-key"
let server: Awaited<ReturnType<typeof serve>>
/** The server's `--blob-dir`: the bytes of its outputs and uploads are files there. */
let blobs: string

/** `count` distinct PDFs (one corpus file, each with its own trailing comment), in a new folder. */
const documents = (count: number) => {
  const folder = temporaryFolder("pdf-transform-cli-in-")
  const pdf = Fs.readFileSync(Path.join(repository, "examples/pdfs/tracemonkey.pdf"))
  for (let i = 1; i <= count; i++) {
    Fs.writeFileSync(Path.join(folder, `doc-${i}.pdf`), Buffer.concat([pdf, Buffer.from(`\n% copy ${i}\n`)]))
  }
  return folder
}

describe("convert through a reference server", () => {
  beforeAll(async () => {
    blobs = temporaryFolder("pdf-transform-cli-blobs-")
    server = await serve(key, ["--simulate", "2s", "--blob-dir", blobs])
  }, 60_000)
  afterAll(stopAll)

  it("a wrong --api-key exits 3 with a sentence saying what to do, and converts nothing", async () => {
    const out = temporaryFolder("pdf-transform-cli-out-")
    const result = await run([
      "convert",
      documents(3),
      "--to",
      "markdown",
      "--out",
      out,
      "--base-url",
      server.baseUrl,
      "--api-key",
      "a-wrong-key"
    ])
    assert.strictEqual(result.code, 3, result.stdout + result.stderr)
    assert.match(result.stdout, /^Backend: http:\/\/127\.0\.0\.1:\d+\/v1, API key from --api-key$/m)
    assert.match(
      result.stdout,
      /^failed\s+\S+doc-\d\.pdf: The service at http:\S+ refused the API key: .+\. Check the key given with --api-key or PDF_TRANSFORM_API_KEY\.$/m
    )
    assert.notMatch(result.stdout + result.stderr, /\n\s+at \S/)
    assert.deepStrictEqual(Fs.readdirSync(out).filter((name) => name.endsWith(".md")), [])
  }, 60_000)

  it(
    "killed with SIGKILL mid-batch, the same command again resumes from the journal and submits nothing twice",
    async () => {
      const proxy = await countingProxy(server.baseUrl)
      try {
        const folder = documents(6)
        const out = Path.join(folder, "out")
        const args = [
          "convert",
          folder,
          "--to",
          "markdown",
          "--out",
          out,
          "--concurrency",
          "2",
          "--poll-interval",
          "200ms",
          "--base-url",
          proxy.baseUrl,
          "--api-key",
          key
        ]
        // Two slots: after the second submit the next one waits for a task to end (about 2 s), so the
        // kill lands with two tasks running; should a slow machine let a third submit start first,
        // that one must come back as ambiguous, never be sent again.
        const first = start(args)
        await first.waitFor(/^submitted .*\n(?:.*\n)*submitted /m, 30_000)
        first.child.kill("SIGKILL")
        assert.strictEqual(await first.exited, "SIGKILL")
        const sentBeforeKill = proxy.submits()
        assert.isTrue(sentBeforeKill >= 2 && sentBeforeKill < 6, String(sentBeforeKill))
        assert.match(first.stdout(), /^Backend: /)

        const second = await run(args)
        const count = (pattern: RegExp) => second.stdout.match(pattern)?.length ?? 0
        const resumed = count(/^resumed /gm)
        const ambiguous = count(/^ambiguous /gm)
        assert.strictEqual(resumed + ambiguous, sentBeforeKill, second.stdout)
        assert.strictEqual(count(/^submitted /gm), 6 - sentBeforeKill, second.stdout)
        assert.strictEqual(proxy.submits(), 6, "each of the six documents submitted once in the two runs")
        assert.strictEqual(count(/^converted /gm), 6 - ambiguous)
        assert.strictEqual(second.code, ambiguous === 0 ? 0 : 1, second.stdout + second.stderr)
        for (let i = 1; i <= 6; i++) {
          const output = Path.join(out, `doc-${i}.md`)
          if (Fs.existsSync(output)) assert.isTrue(Fs.statSync(output).size > 0)
        }
        assert.strictEqual(Fs.readdirSync(out).filter((name) => name.endsWith(".md")).length, 6 - ambiguous)
      } finally {
        await proxy.close()
      }
    },
    90_000
  )

  it("--upload-base-url sends local files with the chunked upload protocol (the hosted service's)", async () => {
    const proxy = await countingProxy(server.baseUrl)
    try {
      const out = temporaryFolder("pdf-transform-cli-out-")
      const result = await run([
        "convert",
        documents(2),
        "--to",
        "markdown",
        "--out",
        out,
        "--base-url",
        proxy.baseUrl,
        "--upload-base-url",
        `${proxy.baseUrl}/uploads`,
        "--api-key",
        key
      ])
      assert.strictEqual(result.code, 0, result.stdout + result.stderr)
      assert.strictEqual(Fs.readdirSync(out).filter((name) => name.endsWith(".md")).length, 2)
      assert.deepStrictEqual(proxy.paths().filter((path) => path.endsWith("/files")), [])
      assert.strictEqual(proxy.paths().filter((path) => path.endsWith("/uploads/init")).length, 2)
      assert.strictEqual(proxy.submits(), 2)
      // The server kept the uploaded bytes in its --blob-dir, a folder per upload.
      const uploads = proxy.paths().flatMap((path) => /\/uploads\/([^/]+)\/url$/.exec(path)?.[1] ?? [])
      assert.strictEqual(uploads.length, 2)
      for (const id of uploads) assert.isTrue(Fs.existsSync(Path.join(blobs, "files", id, "1")), id)
    } finally {
      await proxy.close()
    }
  }, 60_000)

  it("status and download follow one task by its sessionID", async () => {
    const out = temporaryFolder("pdf-transform-cli-out-")
    const converted = await run([
      "convert",
      documents(1),
      "--to",
      "epub",
      "--out",
      out,
      "--base-url",
      server.baseUrl,
      "--api-key",
      key,
      "--json"
    ])
    assert.strictEqual(converted.code, 0, converted.stdout + converted.stderr)
    const events = converted.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)
    assert.deepStrictEqual(events[0]?.event, "Backend")
    const submitted = events.find((event) => event.event === "Submitted")
    const sessionId = String(submitted?.sessionId)
    assert.deepStrictEqual(events.at(-1)?.event, "Summary")
    assert.deepStrictEqual(events.at(-1)?.exitCode, 0)

    const connection = ["--base-url", server.baseUrl, "--api-key", key]
    const status = await run(["status", sessionId, "--to", "epub", ...connection])
    assert.strictEqual(status.code, 0, status.stderr)
    assert.match(status.stdout, new RegExp(`^Task ${sessionId} \\(epub\\): completed 100%; download URL: http`))

    const target = Path.join(out, "again.epub")
    const download = await run(["download", sessionId, "--to", "epub", "--out", target, ...connection])
    assert.strictEqual(download.code, 0, download.stderr)
    assert.deepStrictEqual(Fs.readFileSync(target), Fs.readFileSync(Path.join(out, "doc-1.epub")))

    const wrongFormat = await run(["status", sessionId, "--to", "markdown", ...connection])
    assert.strictEqual(wrongFormat.code, 1)
    assert.match(
      wrongFormat.stderr,
      /^error: The service does not know task \S+ \(markdown\).*belong to the other format \(--to\)\.$/m
    )
  }, 60_000)
})
