/**
 * The command as a person runs it with no account: the reference server starts in the process with
 * the local converter. Real conversions of corpus files, through the bundle, with no terminal.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { run, stopAll } from "../support/process.js"

const temporary = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "pdf-transform-cli-"))
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
})
