/**
 * The command as a person runs it with no account: the reference server starts in the process with
 * the local converter. Real conversions of corpus files, through the bundle, with no terminal.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { run, start, stopAll, temporaryFolder } from "../support/process.js"

const temporary = () => temporaryFolder("pdf-transform-cli-")
const stackTrace = /\n\s+at \S/

describe("convert on this machine", () => {
  afterAll(stopAll)

  it("converts the example folder, fails the corrupt file with a one-line reason, exits 1", async () => {
    const out = temporary()
    const result = await run([
      "convert",
      "examples/pdfs",
      "corpus/broken/ocrmypdf-invalid.pdf",
      "--to",
      "markdown",
      "--out",
      out
    ])
    const lines = result.stdout.split("\n")
    assert.strictEqual(result.code, 1, result.stdout + result.stderr)
    assert.match(lines[0]!, /^Backend: this machine \(embedded reference server, local converter, no account\)$/)
    for (const name of ["pdkids", "shared-mime-info-spec", "tracemonkey"]) {
      const output = Path.join(out, `${name}.md`)
      assert.isTrue(Fs.statSync(output).size > 1_000, `${output} is too small`)
      assert.match(lines.find((line) => line.startsWith(`converted   examples/pdfs/${name}.pdf -> `)) ?? "", /\.md \(/)
    }
    const failed = lines.filter((line) => line.startsWith("failed ") && line.includes("ocrmypdf-invalid.pdf"))
    assert.strictEqual(failed.length, 1)
    assert.match(failed[0]!, /^failed\s+corpus\/broken\/ocrmypdf-invalid\.pdf: The service could not convert it: .+\.$/)
    assert.match(result.stdout, /corpus\/broken\/ocrmypdf-invalid\.pdf\s+failed\s+The service could not convert it/)
    assert.match(result.stdout, /^3 converted, 1 failed in .+\. Outputs in /m)
    assert.isFalse(Fs.existsSync(Path.join(out, "ocrmypdf-invalid.md")))
    assert.isFalse(stackTrace.test(result.stdout + result.stderr))
  }, 180_000)

  it("converts to EPUB, and the same command again resumes from the journal instead of converting again", async () => {
    const out = temporary()
    const args = ["convert", "examples/pdfs/tracemonkey.pdf", "--to", "epub", "--out", out]
    const first = await run(args)
    assert.strictEqual(first.code, 0, first.stdout + first.stderr)
    const book = Fs.readFileSync(Path.join(out, "tracemonkey.epub"))
    assert.strictEqual(book.subarray(0, 2).toString("latin1"), "PK")
    assert.include(book.subarray(30, 58).toString("latin1"), "mimetypeapplication/epub+zip")
    assert.isTrue(Fs.existsSync(Path.join(out, ".pdf-transform-journal.jsonl")))

    const second = await run(args)
    assert.strictEqual(second.code, 0, second.stdout + second.stderr)
    assert.match(second.stdout, /^skipped\s+examples\/pdfs\/tracemonkey\.pdf: already converted/m)
    assert.notMatch(second.stdout, /^submitted/m)
    assert.match(second.stdout, /^0 converted, 1 done before in /m)
  }, 180_000)

  it(
    "killed mid-batch and run again: the tasks the journal names are found at the embedded server, none submitted twice",
    async () => {
      const input = temporary()
      const structure = fileURLToPath(new URL("../../../../corpus/structure/", import.meta.url))
      // The thirteen short documents (READMEs and R's manuals), not the long manuals beside them.
      const pdfs = Fs.readdirSync(structure).filter((name) => /^(.*-readme|R-.*)\.pdf$/.test(name))
      for (const name of pdfs) Fs.copyFileSync(Path.join(structure, name), Path.join(input, name))
      const out = temporary()
      const args = ["convert", input, "--to", "epub", "--out", out]
      const journal = Path.join(out, ".pdf-transform-journal.jsonl")
      interface Entry {
        readonly state: string
        readonly key: string
        readonly name?: string
        readonly sessionId?: string
      }
      const entries = (): ReadonlyArray<Entry> =>
        Fs.existsSync(journal)
          ? Fs.readFileSync(journal, "utf8").split("\n").filter((line) => line.startsWith("{")).map((line) =>
            JSON.parse(line) as Entry
          )
          : []

      const first = start(args)
      const deadline = Date.now() + 120_000
      // Killed once a task is known to the journal and still converting.
      while (!entries().some((entry) => entry.state === "submitted") && Date.now() < deadline) {
        await new Promise((resume) => setTimeout(resume, 10))
      }
      first.child.kill("SIGKILL")
      await first.exited
      const written = entries()
      const names = new Map(written.filter((e) => e.name !== undefined).map((e) => [e.key, Path.basename(e.name!)]))
      const submitted = new Map(
        written.filter((e) => e.state === "submitted").map((e) => [names.get(e.key)!, e.sessionId!])
      )
      const settled = new Set(written.filter((e) => e.state === "completed").map((e) => names.get(e.key)!))
      const unfinished = [...submitted].filter(([name]) => !settled.has(name))
      assert.isAbove(unfinished.length, 0, "the kill came after every submitted task had completed")
      assert.isTrue(Fs.existsSync(Path.join(out, ".pdf-transform-server")), "the embedded server's data is kept")

      // A submit in flight at the kill has no task id in the journal: ambiguous, not sent again by default.
      const ambiguous = [...names].filter(([key]) =>
        written.some((e) => e.key === key && e.state === "submitting") &&
        !written.some((e) => e.key === key && e.state !== "submitting")
      ).map(([, name]) => name)

      const second = await run(args)
      assert.strictEqual(second.code, ambiguous.length === 0 ? 0 : 1, second.stdout + second.stderr)
      const line = (tag: string, name: string, rest = "") =>
        new RegExp(`^${tag}\\s+\\S*${name.replace(/\./g, "\\.")}${rest}`, "m")
      for (const [name, sessionId] of unfinished) {
        // The same task, found again at the restarted embedded server: not a second one.
        assert.match(second.stdout, line("resumed", name, ` \\(task ${sessionId}\\)`))
        assert.notMatch(second.stdout, line("submitted", name, " "))
      }
      for (const name of ambiguous) assert.match(second.stdout, line("ambiguous", name, ":"))
      const books = pdfs.map((name) => Path.join(out, name.replace(/\.pdf$/, ".epub")))
      const isBook = (book: string) =>
        Fs.existsSync(book) && Fs.readFileSync(book).subarray(0, 2).toString("latin1") === "PK"
      for (const book of books) {
        const expected = !ambiguous.includes(Path.basename(book).replace(/\.epub$/, ".pdf"))
        assert.strictEqual(isBook(book), expected, book)
      }
      const data = Path.join(out, ".pdf-transform-server")
      if (ambiguous.length > 0) {
        // Kept while a document is ambiguous; the resubmitting run settles them and removes it.
        assert.isTrue(Fs.existsSync(data))
        const third = await run([...args, "--resubmit-ambiguous"])
        assert.strictEqual(third.code, 0, third.stdout + third.stderr)
        for (const book of books) assert.isTrue(isBook(book), book)
      }
      // Every document settled: the embedded server's data is removed.
      assert.isFalse(Fs.existsSync(data))
    },
    300_000
  )
})
