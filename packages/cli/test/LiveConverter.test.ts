import { assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Url from "node:url"
import { builtInstead } from "../src/internal/liveConverter.js"

/** A converter package laid out as in the repository: sources, and a build stamped `builtAt` (seconds). */
const layout = (builtAt: number | undefined) => {
  const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "live-converter-"))
  const write = (file: string, at: number) => {
    const path = Path.join(root, file)
    Fs.mkdirSync(Path.dirname(path), { recursive: true })
    Fs.writeFileSync(path, "")
    Fs.utimesSync(path, at, at)
  }
  write("src/ConverterLive.ts", 1_000)
  write("src/internal/pdf.ts", 2_000)
  // A folder counts too: a file added or removed changes its time.
  Fs.utimesSync(Path.join(root, "src", "internal"), 2_000, 2_000)
  if (builtAt !== undefined) {
    write("build/esm/ConverterLive.js", 500)
    write(".tsbuildinfo/src.tsbuildinfo", builtAt)
  }
  return {
    source: Url.pathToFileURL(Path.join(root, "src", "ConverterLive.ts")).href,
    built: Url.pathToFileURL(Path.join(root, "build", "esm", "ConverterLive.js")).href,
    [Symbol.dispose]: () => Fs.rmSync(root, { recursive: true, force: true })
  }
}

describe("which converter the command loads in the repository", () => {
  it("the JavaScript build when it is newer than every source file", () => {
    using dir = layout(3_000)
    assert.strictEqual(builtInstead(dir.source), dir.built)
  })

  it("the sources when one of them changed after the build", () => {
    using dir = layout(1_500)
    assert.strictEqual(builtInstead(dir.source), dir.source)
  })

  it("the sources when there is no build", () => {
    using dir = layout(undefined)
    assert.strictEqual(builtInstead(dir.source), dir.source)
  })

  it("an installed package's JavaScript as it is", () => {
    const installed = "file:///app/node_modules/@pdf-transform/converter/build/esm/ConverterLive.js"
    assert.strictEqual(builtInstead(installed), installed)
  })
})
