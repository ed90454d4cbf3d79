/** Help, version, completions and usage errors: what a person sees before converting anything. */
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"
import { run, stopAll } from "../support/process.js"

const version = (JSON.parse(Fs.readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as {
  readonly version: string
}).version

describe("usage", () => {
  afterAll(stopAll)

  it("--help lists the commands, each command's help has examples", async () => {
    const root = await run(["--help"])
    assert.strictEqual(root.code, 0)
    for (const command of ["convert", "serve", "status", "download"]) assert.include(root.stdout, `- ${command} `)
    assert.include(root.stdout, "EXAMPLES")
    assert.include(root.stdout, "pdf-transform convert examples/pdfs --to markdown --out out")
    const convert = await run(["convert", "--help"])
    assert.strictEqual(convert.code, 0)
    assert.include(convert.stdout, "EXAMPLES")
    assert.include(convert.stdout, "pdf-transform convert examples/pdfs --to markdown --out out")
    assert.include(convert.stdout, "--resubmit-ambiguous")
  })

  it("no ANSI escapes when the output is not a terminal, NO_COLOR set or not", async () => {
    for (const env of [{ NO_COLOR: "" }, { NO_COLOR: "1" }]) {
      const help = await run(["--help"], { env })
      assert.strictEqual(help.code, 0)
      assert.include(help.stdout, "USAGE")
      assert.notInclude(help.stdout, "\x1b[")
      const wrong = await run(["convert", "examples/pdfs"], { env })
      assert.strictEqual(wrong.code, 2)
      assert.include(wrong.stderr, "--to")
      assert.notInclude(wrong.stderr, "\x1b[")
    }
  })

  it("--version prints the package's version", async () => {
    const result = await run(["--version"])
    assert.strictEqual(result.code, 0)
    assert.strictEqual(result.stdout.trim(), version)
  })

  it("--completions prints a shell's completion script", async () => {
    const result = await run(["--completions", "bash"])
    assert.strictEqual(result.code, 0)
    assert.include(result.stdout, "complete -F")
    assert.include(result.stdout, "convert")
  })

  it("a command line that cannot run exits 2 with what is wrong", async () => {
    const missingFormat = await run(["convert", "examples/pdfs"])
    assert.strictEqual(missingFormat.code, 2)
    assert.include(missingFormat.stderr, "--to")
    const missingFile = await run(["convert", "no/such/file.pdf", "--to", "markdown"])
    assert.strictEqual(missingFile.code, 2)
    assert.strictEqual(missingFile.stderr.trim(), "error: No such file or folder: no/such/file.pdf.")
    const badDuration = await run(["convert", "examples/pdfs", "--to", "epub", "--timeout", "soon"])
    assert.strictEqual(badDuration.code, 2)
    assert.include(badDuration.stderr, "is not a duration")
    const keyless = await run(["convert", "examples/pdfs", "--to", "epub", "--base-url", "http://127.0.0.1:9/v1"])
    assert.strictEqual(keyless.code, 2)
    assert.include(keyless.stderr, "needs an API key")
  }, 60_000)

  it("a node of a shared database refuses to start with keys or a signing key of its own", async () => {
    const database = ["serve", "--port", "0", "--database-url", "postgres://127.0.0.1:9/pdt"]
    const madeUpKeys = await run(database)
    assert.strictEqual(madeUpKeys.code, 2)
    assert.include(madeUpKeys.stderr, "--database-url needs --keys")
    const noSigningKey = await run([...database, "--keys", "k1"])
    assert.strictEqual(noSigningKey.code, 2)
    assert.include(noSigningKey.stderr, "needs PDF_TRANSFORM_SERVER_SIGNING_KEY")
    // Given both, it tries the database and says why it cannot start.
    const unreachable = await run([...database, "--keys", "k1"], {
      env: { PDF_TRANSFORM_SERVER_SIGNING_KEY: "a-signing-key-of-the-whole-cluster" }
    })
    assert.notStrictEqual(unreachable.code, 0)
    assert.include(unreachable.stderr, "connect to the database")
    assert.include(unreachable.stderr, "ECONNREFUSED")
    // Three processes: an upper bound for a loaded machine, not a guess.
  }, 60_000)
})
