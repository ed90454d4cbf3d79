import * as NodeContext from "@effect/platform-node/NodeContext"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Inputs from "../src/internal/inputs.js"
import { stopAll, temporaryFolder } from "./support/process.js"

afterAll(stopAll)

const tree = () => {
  const root = temporaryFolder("pdf-transform-inputs-")
  for (const file of ["b.pdf", "a.PDF", "notes.txt", "sub/c.pdf", ".hidden/d.pdf", "sub/.e.pdf", "dir.pdf/f.pdf"]) {
    Fs.mkdirSync(Path.dirname(Path.join(root, file)), { recursive: true })
    Fs.writeFileSync(Path.join(root, file), "%PDF-1.4\n")
  }
  return root
}

const sources = (inputs: Inputs.Inputs) =>
  inputs.jobs.map((job) => (job.source instanceof URL ? job.source.href : String(job.source)))

describe("the command line's sources", () => {
  it.effect("folders give their PDFs, subfolders included, hidden ones left out, in name order", () =>
    Effect.gen(function*() {
      const root = tree()
      const inputs = yield* Inputs.collect([root, "https://example.org/paper.pdf"], "epub")
      assert.deepStrictEqual(sources(inputs), [
        Path.join(root, "a.PDF"),
        Path.join(root, "b.pdf"),
        Path.join(root, "dir.pdf/f.pdf"),
        Path.join(root, "sub/c.pdf"),
        "https://example.org/paper.pdf"
      ])
      assert.strictEqual(inputs.localFiles, 4)
      assert.isTrue(inputs.jobs.every((job) => job.format === "epub"))
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect("a file named on the command line is taken whatever its name", () =>
    Effect.gen(function*() {
      const root = tree()
      const inputs = yield* Inputs.collect([Path.join(root, "notes.txt")], "markdown")
      assert.deepStrictEqual(sources(inputs), [Path.join(root, "notes.txt")])
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect("a missing path, an empty folder or another scheme is a usage error naming it", () =>
    Effect.gen(function*() {
      const empty = temporaryFolder("pdf-transform-empty-")
      const messages = yield* Effect.forEach(
        ["/no/such/thing.pdf", empty, "ftp://example.org/a.pdf"],
        (argument) => Effect.flip(Inputs.collect([argument], "markdown")).pipe(Effect.map((error) => error.message))
      )
      assert.deepStrictEqual(messages, [
        "No such file or folder: /no/such/thing.pdf",
        `No PDF (*.pdf) in the folder ${empty}`,
        "ftp://example.org/a.pdf: only http(s) URLs and local paths can be converted"
      ])
    }).pipe(Effect.provide(NodeContext.layer)))
})
