import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { PDFDocument } from "pdf-lib"
import { readCorpus } from "./support/corpus.js"

const script = fileURLToPath(new URL("./support/convertLogging.ts", import.meta.url))

describe("output", () => {
  it.effect("a conversion writes nothing to stdout; tesseract's prints go to the logger", () =>
    Effect.gen(function*() {
      // TAMReview's page 13 is read by OCR (its fonts have no Unicode mapping), and tesseract
      // prints "Image too small to scale!!" and "Line cannot be recognized!!" for a rule on it.
      const file = Path.join(mkdtempSync(Path.join(Os.tmpdir(), "converter-quiet-")), "page13.pdf")
      yield* Effect.promise(async () => {
        const source = await PDFDocument.load(readCorpus("text/TAMReview.pdf"))
        const output = await PDFDocument.create()
        const [page] = await output.copyPages(source, [12])
        output.addPage(page!)
        writeFileSync(file, await output.save())
      })
      // Its own process, so that whatever reaches file descriptor 1 is seen, whichever thread wrote it.
      const result = spawnSync(process.execPath, ["--import", "tsx", script, file], {
        encoding: "utf8",
        timeout: 120_000
      })
      assert.strictEqual(result.status, 0, result.stderr)
      assert.include(result.stderr, "pages 1")
      assert.strictEqual(result.stdout, "")
      assert.match(result.stderr, /DEBUG .*Image too small to scale/, "tesseract's print reached the logger")
    }), 150_000)
})
