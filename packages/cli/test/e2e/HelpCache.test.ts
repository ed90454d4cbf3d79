/**
 * `--help` of each command and `--version` are answered by bin/help.mjs from dist/help.json
 * without loading the bundle: the same bytes and exit code as the bundle's, styled on a terminal
 * and plain elsewhere, as the bundle decides.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { bin, environment } from "../support/process.js"

const dist = fileURLToPath(new URL("../../dist/", import.meta.url))
const bundle = Path.join(dist, "bin.js")
const lines = Object.keys(JSON.parse(Fs.readFileSync(Path.join(dist, "help.json"), "utf8")) as object)
  .map((key) => JSON.parse(key) as ReadonlyArray<string>)
const recorder = pathToFileURL(fileURLToPath(new URL("../support/recordLoads.mjs", import.meta.url))).href
/** Makes stdout a terminal to the process, as a person's shell would. */
const terminal = ["--import", "data:text/javascript,process.stdout.isTTY=true"]
const { NO_COLOR: _noColor, ...base } = environment()
const plainEnv = { ...base, NO_COLOR: "1" }
const styledEnv = { ...base, TERM: "xterm-256color" }

const run = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
  const result = spawnSync(process.execPath, args, { env, encoding: "utf8" })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe("help answered without loading the bundle", () => {
  it("covers the help of every command and --version", () => {
    const keys = lines.map((line) => line.join(" "))
    for (const line of ["--help", "convert --help", "serve --help", "status --help", "--version"]) {
      assert.include(keys, line)
    }
  })

  for (const line of lines) {
    it(`${line.join(" ")}: the bundle's answer, plain and styled, without loading it`, () => {
      for (const [preload, env] of [[[], plainEnv], [terminal, styledEnv]] as const) {
        const full = run([...preload, bundle, ...line], env)
        assert.isAbove(full.stdout.length, 0)
        const record = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "help-cache-")), "loaded.txt")
        const cached = run([...preload, bin, ...line], {
          ...env,
          NODE_OPTIONS: `--import=${recorder}`,
          LOADED_MODULES: record
        })
        assert.deepStrictEqual([cached.code, cached.stdout, cached.stderr], [full.code, full.stdout, ""])
        const loaded = Fs.readFileSync(record, "utf8").split("\n").filter((url) => url.startsWith("file:"))
        assert.isFalse(loaded.some((url) => fileURLToPath(url).startsWith(dist)), loaded.join("\n"))
      }
    }, 60_000)
  }

  it("is styled on a terminal and plain with NO_COLOR", () => {
    assert.include(run([...terminal, bin, "--help"], styledEnv).stdout, "\x1b[")
    assert.notInclude(run([...terminal, bin, "--help"], plainEnv).stdout, "\x1b[")
  })
})
